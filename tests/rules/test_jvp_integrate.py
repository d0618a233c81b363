"""odeint's and solve_ivp's JVPs (session 33): forward sensitivities, ds/dt = df/dy s +
df/dargs t_args beside y, the tangents of f by forward mode. Against closed forms, central
differences at tight solver tolerances, and the adjoint-method cotangents
(<v, J t> == <J^T v, t> to the solvers' accuracy); forward mode compiles through them."""
import numpy as np
import pytest

import runtime
from tests.fd import assert_close, numerical_jvp
from tests.optional_scipy import scipy_module
import transform.api  # noqa: F401  (gives the rules reverse mode: runtime/callees.py)
import transform.forward_api  # noqa: F401  (and forward mode)
from transform import jvp

integrate = scipy_module("integrate")
pytestmark = pytest.mark.skipif(integrate is None, reason="SciPy is not installed")
T = np.linspace(0.0, 2.0, 5)
TIGHT = {"rtol": 1e-12, "atol": 1e-12}


def decay(y, t, k):
    return -k * y


def lotka(y, t, a, b):
    return np.array([a * y[0] - b * y[0] * y[1], -y[1] + b * y[0] * y[1]])


def pendulum(t, y, params):
    return np.array([y[1], -9.81 / params[1] * np.sin(y[0]) - params[0] * y[1]])


def _frule(fn, tangents, *args, **kwargs):
    return runtime.lookup(fn).frule(tangents, *args, **kwargs)


def test_decay_against_its_closed_form():
    y0, k = np.array([1.0, 2.0]), 0.7
    ans, t_y0 = _frule(integrate.odeint, {"y0": np.array([0.3, -0.5])}, decay, y0, T,
                       (k,), **TIGHT)
    assert_close(t_y0, np.exp(-k * T)[:, None] * np.array([0.3, -0.5]), rtol=1e-9)
    _, t_k = _frule(integrate.odeint, {"args": (0.2,)}, decay, y0, T, (k,), **TIGHT)
    assert_close(t_k, -T[:, None] * ans * 0.2, rtol=1e-8, atol=1e-12)


ODEINT = [(lotka, np.array([1.2, 0.8]), (0.7, 0.4), {}),
          (pendulum, np.array([0.5, 0.1]), (np.array([0.3, 1.5]),), {"tfirst": True})]


@pytest.mark.parametrize("which", ["y0", "args"])
@pytest.mark.parametrize("case", ODEINT, ids=["lotka", "pendulum-tfirst"])
def test_odeint_against_differences_and_the_adjoint(case, which):
    fn, y0, args, kw = case
    rng = np.random.default_rng(3)
    t = rng.normal(size=2) if which == "y0" else tuple(rng.normal(size=np.shape(a))
                                                       for a in args)
    kw = {**kw, **TIGHT}
    ans, tangent = _frule(integrate.odeint, {which: t}, fn, y0, T, args, **kw)
    moving = (lambda v: integrate.odeint(fn, v, T, args, **kw)) if which == "y0" else \
        (lambda v: integrate.odeint(fn, y0, T, v, **kw))
    want = numerical_jvp(moving, [y0 if which == "y0" else args], 0, t)
    assert_close(tangent, want, rtol=1e-6, atol=1e-8)
    v = rng.normal(size=ans.shape)
    rule = runtime.lookup(integrate.odeint)
    own = rule.bind((fn, y0, T, args), kw)
    cot = runtime.unthunk(rule.vjp_function(which)(v, ans, **own))
    reverse = sum(np.sum(c * d) for c, d in zip(cot, t)) if which == "args" else np.sum(cot * t)
    assert np.sum(v * tangent) == pytest.approx(reverse, rel=1e-7)


def ivp_rhs(t, y, a):
    return np.array([y[1], -a * y[0]])


def test_solve_ivp_against_differences_and_the_adjoint():
    y0, a, t_y0 = np.array([1.0, 0.2]), 2.0, np.array([0.4, -0.3])
    kw = {"t_eval": T, "args": (a,), "method": "DOP853", **TIGHT}
    rule = runtime.lookup(integrate.solve_ivp)
    for which, t in (("y0", t_y0), ("args", (0.6,))):
        sol, tangent = rule.frule({which: t}, ivp_rhs, (0.0, 2.0), y0, **kw)
        moving = (lambda v: integrate.solve_ivp(ivp_rhs, (0.0, 2.0), v, **kw).y) \
            if which == "y0" else \
            (lambda v: integrate.solve_ivp(ivp_rhs, (0.0, 2.0), y0, **{**kw, "args": v}).y)
        want = numerical_jvp(moving, [y0 if which == "y0" else (a,)], 0, t)
        assert set(tangent) == {"y"}
        assert_close(tangent["y"], want, rtol=1e-6, atol=1e-8)
        v = np.random.default_rng(4).normal(size=sol.y.shape)
        own = rule.bind((ivp_rhs, (0.0, 2.0), y0), kw)
        cot = runtime.unthunk(rule.vjp_function(which)({"y": v}, sol, **own))
        reverse = np.sum(cot * t_y0) if which == "y0" else cot[0] * 0.6
        assert np.sum(v * tangent["y"]) == pytest.approx(reverse, rel=1e-7)


def through_odeint(y0, k):
    ys = integrate.odeint(decay, y0, T, args=(k,), rtol=1e-12, atol=1e-12)
    return np.sum(ys ** 2)


def test_forward_mode_compiles_through_odeint():
    y0, k, t = np.array([1.0, 2.0]), 0.7, np.array([0.3, -0.5])
    _, got = jvp(through_odeint, (y0, k), (t, 0.2))
    want = numerical_jvp(through_odeint, [y0, k], 0, t) + \
        numerical_jvp(through_odeint, [y0, k], 1, 0.2)
    assert_close(got, want, rtol=1e-6)
