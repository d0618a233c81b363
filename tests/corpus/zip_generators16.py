"""Generator functions given to `zip` in a loop or comprehension (session 29): zip stops
at its shortest argument, so Python may read a longer generator in part; the generated
code builds all its items at the call, which changes nothing when the generator surely
ends and prints nothing (no `while`, `yield from`, `raise` or `assert`; `for` loops over
`range(...)` or values). Those run, scalar and array inputs against finite differences
under every policy; an endless or printing generator in zip stays refused (write
`zip(list(gen(x)), ys)`)."""
import numpy as np

from .case import floats, refused
from .data_values import both


def powers(x, n):
    for k in range(n):
        yield x ** (k + 1)


def scaled_rows(x, weights):
    for w in weights:
        yield np.sin(x) * w


def counting(x):
    k = 0
    while True:
        yield x * k
        k += 1


def noisy(x):
    for k in range(3):
        print("item", k)
        yield x * k


@both
def zip_generator_with_a_list(x):
    total = 0.0
    for p, c in zip(powers(x, 3), [1.0, -0.5, 0.25]):
        total = total + np.sum(p * c)
    return total


@both
def zip_longer_generator_stops_at_the_list(x):
    weights = [0.5, 2.0]
    return sum(np.sum(a * b) for a, b in zip(powers(x, 5), scaled_rows(x, weights)))


@both
def zip_list_first_then_generator(x):
    total = 0.0
    for c, p in zip((2.0, 3.0), powers(np.cos(x), 4)):
        total = total + c * np.sum(p)
    return total


@refused(floats((3,)), "the loop body writes into a container the generator might read")
def zip_generator_loop_that_appends(x):
    out = []
    for c, p in zip((2.0, 3.0), powers(np.cos(x), 4)):
        out.append(c * p)
    return np.sum(out[0] + out[1])


@refused(floats((3,)), "a generator that never ends given to zip")
def zip_endless_generator(x):
    total = 0.0
    for a, b in zip(counting(x), [1.0, 2.0]):
        total = total + np.sum(a * b)
    return total


@refused(floats((3,)), "a printing generator given to zip")
def zip_printing_generator(x):
    total = 0.0
    for a, b in zip(noisy(x), [1.0, 2.0]):
        total = total + np.sum(a * b)
    return total
