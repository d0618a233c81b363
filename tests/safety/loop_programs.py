"""Programs whose adjoints are first bound inside a loop body or a branch, and read in
another iteration, after the loop, or before their definition in the body.

Each takes `(x, n)`: x a float or a float array, n the trip count (0, 1 or many), and
returns a scalar. The class they cover: an adjoint assigned on some paths of the backward
sweep only (a branch, an iteration that may not run, a `maybe` at a join), or assigned
in one reverse iteration and read in the next.
"""
import numpy as np


def temp_used_twice(x, n):
    a = x
    t = 0.0 * x
    for i in range(n):
        h = a * a
        t = t + h
        a = a + 0.1 * h
    return np.sum(t + a)


def prev_cur(x, n):
    total = 0.0 * x
    prev = x
    for i in range(n):
        cur = 2.0 * x + i
        total = total + cur * prev
        prev = cur
    return np.sum(total)


def read_before_definition(x, n):
    y = x
    total = 0.0 * x
    for i in range(n):
        total = total + y * x
        y = np.sin(x) + 0.5 * y
    return np.sum(total)


def local_read_after_loop(x, n):
    a = x
    h = x * 0.0
    for i in range(n):
        h = np.sin(a * x)
        a = a + h
    return np.sum(a + 2.0 * h)


def temp_in_branch(x, n):
    a = x
    for i in range(n):
        if i % 2 == 0:
            h = x * a
        else:
            h = a
        a = 0.5 * a + h * h
    return np.sum(a)


def adjoint_only_in_branch(x, n):
    t = 0.0 * x
    prev = x
    for i in range(n):
        if i > 0:
            t = t + prev * x
        prev = np.cos(x) * prev
    return np.sum(t + prev)


def redefined_in_body(x, n):
    a = x
    for i in range(n):
        h = x * a
        h = h * h
        a = 0.5 * a + h
    return np.sum(a)


def swap_pair(x, n):
    a = x
    b = 0.5 * x
    for i in range(n):
        a, b = b, 0.5 * (a + b * x)
    return np.sum(a * b + a)


def augmented_total(x, n):
    a = x
    t = 0.0 * x
    for i in range(n):
        h = np.tanh(a)
        t += h * h
        a = a * 0.9 + h
    return np.sum(t)


def alloc_in_loop(x, n):
    s = 0.0
    for i in range(n):
        v = np.zeros(3)
        v[0] = np.sum(x)
        v[1:] = 2.0 * np.sum(x * x)
        s = s + np.sum(v * v)
    return s + np.sum(x)


def copy_then_write(x, n):
    u = np.linspace(0.1, 0.9, 5) * np.sum(x)
    for i in range(n):
        un = u.copy()
        un[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u ** 2)


def nested_loops(x, n):
    a = x
    t = 0.0 * x
    for i in range(n):
        prev = a
        for j in range(2):
            h = prev * a
            t = t + h
            prev = 0.5 * h
        a = a + 0.1 * prev
    return np.sum(t + a)


def while_prev_cur(x, n):
    total = 0.0 * x
    prev = x
    k = 0
    while k < n:
        cur = np.sin(x) * (k + 1)
        total = total + cur * prev
        prev = cur
        k += 1
    return np.sum(total)


def break_in_loop(x, n):
    a = x
    h = 0.0 * x
    for i in range(n + 1):
        if i == n:
            break
        h = a * x
        a = a + 0.1 * h
    return np.sum(a * h)


def continue_in_loop(x, n):
    a = x
    t = 0.0 * x
    for i in range(n):
        h = a * a
        if i % 2 == 1:
            continue
        t = t + h
        a = a + 0.1 * h
    return np.sum(t + a)


def sum_of_appended(x, n):
    xs = [x]
    for i in range(n):
        xs.append(x * (i + 1))
    return np.sum(xs)


def mean_of_comprehension(x, n):
    xs = [np.sin(x) * i for i in range(n + 1)]
    return np.mean(xs)


