"""grad(grad(f)) and deeper, and jvp/vjp/hvp/hessian/jacfwd/jacrev of grad(f)
(transform/derivatives.py), against central finite differences in float64 (tests/fd.py):
each order against differences of the order below (itself checked against differences),
and the second order also against second differences of f (a looser tolerance)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import POLICIES, rng
from tests.higher.functions import POINTS, SCALAR, two_args, vector, vector_loop
from transform import grad, hessian, hvp, jacfwd, jacrev, jvp, value_and_grad, vjp


def second_difference(f, x, h=1e-4):
    return (f(x + h) - 2.0 * f(x) + f(x - h)) / (h * h)


@pytest.mark.parametrize("f", SCALAR, ids=lambda f: f.__name__)
def test_first_derivative_matches_differences(f):
    x = POINTS[f]
    assert_close(grad(f)(x), numerical_grad(f, [x], 0))


@pytest.mark.parametrize("f", SCALAR, ids=lambda f: f.__name__)
def test_second_derivative_matches_differences_of_grad_and_of_f(f):
    x = POINTS[f]
    got = grad(grad(f))(x)
    assert_close(got, numerical_grad(grad(f), [x], 0), rtol=1e-5, atol=1e-6)
    assert_close(got, second_difference(f, x), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("f", SCALAR, ids=lambda f: f.__name__)
def test_third_derivative_matches_differences_of_the_second(f):
    x = POINTS[f]
    got = grad(grad(grad(f)))(x)
    assert_close(got, numerical_grad(grad(grad(f)), [x], 0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("f", SCALAR[:3], ids=lambda f: f.__name__)
def test_fourth_derivative_matches_differences_of_the_third(f):
    x = POINTS[f]
    got = grad(grad(grad(grad(f))))(x)
    assert_close(got, numerical_grad(grad(grad(grad(f))), [x], 0, eps=1e-5),
                 rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_policy(policy):
    x = POINTS[SCALAR[1]]
    got = grad(grad(SCALAR[1], policy=policy), policy=policy)(x)
    assert_close(got, numerical_grad(grad(SCALAR[1]), [x], 0), rtol=1e-5, atol=1e-6)


def test_value_and_grad_of_grad_and_its_derivatives():
    f, x = SCALAR[0], POINTS[SCALAR[0]]
    value, second = value_and_grad(grad(f))(x)
    assert_close(value, grad(f)(x), rtol=1e-12, atol=0)
    assert_close(second, numerical_grad(grad(f), [x], 0), rtol=1e-5, atol=1e-6)
    out, tangent = jvp(grad(f), (x,), (0.7,))
    assert_close(out, grad(f)(x), rtol=1e-12, atol=0)
    assert_close(tangent, 0.7 * second, rtol=1e-10, atol=0)
    out, pullback = vjp(grad(f), x)
    assert_close(pullback(-2.0)[0], -2.0 * second, rtol=1e-10, atol=0)
    third = numerical_grad(grad(grad(f)), [x], 0)
    assert_close(hvp(grad(f), (x,), (0.5,)), 0.5 * third, rtol=1e-5, atol=1e-6)
    assert_close(hessian(grad(f))(x), third, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("f", [vector, vector_loop], ids=lambda f: f.__name__)
def test_jacobians_and_jvp_of_a_gradient_are_the_hessian(f):
    w = np.array([0.3, -0.8, 1.1])
    H = hessian(f)(w)
    assert_close(jacrev(grad(f))(w), H, rtol=1e-10, atol=1e-12)
    assert_close(jacfwd(grad(f))(w), H, rtol=1e-10, atol=1e-12)
    v = rng("gog jvp", f.__name__).normal(size=3)
    _, tangent = jvp(grad(f), (w,), (v,))
    assert_close(tangent, numerical_jvp(grad(f), [w], 0, v), rtol=1e-5, atol=1e-6)


def test_value_and_grad_of_a_two_argument_gradient_gives_mixed_blocks():
    r = rng("gog mixed")
    x, y, t = r.normal(size=3), r.normal(size=3), r.normal(size=3)
    out, tangent = jvp(grad(two_args), (x, y), (np.zeros(3), t))
    assert_close(tangent, numerical_jvp(grad(two_args), [x, y], 1, t), rtol=1e-5,
                 atol=1e-6)
    _, pullback = vjp(grad(two_args), x, y)
    cx, cy = pullback(t)
    assert_close(cx, numerical_jvp(grad(two_args), [x, y], 0, t), rtol=1e-5, atol=1e-6)
    assert_close(cy, numerical_grad(lambda y: np.sum(grad(two_args)(x, y) * t), [y], 0),
                 rtol=1e-5, atol=1e-6)


def asserting(x):
    assert x > 0, "x must be positive"           # pytest rewrites this module's asserts
    return x ** 3 * np.log(x)


def test_an_assert_in_a_module_pytest_rewrote():
    # generated code names this module but was compiled by thunkgrad: its source check
    # must not rewrite its asserts as pytest rewrote the module's (a spurious refusal)
    assert_close(grad(grad(asserting))(1.7), numerical_grad(grad(asserting), [1.7], 0),
                 rtol=1e-5, atol=1e-6)
