"""sqrtm's and logm's refusals pinned one function at a time (session 26 tested them only
together, so either one's check could go unseen while the other refused), and logm's
cotangent at a large cotangent: the block [[A^T, G], [0, A^T]] has A's eigenvalues, so its
log is real; scipy keeps an imaginary part above 1e-10 absolute, which a large G reaches
by rounding alone, and the rule used to refuse such a real A as "an eigenvalue on the
closed negative real axis"."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.gradcheck import POLICIES  # noqa: E402
from transform import grad  # noqa: E402

NEGATIVE = [np.array([[1.0, 2.0], [0.5, -3.0]]), np.array([[-1.0, 0.2], [0.0, -2.0]])]
STACK = np.stack([np.array([[2.0, 0.3], [0.1, 1.5]]), np.array([[3.0, 0.2], [-0.4, 2.5]])])
WEIGHTS = np.arange(1.0, 9.0).reshape(2, 2, 2)


def real_root(a):
    return np.sum(np.real(sl.sqrtm(a)))


def real_log(a):
    return np.sum(np.real(sl.logm(a)))


@pytest.mark.parametrize("f", [real_root, real_log], ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", NEGATIVE, ids=["one-negative", "both-negative"])
def test_a_complex_result_is_refused_for_each_function(f, a):
    with pytest.raises(ValueError, match="real results only"):
        grad(f)(a)


def stacked_root(a):
    return np.sum(sl.sqrtm(a) * WEIGHTS)


def stacked_log(a):
    return np.sum(sl.logm(a) * WEIGHTS)


@pytest.mark.parametrize("f", [stacked_root, stacked_log], ids=lambda f: f.__name__)
def test_a_stack_of_matrices_is_refused(f):
    """scipy 1.17 computes sqrtm/logm of a stack; the rules are for one matrix (without
    the check, sqrtm's gave numbers for a stack and logm's crashed inside)."""
    with pytest.raises(ValueError, match="not a stack"):
        grad(f)(STACK)


def scaled_log(a):
    return 1e6 * np.sum(sl.logm(a) * np.arange(1.0, 17.0).reshape(4, 4))


@pytest.mark.parametrize("policy", POLICIES)
def test_logm_with_a_large_cotangent_is_differentiated(policy):
    """Eigenvalues 2.5 +- 0.9i and 1.7 +- 0.4i (a real log); the cotangent is 1e6 * W."""
    a = np.random.default_rng(1).normal(size=(4, 4)) + 2 * np.eye(4)
    assert not np.iscomplexobj(sl.logm(a)) and not np.all(np.isreal(np.linalg.eigvals(a)))
    assert_close(grad(scaled_log, policy=policy)(a), numerical_grad(scaled_log, [a], 0),
                 rtol=1e-6, atol=1e-3)


def test_structured_solve_vjp_refuses_a_kind_it_does_not_know():
    """Every kind scipy 1.17 accepts has a part (solve itself raises on others first); a
    kind added later must raise here, not be read as some other part of `a`."""
    from runtime.rules.scipy_linalg_more import structured_solve_vjp
    a, b = np.eye(2) * 2.0, np.ones(2)
    with pytest.raises(ValueError, match="unknown assume_a='skew'"):
        structured_solve_vjp(np.ones(2), b / 2, a, b, 0, "skew", False, False)
