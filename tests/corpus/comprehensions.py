"""List comprehensions and generator expressions, including sum(... for ...)."""
import numpy as np

from .case import case, floats


@case(floats((4,)))
def sum_generator(a):
    return sum(v * v for v in a)


@case(floats(()))
def sum_generator_range(x):
    return sum(x ** i for i in range(4))


@case(floats((4,)))
def list_comprehension_sum(a):
    ys = [np.sin(v) * v for v in a]
    return sum(ys)


@case(floats((4,)))
def list_comprehension_index(a):
    ys = [v * 2.0 for v in a]
    return ys[0] * ys[3] + ys[1]


@case(floats((4,)))
def comprehension_with_filter(a):
    return sum(v * v for v in a if v > 0)


@case(floats((3,), (3,)))
def comprehension_over_zip(a, b):
    return sum(u * v for u, v in zip(a, b))


@case(floats((4,)))
def comprehension_over_enumerate(a):
    return sum(i * v for i, v in enumerate(a))


@case(floats((3, 2)))
def comprehension_over_rows(A):
    norms = [np.sum(row * row) for row in A]
    return sum(norms) * norms[0]


@case(floats(()))
def comprehension_of_closed_over_arg(x):
    terms = [x * k for k in range(3)]
    return terms[0] + terms[1] * terms[2]


@case(floats((4,)))
def comprehension_then_np_array(a):
    ys = [v * v for v in a]
    return np.sum(np.array(ys) * a)


@case(floats((3,)))
def nested_comprehension_loops(a):
    rows = [sum(u * v for v in a) for u in a]
    return sum(rows)


@case(floats((4,)))
def generator_into_loop(a):
    total = 0.0
    for s in [v + 1.0 for v in a]:
        total = total + s * s
    return total


@case(floats((4,), ()))
def comprehension_reads_outer_scalar(a, s):
    return sum(np.sin(v * s) for v in a) * s


@case(floats((3,)))
def comprehension_filter_on_index(a):
    return sum(a[i] * a[i] for i in range(3) if i != 1)


@case(floats((3,)))
def list_comprehension_of_arrays(a):
    parts = [a * k for k in range(1, 4)]
    return np.sum(parts[2] * parts[0]) + np.sum(parts[1])


@case(floats((2, 3)))
def comprehension_max_like(A):
    sums = [np.sum(row ** 2) for row in A]
    return sums[0] * sums[1]


@case(floats((4,)))
def generator_in_np_sum_of_list(a):
    return np.sum(np.array([v * v for v in a]))
