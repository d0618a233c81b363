"""Calls of derivative functions inside code being differentiated, in both modes: grad
(the derivative function's reverse rule) and jvp (its tangent, another derivative
function), against central finite differences of the calling function; gradients with
respect to one argument, a tuple of them, value_and_grad, defaults, keyword-only
parameters, f with loops and branches."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import POLICIES, rng
from tests.higher.functions import two_args, vector, vector_loop
from transform import grad, jvp, value_and_grad

vector_grad = grad(vector)
loop_grad = grad(vector_loop)
both_grads = grad(two_args, wrt=(0, 1))
value_grad = value_and_grad(two_args, wrt=1)


def looped_sum(x, n=3, *, scale):
    s = 0.0
    for k in range(n):
        if k % 2 == 0:
            s = s + np.sum(np.sin(scale * x) * k)
        else:
            s = s + np.sum(x ** 2) * scale
    return s


looped_grad = grad(looped_sum)


def directional(w, v):
    return np.sum(vector_grad(w) * v)


def through_loop(w, v):
    return np.sum(loop_grad(w) * v) + np.sum(w * w)


def both(x, y):
    gx, gy = both_grads(x, y)
    return np.sum(gx * gy) + np.sum(gx ** 2)


def valued(x, y):
    value, gy = value_grad(x, y)
    return value * np.sum(gy) + np.sum(np.tanh(gy))


def with_keywords(x, y):
    return np.sum(looped_grad(x, scale=0.8) ** 2 * y) + np.sum(looped_grad(x, 2, scale=1.5))


def args_of(fn):
    r = rng("gog calls", fn.__name__)
    return [r.normal(size=3), r.normal(size=3)]


CALLERS = [directional, through_loop, both, valued, with_keywords]


@pytest.mark.parametrize("fn", CALLERS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("wrt", [0, 1])
def test_grad_of_a_caller(fn, wrt):
    args = args_of(fn)
    assert_close(grad(fn, wrt)(*args), numerical_grad(fn, args, wrt), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", CALLERS, ids=lambda f: f.__name__)
def test_jvp_of_a_caller(fn):
    args = args_of(fn)
    r = rng("gog calls jvp", fn.__name__)
    t0 = r.normal(size=3)
    t1 = r.normal(size=np.shape(args[1])) if np.ndim(args[1]) else 0.6
    out, tangent = jvp(fn, tuple(args), (t0, t1))
    want = numerical_jvp(fn, args, 0, t0) + numerical_jvp(fn, args, 1, t1)
    assert_close(out, fn(*args), rtol=1e-12, atol=0)
    assert_close(tangent, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_policy(policy):
    args = args_of(through_loop)
    assert_close(grad(through_loop, policy=policy)(*args),
                 numerical_grad(through_loop, args, 0), rtol=1e-5, atol=1e-6)


def test_the_first_derivatives_called_match_differences():
    x, y = args_of(both)
    assert_close(both_grads(x, y)[1], numerical_grad(two_args, [x, y], 1))
    assert_close(value_grad(x, y)[1], numerical_grad(two_args, [x, y], 1))
    assert_close(looped_grad(x, scale=0.8),
                 numerical_grad(lambda x: looped_sum(x, scale=0.8), [x], 0))


def applies(x, fn):
    return np.sum(fn(x, 2.0 * x) ** 2)


def test_a_derivative_function_passed_as_a_value_in_both_modes():
    x = args_of(both)[0]
    fn = grad(two_args)
    assert_close(grad(applies)(x, fn), numerical_grad(lambda x: applies(x, fn), [x], 0),
                 rtol=1e-5, atol=1e-6)
    t = rng("gog value tangent").normal(size=3)
    _, tangent = jvp(applies, (x, fn), (t,), wrt=0)
    assert_close(tangent, numerical_jvp(lambda x: applies(x, fn), [x], 0, t), rtol=1e-5,
                 atol=1e-6)


def scalar_pair(x, y):
    return np.sin(x * y) * x ** 2 + y ** 3


@pytest.mark.parametrize("inner, outer", [(0, 1), (1, 0), (1, 1)])
def test_mixed_second_derivatives_of_two_floats(inner, outer):
    first = grad(scalar_pair, inner)
    assert_close(grad(first, outer)(0.7, 1.2), numerical_grad(first, [0.7, 1.2], outer),
                 rtol=1e-5, atol=1e-6)
