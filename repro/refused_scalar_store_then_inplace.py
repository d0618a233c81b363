"""A valid program refused (not a wrong gradient; found by red31's random slice programs,
session 31). After `w3[:2] = k` (a float stored into an ndarray's slots: NumPy copies the
value), the alias analysis takes w3 to hold k, a copy of w3 to hold it too, and in a loop
refuses `w5[:3] *= 0.5` because "`k` may share memory with `w5[:3]`". Without the loop,
or without the branch, it is accepted.

    .venv/bin/python repro/refused_scalar_store_then_inplace.py
"""
import numpy as np

from transform import grad


def f(u, k):
    for _ in range(2):
        w3 = u.copy()
        w3[:2] = k
        u = w3
        if k > 0:
            u = np.tanh(u)
        else:
            w5 = u.copy()
            w5[:3] *= 0.5
            u = w5
    return np.sum(u ** 2)


if __name__ == "__main__":
    print(f(np.linspace(0.1, 0.9, 5), -0.7))
    print(grad(f, wrt=(0, 1))(np.linspace(0.1, 0.9, 5), -0.7))   # TransformError
