"""red37: numbers of several types in one program (the typed reverse IR): integer
arrays and counts, boolean masks as numbers, integer powers and divisions, float32
constants, Python floats from arrays, NumPy scalars."""
import numpy as np


def int_array_weights(x):
    k = np.arange(len(x))
    return np.sum(x ** 2 * k) + np.sum(x * (k // 2)) + np.sum(x) / len(x)


def mask_as_number(x):
    pos = (x > 0).astype(float)
    return np.sum(pos * x ** 2 + (1 - pos) * np.sin(x))


def integer_powers(x):
    return np.sum(x ** -2 + 2 ** x + np.power(x, 3) + x ** 0.5 * 0 + np.square(x) / x.size)


def float32_constant(x):
    c = np.float32(0.5)
    return np.sum(np.tanh(x * c)) + float(c) * np.sum(x)


def python_float_branch(x):
    s = float(np.sum(x))
    if s > 0:
        return np.sum(x ** 3) * 0.1
    return np.sum(np.exp(x))


def numpy_scalar_loop(x):
    acc = np.float64(0.0)
    for v in x:
        acc += np.float64(2.0) * v * v
    return acc * np.int64(3)


def half_split_floor_div(x):
    n = len(x) // 2
    return np.sum(x[:n] * x[n:2 * n]) + x[-1] ** 2


def bool_sum_count(x):
    count = np.sum(x > 0.0)
    return np.sum(x ** 2) / (count + 1) + count * np.sum(x)


def int_scalar_argument_mix(x, n=3):
    out = x
    for k in range(1, n + 1):
        out = out + x ** k / k
    return np.sum(out)


def divmod_index(x):
    q, r = divmod(len(x), 3)
    return np.sum(x[:q] ** 2) + r * np.sum(x)
