"""Python's builtins on values being differentiated: max/min (several arguments or one
iterable; ties split), pow, divmod, sorted, reversed, .item()/.tolist() of scalars."""
import numpy as np

from .case import case, floats


@case(floats((), (), ()))
def max_of_scalars(a, b, c):
    return max(a * b, b - c, c) + min(a, 2.0 * c)


@case(floats((4,)))
def max_of_array_entries(x):
    return max(x[0], x[1] * 2, x[2]) * min(x[3], x[0])


@case(floats((5,)))
def max_and_min_of_an_array(x):
    return max(x) - 2.0 * min(x) + max(np.sin(x))


@case(floats((3,)))
def max_of_a_list_comprehension(x):
    return max([v * v for v in x]) + min(list(x), key=abs)


@case(floats((), ()))
def max_with_a_tie(a, b):
    return max(a, a, b - 10.0) + min(b, b)


@case(floats((), (3,), offset=2.0, scale=0.3))
def builtin_pow(a, x):
    return pow(a, 3) + np.sum(pow(x, a)) + pow(2.0, a)


@case(floats((), (), offset=2.0, scale=0.5))
def divmod_remainder(a, b):
    q, r = divmod(3.0 * a, b)
    return r * 2.0 + q * a


@case(floats((3,), offset=1.5, scale=0.4))
def divmod_of_arrays(x):
    q, r = divmod(x, 0.7)
    return np.sum(r ** 2 + q)


@case(floats((4,)))
def sorted_prefix(x):
    ys = sorted([x[0], x[1] * 2, x[2], np.tanh(x[3])])
    return ys[0] + 2.0 * ys[1] + 3.0 * ys[3]


@case(floats((5,)))
def sorted_array_reversed_and_keyed(x):
    top = sorted(x, reverse=True)
    by_size = sorted(x, key=abs)
    return top[0] * 3.0 + top[1] + by_size[0] * by_size[4]


@case(floats((4,)))
def reversed_list_in_enumerate(x):
    xs = [x[0], x[1] * 2.0, np.sin(x[2]), x[3]]
    return sum([v * (k + 1) for k, v in enumerate(reversed(xs))])


@case(floats((4,)))
def reversed_array_loop(x):
    s = 0.0
    for v in reversed(x):
        s = 0.5 * s + v * v
    return s


@case(floats((3,)))
def scalar_item_and_tolist(x):
    return x[0].item() * 2.0 + sum(x.tolist()) * x[1].tolist()
