"""Programs whose loop variable (or a name the loop body assigns) reuses a name bound,
and active, before the loop.

Each takes `(x, n)`: x a float or a float array, n the trip count (0, 1 or several), and
returns a scalar. After a loop that ran, the name holds the last iteration's value; after
a zero-trip loop it keeps the value bound before the loop. The backward sweep must give
the name back its pre-loop value after the loop, and the adjoint of a loop variable must
stop at the header (each trip binds it afresh), not flow into the name's earlier value.
"""
import numpy as np


def range_target_read_after(x, n):
    i = x * 2.0
    y = x * i
    for i in range(n):
        y = y * x + i
    return np.sum(y * i)


def underscore_target(x, n):
    _ = x * 3.0
    y = x * _
    for _ in range(n):
        y = y * x
    return np.sum(y + _ * x)


def range_target_read_before_only(x, n):
    i = x * 2.0
    y = x * i
    for i in range(n):
        y = y * x + i
    return np.sum(y)


def list_target_read_after(x, n):
    v = x * 3.0
    s = v * v
    for v in [x * (k + 1.0) for k in range(n)]:
        s = s + v * x
    return np.sum(s * v)


def array_rows_target(x, n):
    rows = np.stack([x * (k + 1.0) for k in range(n)]) if n else np.zeros((0,) + np.shape(x))
    r = np.sin(x)
    s = r * x
    for r in rows:
        s = s + r * r
    return np.sum(s * r)


def enumerate_targets(x, n):
    k = x * 0.5
    v = x * 2.0
    s = k * v
    for k, v in enumerate([x * 1.5 for _ in range(n)]):
        s = s + v * k
    return np.sum(s * v + k * x)


def zip_targets(x, n):
    a = np.cos(x)
    b = x * x
    s = a * b
    for a, b in zip([x * 2.0 for _ in range(n)], range(n)):
        s = s * 0.5 + a * b
    return np.sum(s + a * b)


def tuple_targets(x, n):
    a = x * 1.5
    b = np.sin(x)
    s = a + b
    for a, b in [(x * 2.0, x * x) for _ in range(n)]:
        s = s + a * b
    return np.sum(s * a * b)


def nested_reuses_outer(x, n):
    i = x * 2.0
    y = x * i
    for i in range(n):
        for i in range(2):
            y = y * x + i
        y = y + i
    return np.sum(y * i)


def nested_inner_reuses_pre_loop(x, n):
    j = x * 1.5
    y = x * j
    for i in range(n):
        for j in range(i + 1):
            y = y * x + j
    return np.sum(y * j)


def body_assigns_pre_loop_name(x, n):
    v = x * 2.0
    w = v * x
    for k in range(n):
        v = v * x + k
    return np.sum(v * w)


def comprehension_variable(x, n):
    i = x * 2.0
    ys = [x * i for i in range(n)]
    return np.sum(sum(ys) + x) * np.sum(i)


def comprehension_active_variable(x, n):
    v = x * 2.0
    ys = [v * x for v in [x * 3.0 for _ in range(n)]]
    return np.sum(sum(ys) + x) * np.sum(v)


def two_loops_same_target(x, n):
    v = x * 2.0
    s = v * x
    for v in [x * 3.0 for _ in range(n)]:
        s = s + v * v
    t = s * v
    for v in range(n):
        t = t * x + v
    return np.sum(t * v)


def target_then_rebound_in_body(x, n):
    v = x * 2.0
    s = v * x
    for v in [x * 3.0 for _ in range(n)]:
        v = v * x
        s = s + v
    return np.sum(s * v)


def while_body_rebinds(x, n):
    v = x * 2.0
    s = v * x
    k = 0
    while k < n:
        v = x * (k + 1.0)
        s = s + v * v
        k = k + 1
    return np.sum(s * v)


def parameter_reused_as_target(x, n):
    y = x * x
    for x in [y * 2.0 for _ in range(n)]:
        y = y + x * y
    return np.sum(y * x)


def target_loop_with_break(x, n):
    i = x * 2.0
    y = x * i
    for i in range(n + 2):
        if i >= n:
            break
        y = y * x + i
    return np.sum(y * i)


def target_loop_inside_branch(x, n):
    v = x * 2.0
    s = v * x
    if n > 1:
        for v in [x * 3.0 for _ in range(n)]:
            s = s + v * v
    return np.sum(s * v)


def target_rebound_by_augmented_body(x, n):
    i = x * 2.0
    y = x * i
    for i in range(n):
        i += 1
        y = y * x + i
    return np.sum(y * i)


def target_list_of_arrays_zero_trip_read_after(x, n):
    v = np.cos(x)
    s = v * x
    for v in [x * (k + 2.0) for k in range(n)][1:]:
        s = s * v
    return np.sum(s + v * v)


def target_loop_with_inactive_body(x, n):
    i = x * 2.0
    c = 0.0
    for i in range(n):
        c = c + 1.0
    return np.sum(i * x) + c


def target_loop_with_empty_body(x, n):
    v = np.sin(x)
    for v in [x * 3.0 for _ in range(n)]:
        pass
    return np.sum(v * x)


PROGRAMS = [range_target_read_after, underscore_target, range_target_read_before_only,
            list_target_read_after, array_rows_target, enumerate_targets, zip_targets,
            tuple_targets, nested_reuses_outer, nested_inner_reuses_pre_loop,
            body_assigns_pre_loop_name, comprehension_variable,
            comprehension_active_variable, two_loops_same_target,
            target_then_rebound_in_body, while_body_rebinds, parameter_reused_as_target,
            target_loop_with_break, target_loop_inside_branch,
            target_rebound_by_augmented_body, target_list_of_arrays_zero_trip_read_after,
            target_loop_with_inactive_body, target_loop_with_empty_body]
