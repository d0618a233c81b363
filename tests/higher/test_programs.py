"""Realistic programs through derivatives of derivatives (tests/higher/programs.py),
against central finite differences in float64: each derivative function is first checked
itself against differences of the function it differentiates."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import rng
from tests.higher import programs as p
from transform import grad, jvp


def data():
    r = rng("gog programs")
    X = r.normal(size=(12, 3))
    y = (r.uniform(size=12) < 0.5).astype(float)
    return r.normal(size=3), X, y


def test_gradient_norm_penalty_double_backprop():
    w, X, y = data()
    assert_close(p.loss_grad(w, X, y), numerical_grad(p.loss, [w, X, y], 0))
    for wrt in (0, 3):
        args = [w, X, y, 0.7]
        assert_close(grad(p.penalised, wrt)(*args), numerical_grad(p.penalised, args, wrt),
                     rtol=1e-5, atol=1e-7)


def test_gradient_norm_penalty_wrt_the_data():
    w, X, y = data()
    assert_close(grad(p.penalised, 1)(w, X, y, 0.7),
                 numerical_grad(p.penalised, [w, X, y, 0.7], 1), rtol=1e-5, atol=1e-7)


def test_force_sensitivities():
    r = rng("gog forces")
    pos, target = r.normal(size=(4, 2)), r.normal(size=(4, 2))
    assert_close(p.energy_grad(pos, 0.5), numerical_grad(p.energy, [pos, 0.5], 0))
    args = [pos, 0.5, target]
    for wrt in (0, 1):
        assert_close(grad(p.force_mismatch, wrt)(*args),
                     numerical_grad(p.force_mismatch, args, wrt), rtol=1e-5, atol=1e-6)


def test_force_tangent_by_forward_mode():
    r = rng("gog forces jvp")
    pos, target, t = r.normal(size=(4, 2)), r.normal(size=(4, 2)), r.normal(size=(4, 2))
    _, tangent = jvp(p.force_mismatch, (pos, 0.5, target), (t, 0.3), wrt=(0, 1))
    want = np.sum(numerical_grad(p.force_mismatch, [pos, 0.5, target], 0) * t) + \
        0.3 * numerical_grad(p.force_mismatch, [pos, 0.5, target], 1)
    assert_close(tangent, want, rtol=1e-5, atol=1e-6)


def test_laplace_log_det_1d_third_derivatives():
    assert_close(p.curvature(0.4, 2.0),
                 numerical_grad(grad(p.neg_log_post), [0.4, 2.0], 0), rtol=1e-6, atol=1e-8)
    for wrt in (0, 1):
        assert_close(grad(p.laplace_log_det, wrt)(0.4, 2.0),
                     numerical_grad(p.laplace_log_det, [0.4, 2.0], wrt), rtol=1e-5,
                     atol=1e-7)


def test_laplace_log_det_of_a_hessian_built_from_rows():
    w = np.array([0.3, -0.2, 0.5])
    H = np.stack([p.hessian_row(w, 1.5, e) for e in np.eye(3)])
    want = np.stack([numerical_grad(lambda w: np.sum(p.vector_grad(w, 1.5) * e), [w], 0)
                     for e in np.eye(3)])
    assert_close(H, want, rtol=1e-5, atol=1e-7)
    for wrt in (0, 1):
        assert_close(grad(p.log_det_hessian, wrt)(w, 1.5),
                     numerical_grad(p.log_det_hessian, [w, 1.5], wrt), rtol=1e-5,
                     atol=1e-6)


def test_newton_steps_converge_quadratically():
    x, errors = 1.5, []
    for _ in range(12):
        x = p.newton_step(x)
        errors.append(abs(p.newton_first(x)))
    assert errors[-1] < 1e-14
    ratios = [b / a ** 2 for a, b in zip(errors, errors[1:]) if 1e-7 < a < 1e-2]
    assert ratios and max(ratios) < 10.0, errors
    assert_close(p.newton_second(x), numerical_grad(p.newton_first, [x], 0), rtol=1e-6)


def test_derivative_of_a_newton_step():
    # at a minimiser the Newton map's derivative vanishes (superlinear convergence)
    for x in (1.2, -0.4):
        assert_close(grad(p.newton_step)(x), numerical_grad(p.newton_step, [x], 0),
                     rtol=1e-5, atol=1e-7)
    x = 1.5
    for _ in range(8):
        x = p.newton_step(x)
    assert abs(grad(p.newton_step)(x)) < 1e-8


@pytest.mark.parametrize("wrt", [0, 1])
def test_value_and_grad_inside(wrt):
    assert_close(grad(p.value_and_slope, wrt)(0.8, 1.3),
                 numerical_grad(p.value_and_slope, [0.8, 1.3], wrt), rtol=1e-5, atol=1e-7)
