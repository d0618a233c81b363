"""Rules for what the no-derivative table used to turn into silent zeros: fill
values, endpoints, `%`, np.r_ / np.c_, a.fill(v). Gradients against central
differences under every policy."""
import math
import operator

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad

X = np.array([0.3, -1.2, 0.8])
W = np.array([[0.5, -0.4, 1.1], [0.9, 0.2, -0.7]])


def full_scalar(s):
    return np.sum(np.full(3, s) * X)


def full_array_fill(s, v):
    return np.sum(np.full((2, 3), v) * W) + np.sum(np.full((2, 3), s, dtype=np.float64) ** 2)


def full_like_fill(x, s):
    return np.sum(np.full_like(x, s) * x)


def full_like_integer(x, s):
    return np.sum(np.full_like(np.arange(3), s) * x)      # int output: s truncated, no slope


def linspace_ends(a, b):
    return np.sum(np.linspace(a, b, 5) ** 2 * np.arange(5))


def linspace_options(a, b):
    return np.sum(np.linspace(a, b, 4, endpoint=False, axis=1) ** 2 * np.arange(4))


def linspace_arrays(a, b):
    return np.sum(np.linspace(a, b, 4, axis=-1) ** 2)


def linspace_retstep(a, b):
    xs, step = np.linspace(a, b, 6, retstep=True)
    return np.sum(xs ** 2) + 3.0 * step


def geomspace_ends(a, b):
    return np.sum(np.geomspace(a, b, 5) * np.arange(5))


def geomspace_negative(a, b):
    return np.sum(np.geomspace(-a, -b, 4, endpoint=False) ** 2)


def logspace_ends(a, b):
    return np.sum(np.logspace(a, b, 5, base=2.0) * np.arange(5))


def logspace_base(a, base):
    return np.sum(np.logspace(a, 1.0, 4, base=base))


def mod_scalar(x, y):
    return x % y + operator.mod(x, 0.7)


def mod_array(x, y):
    return np.sum(np.mod(x, y) ** 2 + np.remainder(x, 0.9) + np.fmod(x, y))


def mod_math(x, y):
    return math.fmod(x, y) * 2.0


def r_items(x, s):
    return np.sum(np.r_[x, 2 * x, s, 0:2] ** 2)


def c_items(x, s):
    return np.sum(np.c_[x, s * x] * W.T)


def r_directive(x):
    return np.sum(np.r_["0,2", x, x * x] * W)


def fill_local(x, s):
    a = np.zeros(3)
    a.fill(s)
    return np.sum(a * x)


def fill_in_loop(x, s):
    a = np.zeros(3)
    total = 0.0
    for k in range(3):
        a.fill(s * k)
        total = total + np.sum(a * x)
    return total


def heaviside_value(x, h):
    return np.sum(np.heaviside(x, h))


CASES = [
    (full_scalar, (1.5,)), (full_array_fill, (0.7, np.array([0.1, 0.4, -0.3]))),
    (full_like_fill, (X, 1.5)), (full_like_integer, (X, 1.5)),
    (linspace_ends, (0.5, 2.0)), (linspace_options, (np.array([0.1, 0.4]), 2.0)),
    (linspace_arrays, (np.array([0.1, 0.4]), np.array([1.0, 2.0]))),
    (linspace_retstep, (0.5, 2.0)), (geomspace_ends, (0.5, 2.0)),
    (geomspace_negative, (0.5, 2.0)), (logspace_ends, (0.5, 2.0)),
    (logspace_base, (0.5, 3.0)), (mod_scalar, (3.3, 2.0)), (mod_scalar, (-3.3, 2.0)),
    (mod_array, (np.array([3.3, -1.2, 5.5]), np.array([2.0, 0.7, -1.5]))),
    (mod_math, (-3.3, 2.0)), (r_items, (X, 1.5)), (c_items, (X, 1.5)), (r_directive, (X,)),
    (fill_local, (X, 1.5)), (fill_in_loop, (X, 1.5)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", CASES, ids=[f"{c[0].__name__}{k}" for k, c in
                                              enumerate(CASES)])
def test_gradient_matches_finite_differences(f, args, policy):
    check_grad(f, args, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_heaviside_value_at_zero(policy):
    check_grad(heaviside_value, (np.array([0.0, 1.0, -2.0]), 0.3), wrt=(1,), policy=policy)


def test_logspace_array_base():
    check_grad(lambda a, base: np.sum(np.logspace(a, 1.0, 3, base=base)),
               (0.5, np.array([2.0, 3.0])))


def test_index_trick_forward_value_is_the_primal():
    from transform import value_and_grad
    value, _ = value_and_grad(r_items, wrt=(0, 1))(X, 1.5)
    assert value == r_items(X, 1.5)


def active_slice(a):
    return np.sum(np.r_[a:3.0])


def active_mgrid(a):
    return np.sum(np.mgrid[0.0:1.0:a])


def arange_endpoint(a):
    return np.sum(np.arange(a, 3.0, 0.5))


def pad_value(x, c):
    return np.sum(np.pad(x, 1, constant_values=c))


def fill_argument(x, s):
    x.fill(s)
    return np.sum(x)


def fill_alias(x, s):
    a = x * 1.0
    b = a
    a.fill(s)
    return np.sum(b)


@pytest.mark.parametrize("f, args, message", [
    (active_slice, (0.5,), "reaches argument 1 of slice"),
    (active_mgrid, (4.0,), "np.mgrid"),
    (arange_endpoint, (0.5,), "reaches argument 1 of np.arange"),
    (pad_value, (X, 0.5), "`constant_values` of np.pad"),
    (fill_alias, (X, 0.5), "writing into `a`"),
])
def test_refused_before_running(f, args, message):
    with pytest.raises(TransformError, match=message.replace("(", r"\(")) as info:
        grad(f, wrt=tuple(range(len(args))))(*args)
    assert info.value.line is not None


def test_fill_of_an_argument_works_on_a_copy():
    # the argument is copied on entry (transform/desugar.py): the caller's array is
    # untouched, the gradient is the primal's
    x = X.copy()
    check_grad(fill_argument, (x, 0.5))
    np.testing.assert_array_equal(x, X)
