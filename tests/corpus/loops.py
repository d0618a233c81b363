"""for over range/arrays/lists/enumerate/zip, while loops, nested loops, carried state."""
import numpy as np

from .case import case, floats, positive, given, mixed


@case(floats(()))
def range_accumulate(x):
    s = 0.0
    for i in range(4):
        s = s + x * i
    return s


@case(floats(()))
def range_product(x):
    p = 1.0
    for i in range(3):
        p = p * (x + i)
    return p


@case(floats(()))
def carried_state(x):
    y = x
    for _ in range(5):
        y = np.sin(y) + 0.5 * x
    return y


@case(floats((3,)))
def range_with_start_stop_step(a):
    s = 0.0
    for i in range(1, 6, 2):
        s = s + a[i // 2] * i
    return s


@case(floats((4,)))
def for_over_array(a):
    s = 0.0
    for v in a:
        s = s + v * v
    return s


@case(floats((3, 2)))
def for_over_matrix_rows(A):
    s = 0.0
    for row in A:
        s = s + np.sum(row) * row[0]
    return s


@case(floats((), (), ()))
def for_over_list(x, y, z):
    s = 0.0
    for v in [x, y, z]:
        s = s * 0.5 + v * v
    return s


@case(floats((4,)))
def enumerate_loop(a):
    s = 0.0
    for i, v in enumerate(a):
        s = s + i * v * v
    return s


@case(floats((3,), (3,)))
def zip_loop(a, b):
    s = 0.0
    for u, v in zip(a, b):
        s = s + u * v + u
    return s


@case(floats(()))
def while_counter(x):
    i = 0
    y = x
    while i < 4:
        y = y * 0.5 + x
        i = i + 1
    return y


@case(given(0.3))
def while_on_data(x):
    y = x
    while y < 2.0:
        y = y * 1.5 + 0.1
    return y * x


@case(floats((2, 3)))
def nested_range_loops(A):
    s = 0.0
    for i in range(2):
        for j in range(3):
            s = s + A[i, j] * (i + j + 1)
    return s


@case(floats((3,)))
def nested_loops_carried(a):
    s = 0.0
    for i in range(3):
        t = a[i]
        for j in range(2):
            t = t * a[j] + 0.1
        s = s + t
    return s


@case(mixed(floats((3,)), lambda rng: [3]))
def loop_bound_argument(a, n):
    s = a * 0.0
    for i in range(n):
        s = s + a * (i + 1)
    return np.sum(s * s)


@case(floats((3,)))
def loop_array_state(a):
    h = a
    for _ in range(3):
        h = np.tanh(h * 0.9 + a)
    return np.sum(h)


@case(floats((3, 3), (3,)))
def rnn_like(W, x):
    h = x
    for _ in range(4):
        h = np.tanh(W @ h + x)
    return np.sum(h * h)


@case(floats(()))
def loop_variable_after_loop(x):
    for i in range(3):
        y = x * i
    return y * x


@case(floats(()))
def loop_zero_iterations(x):
    y = x * 2.0
    for i in range(0):
        y = y * x
    return y


@case(floats((4,)))
def loop_reads_previous_element(a):
    s = 0.0
    prev = a[0]
    for v in a:
        s = s + v * prev
        prev = v
    return s


@case(positive((3,)))
def while_with_condition_on_array(a):
    k = 0
    s = 0.0
    while k < 3 and s < 100.0:
        s = s + np.log(a[k]) * a[k]
        k += 1
    return s


@case(floats((3,)))
def loop_builds_list_then_reduces(a):
    hs = []
    h = a
    for _ in range(3):
        h = np.sin(h) * a
        hs.append(np.sum(h))
    total = 0.0
    for v in hs:
        total = total + v * v
    return total


@case(given(0.4))
def while_with_inner_for(x):
    k = 0
    y = x
    while k < 2:
        for j in range(2):
            y = y * x + j
        k = k + 1
    return y


@case(floats((2, 2), (2,)))
def loop_over_reversed_range(W, x):
    h = x
    for i in range(3, 0, -1):
        h = np.tanh(W @ h) * i
    return np.sum(h)


@case(floats((4,)))
def zip_into_one_name(x):
    # (was an internal compiler error: loops over zip took only tuple targets)
    s = 0.0
    for pair in zip(x, x[::-1]):
        s = s + pair[0] * pair[1]
    for item in enumerate(x):
        s = s + item[0] * item[1]
    return s + sum([p[0] - p[1] for p in zip(x, np.sin(x))])
