"""Reported bugs fixed in round 26 (each crashed or was refused; now right against
finite differences under every policy): max/min with a key over tuples holding arrays,
NumPy scalar constructors of differentiated values, np.piecewise with closure pieces."""
import numpy as np

from .case import case, floats


# ---- max/min over tuples holding arrays (np.ndim of a ragged tuple raised) ----

@case(floats((2,)))
def max_by_key_over_pairs(x):
    pairs = [(1.0, x), (2.0, x * 2.0)]
    return np.sum(max(pairs, key=lambda p: p[0])[1])


@case(floats((3,), (3,)))
def max_and_min_by_score(x, w):
    pairs = [(np.sum(x * w), x), (0.5, x * 2.0), (np.sum(x), np.sin(x))]
    best = max(pairs, key=lambda p: p[0])
    worst = min(pairs, key=lambda p: p[0])
    return np.sum(best[1] * w) + best[0] + np.sum(worst[1] ** 2)


@case(floats((3,)))
def max_over_ragged_pairs(x):
    pairs = [(np.sum(x), x[:1]), (np.sum(x * x), x)]
    return np.sum(max(pairs, key=lambda p: p[0])[1] ** 2)


@case(floats((4,)))
def sorted_pairs_by_key(x):
    pairs = sorted([(x[0], x[1:]), (x[1], x[:2] * 3.0)], key=lambda p: p[0])
    return np.sum(pairs[0][1]) - 2.0 * np.sum(pairs[1][1] ** 2)


# ---- a lambda whose default reads a differentiated local (`lambda t, a=a: ...`) was a
# constant function: its default carried no derivative (a silent zero) ----

@case(floats((4,), ()))
def default_bound_lambda_in_a_list(r, a):
    fs = [lambda t, a=a: a * np.sin(t)]
    return np.sum(fs[0](r))


def _apply_twice(f, x):
    return f(f(x))


@case(floats((4,), ()))
def default_bound_lambda_as_an_argument(r, a):
    return np.sum(_apply_twice(lambda t, a=a: a * np.sin(t), r))


@case(floats((3,), (3,)))
def default_bound_lambdas_in_a_loop(r, scales):
    fs = []
    for c in scales:
        fs.append(lambda t, c=c: c * np.tanh(t))
    return sum(np.sum(f(r)) for f in fs)


# ---- enumerate with a start, np.float64 of a differentiated value, a slotted object,
# a closure piece of np.piecewise, deep recursion (the other reported bugs) ----

@case(floats((), (4,)), wrt=(0,))
def enumerate_from_two(w, xs):
    s = 0.0
    for i, x in enumerate(xs, 2):
        s = s + np.sin(w * x) * i
    return s


@case(floats((3,), (3,)))
def float64_of_a_loss(x, w):
    return np.float64(np.sum((x * w - 1.0) ** 2)) + np.float64(x[0]) * w[1]


@case(floats((5,), (), (5,)), wrt=(0, 1))
def huber_closure_pieces(r, w, y):
    delta = 0.8
    z = r * w - y
    return np.sum(np.piecewise(z, [np.abs(z) <= delta],
                               [lambda t: 0.5 * t ** 2,
                                lambda t: delta * (np.abs(t) - 0.5 * delta)]))


def _unroll(x, n):
    return x if n == 0 else np.cos(_unroll(x, n - 1)) * 0.5 + 0.25 * x


@case(lambda rng: [float(rng.uniform(-1, 1)), 450], wrt=(0,))
def recursion_450_deep(x, n):
    return _unroll(x, n)
