"""A program Python stops with ValueError that thunkgrad differentiates (older than
session 31; found by red31b against the unpacked tuple display). Unpacking more values
than targets, `a, b = x, y, z` (or a helper, a rule like np.linalg.svd, an array of
length 3), raises "too many values to unpack (expected 2)" in Python; the compiled
function binds a, b = t[0], t[1] and returns a gradient. Too few values give an
IndexError instead of Python's ValueError. Not a wrong gradient of a running program,
but the meaning changes: an error is hidden. A fix needs a length check where the
tuple is not a display of known length (a runtime helper), or a refusal where it is.

    .venv/bin/python repro/unpack_too_many_values.py
"""
import numpy as np

from transform import grad


def h3(p, q):
    return p * q, q, p


def f(x, y, z):
    a, b = x, y, z                  # ValueError in Python
    return np.sum(a * b)


def g(x, y):
    a, b = x, y
    for _ in range(2):
        a, b = h3(a, b)             # the inlined helper's three values: ValueError in Python
    return np.sum(a * b)


if __name__ == "__main__":
    ones = np.ones(3)
    for fn, args in ((f, (ones, ones, ones)), (g, (ones, ones))):
        try:
            fn(*args)
        except ValueError as e:
            print(f"{fn.__name__}: Python raises ValueError: {e}")
        print(f"{fn.__name__}: thunkgrad returns", grad(fn, wrt=0)(*args))
