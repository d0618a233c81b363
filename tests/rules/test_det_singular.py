"""np.linalg.det's and scipy.linalg.det's derivatives at singular matrices (session 40,
detsing): the gradient is the cofactor matrix and the Hessian its derivative, both defined
at every matrix (runtime/rules/det_helpers.py), where the inverse-based rules raised
LinAlgError (exactly singular) or gave wrong Hessians (numerically singular). Every mode
against central differences of det (a polynomial: nested differences are accurate).
slogdet and inv, whose derivatives are infinite there, raise LinAlgError."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import grad, hessian, hvp, jacfwd, jvp

RNG = np.random.default_rng(40)
ZERO_ROW = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [4.0, 5.0, 7.0]])
UV = np.outer([1.0, 2.0, 3.0], [0.5, -1.0, 2.0])
RANK3 = RNG.standard_normal((4, 3)) @ RNG.standard_normal((3, 4))    # numerically singular
CASES = {"2x2 rank 1": np.array([[1.0, 2.0], [2.0, 4.0]]), "3x3 zero row": ZERO_ROW,
         "3x3 u v^T": UV, "3x3 zero": np.zeros((3, 3)), "4x4 rank 3": RANK3,
         "stack": np.stack([ZERO_ROW, RNG.standard_normal((3, 3)), UV]),
         "invertible": RNG.standard_normal((3, 3))}
ROUTES = ("forward_over_reverse", "reverse_over_forward")


def det_sum(a):
    return np.sum(np.linalg.det(a))


def _grad_ref(a):
    return numerical_grad(det_sum, (a,), 0, eps=1e-4)


@pytest.mark.parametrize("name", CASES)
def test_first_order(name):
    a = CASES[name]
    v = RNG.standard_normal(a.shape)
    want = numerical_grad(det_sum, (a,), 0)
    assert_close(grad(det_sum)(a), want, 1e-6, 1e-8, "grad")
    assert_close(jacfwd(det_sum)(a), want, 1e-6, 1e-8, "jacfwd")
    assert_close(jvp(det_sum, (a,), (v,))[1], np.sum(want * v), 1e-6, 1e-8, "jvp")


@pytest.mark.parametrize("name", CASES)
def test_second_order(name):
    a = CASES[name]
    v = RNG.standard_normal(a.shape)
    want = numerical_jvp(_grad_ref, [a], 0, v, eps=1e-4)
    for route in ROUTES:
        assert_close(hvp(det_sum, (a,), (v,), route=route), want, 1e-5, 1e-6, route)
    grad_of_grad = grad(lambda x: np.sum(grad(det_sum)(x) * v))(a)
    assert_close(grad_of_grad, want, 1e-5, 1e-6, "grad of grad")


@pytest.mark.parametrize("name", ["2x2 rank 1", "3x3 u v^T"])
def test_hessian(name):
    a = CASES[name]
    cols = [numerical_jvp(_grad_ref, [a], 0, e.reshape(a.shape), eps=1e-4)
            for e in np.eye(a.size)]
    assert_close(hessian(det_sum)(a), np.reshape(cols, a.shape + a.shape), 1e-5, 1e-6)


def test_scipy_det_at_a_singular_matrix():
    sl = pytest.importorskip("scipy.linalg")
    v = RNG.standard_normal((3, 3))
    f = lambda a: sl.det(a)                      # noqa: E731
    assert_close(grad(f)(UV), numerical_grad(f, (UV,), 0), 1e-6, 1e-8, "grad")
    want = numerical_jvp(lambda a: numerical_grad(f, (a,), 0, eps=1e-4), [UV], 0, v, eps=1e-4)
    for route in ROUTES:
        assert_close(hvp(f, (UV,), (v,), route=route), want, 1e-5, 1e-6, route)


def test_both_routes_of_the_cofactor_agree(monkeypatch):
    """The inverse's route (well-conditioned) and the SVD's (forced) give one answer."""
    from runtime.rules import det_helpers
    a = np.stack([RNG.standard_normal((4, 4)), RNG.standard_normal((4, 4)) + 1j])
    e = RNG.standard_normal(a.shape)
    fast = det_helpers.cofactor(a), det_helpers.cofactor_jvp(a, e)
    monkeypatch.setattr(det_helpers, "_ROBUST_CONDITION", 0.0)
    for got, want in zip((det_helpers.cofactor(a), det_helpers.cofactor_jvp(a, e)), fast):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("fn", [lambda a: np.linalg.slogdet(a)[1],
                                lambda a: np.sum(np.linalg.inv(a))], ids=["slogdet", "inv"])
def test_infinite_derivatives_raise(fn):
    a, v = CASES["2x2 rank 1"], np.ones((2, 2))
    for run in (lambda: grad(fn)(a), lambda: jvp(fn, (a,), (v,)),
                *(lambda r=r: hvp(fn, (a,), (v,), route=r) for r in ROUTES)):
        with pytest.raises(np.linalg.LinAlgError):
            run()


def test_third_derivative_refused_at_a_singular_matrix():
    """det's third derivative (cofactor_jvp's cotangent in a) takes the inverse's route
    only: at a singular matrix it raises, never a wrong number."""
    from runtime.rules.det_helpers import cofactor_second
    with pytest.raises(np.linalg.LinAlgError, match="third derivative"):
        cofactor_second(UV, np.ones((3, 3)), np.eye(3))
