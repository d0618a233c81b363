"""`u.shape` (.size, .ndim, len) reaching a position without a derivative, under the
specialised rule (argument shapes known) and the general one (none: `u` might be an
object), against finite differences; an object's differentiable `size` stays refused."""
import dataclasses

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, rng
from transform import TransformError, grad, unthunk, vjp
from transform.api import compiled


def arange_of_shape(u):
    return np.sum(u ** 2 * np.arange(u.shape[0]))


def arange_of_size(u):
    return np.sum(np.sin(u) * np.arange(u.size))


def ones_of_len(u):
    return np.sum(u * np.arange(len(u)) + np.ones(len(u)))


def arange_of_ndim(u):
    return np.sum(u ** 3) * np.arange(u.ndim + 2)[-1]


def zeros_of_shape(u):
    z = np.zeros(u.shape) + np.arange(u.shape[0])
    return np.sum(z * u * u)


def loop_grown(u):
    v = u
    for _ in range(3):
        v = np.concatenate([v, v[:1] * 2.0])
        v = v * (1.0 + np.arange(v.shape[0]) / v.shape[0])
    return np.sum(v ** 2)


CASES = [arange_of_shape, arange_of_size, ones_of_len, arange_of_ndim, zeros_of_shape,
         loop_grown]


def general_gradient(fn, policy, u):
    """The rule compiled without argument shapes, run on `u`."""
    out, pullback = compiled(fn, ("u",), policy).rrule(u)
    return out, unthunk(pullback(1.0)[0])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_general_rule_matches_finite_differences(fn, policy):
    u = rng(fn.__name__, 5).standard_normal(5)
    out, got = general_gradient(fn, policy, u)
    assert_close(out, fn(u))
    assert_close(got, numerical_grad(fn, (u,), 0))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_every_shape_through_the_specialised_and_general_rules(fn, policy):
    g = grad(fn, policy=policy)
    for n in range(2, 14):                    # past the specialisations: the general rule
        u = rng(fn.__name__, n).standard_normal(n)
        assert_close(g(u), numerical_grad(fn, (u,), 0))


@dataclasses.dataclass
class Sized:
    w: np.ndarray
    size: object


def arange_of_object_size(p):
    return np.sum(p.w * np.arange(p.size))


@pytest.mark.parametrize("policy", POLICIES)
def test_an_objects_float_size_is_refused_when_it_runs(policy):
    p = Sized(np.ones(3), 3.0)
    with pytest.raises((TransformError, TypeError), match="may carry"):
        vjp(arange_of_object_size, p, policy=policy)
    with pytest.raises((TransformError, TypeError), match="may carry"):
        compiled(arange_of_object_size, ("p",), policy).rrule(p)


@pytest.mark.parametrize("policy", POLICIES)
def test_an_objects_integer_size_has_no_derivative(policy):
    p = Sized(rng("sized").standard_normal(3), 3)
    out, pullback = vjp(arange_of_object_size, p, policy=policy)
    assert_close(out, arange_of_object_size(p))
    dp = pullback(1.0)[0]
    dw = dp["w"] if isinstance(dp, dict) else dp.w
    assert_close(dw, np.arange(3.0))


def arange_of_made_object(u):
    s = Sized(u, u[0] * 3.0)
    return np.sum(s.w * np.arange(s.size))


def test_a_made_object_keeps_the_compile_time_refusal():
    with pytest.raises(TransformError, match="np.arange"):
        grad(arange_of_made_object)(np.ones(3))