def sum_of_list_in_loop(x, n):
    xs = []
    s = 0.0
    for i in range(n):
        xs.append(x * (i + 1))
        s = s + np.sum(xs)
    return s + np.sum(x)


def max_of_list(x, n):
    xs = [x * x]
    for i in range(n):
        xs.append(x + i)
    return np.max(np.stack(xs)) + np.sum(xs)


def comprehension_over_array(x, n):
    ys = [v * v for v in np.tile(x, n + 1)]
    return np.sum(ys[0]) + np.sum(ys)


def read_then_append(x, n):
    """The backward sweep reads xs as it was when read, not as the loop left it."""
    xs = [x]
    s = np.sum(xs) * 0.5
    for i in range(n):
        s = s + np.sum(xs[-1] * x)
        xs.append(np.sin(xs[-1]))
    return s + np.sum(np.stack(xs) ** 2)


def dot_of_growing_list(x, n):
    xs = [x]
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.mean(xs, axis=0) * x)
        xs.append(np.cos(xs[-1]) * x)
    xs.append(1.5 * x)
    return s + np.prod(xs[-1]) + np.sum(xs)


def list_rebuilt_each_iteration(x, n):
    """A list bound anew in each iteration: the tape holds the earlier ones."""
    s = 0.0
    h = x
    for i in range(n):
        xs = [h]
        xs.append(h * 2.0)
        s = s + np.sum(xs)
        xs.append(np.sin(h))
        h = np.sum(np.stack(xs), axis=0) * 0.5
    return np.sum(s) + np.sum(h)


def loop_over_list_then_append(x, n):
    xs = [x, 2.0 * x]
    s = 0.0
    for v in xs:
        s = s + v * v
    for i in range(n):
        xs.append(np.cos(xs[-1]))
    xs.extend([x * x, 0.5 * x])
    return np.sum(s) + np.sum(xs)


def early_return_before_list(x, n):
    """Found by the fuzzer: the path taken never builds the list the sweep shortens."""
    if np.sum(x) < n - 2.5:
        return 0.1 * np.sum(x)
    xs = []
    for i in range(n):
        xs.append(np.sum(x * (i + 1)))
    return np.sum(x * x) + (xs[1] if n > 1 else 0.0)


def constant_between_appends(x, n):
    """A constant's entry is dropped from the list's cotangent, not handed to x."""
    xs = []
    for i in range(n):
        xs.append(x * i)
        xs.append(1.0)
    xs.append(x)
    s = 0.0
    for k, v in enumerate(xs):
        s = s + (k + 1.0) * np.sum(v)
    return s + np.sum(xs[-1] * xs[-1])


def read_from_previous_iteration(x, n):
    """h is bound only in the loop, and read (from the previous iteration) before it."""
    t = 0.0 * x
    for i in range(n):
        if i > 0:
            t = t + h * x
        h = np.sin(x) * (i + 1)
    return np.sum(t)


def while_previous_iteration(x, n):
    t = 0.0 * x
    k = 0
    while k < n:
        if k > 0:
            t = t + h * prev
            prev = h
        else:
            prev = x
        h = np.cos(x * k)
        k += 1
    return np.sum(t)


def nested_previous_iteration(x, n):
    t = 0.0 * x
    for i in range(n):
        for j in range(2):
            if j > 0 or i > 0:
                t = t + g * x
            g = np.sin(x + j) * t
    return np.sum(t)


PROGRAMS = [temp_used_twice, prev_cur, read_before_definition, local_read_after_loop,
            temp_in_branch, adjoint_only_in_branch, redefined_in_body, swap_pair,
            augmented_total, alloc_in_loop, copy_then_write, nested_loops, while_prev_cur,
            break_in_loop, continue_in_loop, sum_of_appended, mean_of_comprehension,
            sum_of_list_in_loop, max_of_list, comprehension_over_array,
            read_then_append, dot_of_growing_list, list_rebuilt_each_iteration,
            loop_over_list_then_append, early_return_before_list, constant_between_appends,
            read_from_previous_iteration, while_previous_iteration, nested_previous_iteration]
