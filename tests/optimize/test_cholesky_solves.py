"""np.linalg.solve of a Cholesky factor as a triangular solve (issue 19;
transform/lowering/cholesky_solves.py, runtime/rules/triangular_helpers.py).

Where the compiler shows the matrix is np.linalg.cholesky's output, unchanged, the
generated code calls `solve_cholesky_factor(L, b, lower)`; everywhere else (rebound,
changed in place, a second name, a transpose, another matrix, a branch or a closure
naming it) it keeps np.linalg.solve. Every program runs against finite differences under
every policy, with SciPy and with SciPy hidden; behaviour tests read the specialised rule
and count the triangular solves.
"""
import sys

import numpy as np
import pytest

try:                    # the compat venvs have no SciPy: the NumPy paths are checked there
    import scipy.linalg
except ImportError:
    scipy = None

from runtime import registry
from runtime.rules import decompositions_helpers as dh
from tests.gradcheck import POLICIES, check_function, rng
from transform import TransformError, value_and_grad
from transform.api import _wrt_names, compiled, signature_of

N = 6
_UPPER = "upper" in (np.linalg.cholesky.__doc__ or "") and \
    np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def spd(A):
    return A @ A.T + N * np.eye(A.shape[-1], dtype=A.dtype)


def gp(A, y):
    L = np.linalg.cholesky(spd(A))
    a = np.linalg.solve(L, y)
    return 0.5 * (a @ a) + np.sum(np.log(np.diag(L)))


def many_rhs(A, B):
    L = np.linalg.cholesky(spd(A))
    X = np.linalg.solve(L, B)
    return np.sum(X ** 2) + np.sum(L * L)


def keywords(A, y):
    L = np.linalg.cholesky(spd(A), upper=False)
    return np.sum(np.linalg.solve(b=y, a=L) ** 2)


def upper(A, y):
    U = np.linalg.cholesky(spd(A), upper=True)
    return np.sum(np.sin(np.linalg.solve(U, y)))


def upper_unknown(A, y, flag):
    L = np.linalg.cholesky(spd(A), upper=flag)
    return np.sum(np.linalg.solve(L, y) ** 2)


def solved_into_itself(A, y):
    L = np.linalg.cholesky(spd(A))
    L = np.linalg.solve(L, A)            # a full matrix now, under the same name
    return np.sum(np.linalg.solve(L, y) ** 2)


def rebound(A, y):
    L = np.linalg.cholesky(spd(A))
    L = L + 0.1 * A
    return np.sum(np.linalg.solve(L, y) ** 2)


def changed_in_place(A, y):
    L = np.linalg.cholesky(spd(A))
    L[0, 2] = 0.5
    return np.sum(np.linalg.solve(L, y) ** 2)


def second_name(A, y):
    L = np.linalg.cholesky(spd(A))
    M = L
    M[1, 3] = A[0, 0]
    return np.sum(np.linalg.solve(L, y) ** 2)


def view_write(A, y):
    L = np.linalg.cholesky(spd(A))
    V = L.T
    V[3, 0] = A[0, 0]
    return np.sum(np.linalg.solve(L, y) ** 2)


def transposed(A, y):
    L = np.linalg.cholesky(spd(A))
    return np.sum(np.linalg.solve(L.T, y) ** 2)


def other_matrix(A, y):
    L = np.tril(A) + N * np.eye(N)
    return np.sum(np.linalg.solve(L, y) ** 2)


def branch(A, y, c):
    L = np.linalg.cholesky(spd(A))
    if c > 0:
        L[2, 4] = 1.5
    return np.sum(np.linalg.solve(L, y) ** 2)


def closure(A, y):
    first = lambda: L[0, 0]           # noqa: E731  (a closure naming L: the fact is dropped)
    L = np.linalg.cholesky(spd(A))
    return np.sum(np.linalg.solve(L, y) ** 2) * first()


def in_loop(A, y):
    s = 0.0
    for k in range(2):
        L = np.linalg.cholesky(spd(A) + k * np.eye(N))
        s = s + np.sum(np.linalg.solve(L, y) ** 2)
    return s


def reused_in_a_loop(A, y):
    L = np.linalg.cholesky(spd(A))
    s = 0.0
    for k in range(3):
        s = s + np.sum(np.linalg.solve(L, y * (k + 1.0)) ** 2)
        if k > 0:
            s = s + np.sum(np.cos(np.linalg.solve(L, y)))
        else:
            s = s - np.sum(np.sin(np.linalg.solve(L, 2.0 * y)))
    return s


def changed_in_a_loop(A, y):
    L = np.linalg.cholesky(spd(A))
    s = 0.0
    for k in range(2):
        s = s + np.sum(np.linalg.solve(L, y) ** 2)
        L = L + 0.1 * A
    return s


def read_in_a_loop(A, y):
    L = np.linalg.cholesky(spd(A))
    s = 0.0
    for k in range(2):
        s = s + np.sum(np.linalg.solve(L, y) ** 2) + np.sum(L[k] * 0.5)
    return s


def batched(A, y):
    L = np.linalg.cholesky(A @ np.swapaxes(A, -1, -2) + N * np.eye(N))
    return np.sum(np.linalg.solve(L, y) ** 2)


def make(fn):
    r = rng("cholesky_solves", fn.__name__)
    A = r.normal(size=(N, N))
    if fn is batched:
        return [r.normal(size=(3, N, N)), r.normal(size=(3, N, 2))]
    if fn is many_rhs:
        return [A, r.normal(size=(N, 3))]
    if fn is branch:
        return [A, r.normal(size=N), 1.0]
    if fn is upper_unknown:
        return [A, r.normal(size=N), False]
    return [A, r.normal(size=N)]


APPLIES = [gp, many_rhs, keywords, in_loop, batched, reused_in_a_loop] + ([upper] if _UPPER else [])
REFUSES = [rebound, changed_in_place, transposed, other_matrix, branch, closure,
           changed_in_a_loop, read_in_a_loop] + \
    ([upper_unknown] if _UPPER else [])


def without_scipy(monkeypatch):
    """`from scipy.linalg import ...` fails; the solve rule's cached lookup (restored after
    the test, so no later test inherits a None) says the same."""
    if scipy is not None:
        registry._load_pending()     # SciPy's rule families registered before it is hidden
        monkeypatch.setitem(sys.modules, "scipy.linalg", None)
    monkeypatch.setattr(dh, "_SOLVE_TRIANGULAR", None)     # `from scipy.linalg` fails


@pytest.mark.parametrize("scipy_present", [True, False])
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", APPLIES + REFUSES + [solved_into_itself],
                         ids=lambda f: f.__name__)
def test_gradients_match_finite_differences(fn, policy, scipy_present, monkeypatch):
    if not scipy_present:
        without_scipy(monkeypatch)
    args = make(fn)
    check_function(fn, args, (0, 1), policy)


@pytest.mark.parametrize("fn,why", [(second_name, "another name for `L`"),
                                    (view_write, "may be a view of `L`")])
def test_a_write_through_a_second_name_is_refused(fn, why):
    # the alias check refuses it before the rewrite could matter
    with pytest.raises(TransformError, match=why):
        value_and_grad(fn, (0, 1))(*make(fn))


def source(fn, args, wrt=(0, 1)):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, "loop", signature=signature_of(args)).source


@pytest.mark.parametrize("fn", APPLIES, ids=lambda f: f.__name__)
def test_a_cholesky_factor_is_solved_as_a_triangle(fn):
    text = source(fn, make(fn))
    assert "solve_cholesky_factor(" in text and "np.linalg.solve(" not in text
    assert f"{'False' if fn is upper else 'True'})" in text.split("solve_cholesky_factor(")[1]


@pytest.mark.parametrize("fn", REFUSES, ids=lambda f: f.__name__)
def test_anything_else_keeps_the_general_solve(fn):
    text = source(fn, make(fn))
    assert "solve_cholesky_factor" not in text and "np.linalg.solve(" in text


def test_a_loop_solving_with_the_factor_reuses_it_in_every_solve():
    text = source(reused_in_a_loop, make(reused_in_a_loop)).split("def pullback")[0]
    assert text.count("solve_cholesky_factor(L, ") == 3


def test_a_factor_solved_into_its_own_name_is_a_factor_no_more():
    text = source(solved_into_itself, make(solved_into_itself)).split("def pullback")[0]
    assert text.count("solve_cholesky_factor(") == 1 and text.count("np.linalg.solve(") == 1


needs_scipy = pytest.mark.skipif(scipy is None, reason="counts SciPy's triangular solves")


def counting_solves(monkeypatch):
    calls = []
    real = scipy.linalg.solve_triangular

    def counted(*args, **kwargs):
        calls.append(kwargs.get("trans", 0))
        return real(*args, **kwargs)
    monkeypatch.setattr(scipy.linalg, "solve_triangular", counted)
    return calls


@needs_scipy
def test_forward_and_backward_each_solve_once_with_the_triangle(monkeypatch):
    args = make(gp)
    value_and_grad(gp, 0)(*args)                       # compiled before counting
    calls = counting_solves(monkeypatch)
    value, _ = value_and_grad(gp, 0)(*args)
    assert calls == [0, 1]               # forward: L x = y; backward: L^T gb = g
    calls.clear()
    value_and_grad(gp, (0, 1))(*args)    # y's cotangent solves once more (a rule per operand)
    assert calls == [0, 1, 1]
    assert value == pytest.approx(gp(*args), rel=1e-13)


@needs_scipy
def test_a_stack_takes_numpys_solve(monkeypatch):
    args = make(batched)
    value_and_grad(batched, (0, 1))(*args)
    calls = counting_solves(monkeypatch)
    value, _ = value_and_grad(batched, (0, 1))(*args)
    assert calls == [] and value == pytest.approx(batched(*args), rel=1e-13)


@pytest.mark.parametrize("scipy_present", [True, False])
def test_float32_stays_float32_and_close(scipy_present, monkeypatch):
    if not scipy_present:
        without_scipy(monkeypatch)
    A, y = make(gp)
    value, grads = value_and_grad(gp, (0, 1))(A.astype(np.float32), y.astype(np.float32))
    want_value, want = value_and_grad(gp, (0, 1))(A, y)
    assert value.dtype == np.float32 and all(g.dtype == np.float32 for g in grads)
    assert value == pytest.approx(want_value, rel=1e-5)
    for g, w in zip(grads, want):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("fn", [gp, many_rhs], ids=lambda f: f.__name__)
def test_the_value_is_the_users_up_to_rounding(fn):
    args = make(fn)
    value, _ = value_and_grad(fn, (0, 1))(*args)
    assert value == pytest.approx(fn(*args), rel=1e-13)


_R = rng("cholesky_solves", "complex")
_B = _R.normal(size=(N, N)) + 1j * _R.normal(size=(N, N))
HERMITIAN = _B @ _B.conj().T + N * np.eye(N)


def complex_factor(y, s):
    """A complex Hermitian matrix's factor (s not differentiated: the Cholesky rule is real
    only), solved with a complex right-hand side made from the real y."""
    L = np.linalg.cholesky(HERMITIAN * s)
    return np.sum(np.abs(np.linalg.solve(L, y * (1 + 0.5j))) ** 2)


@pytest.mark.parametrize("scipy_present", [True, False])
@pytest.mark.parametrize("policy", POLICIES)
def test_a_complex_factor(policy, scipy_present, monkeypatch):
    if not scipy_present:
        without_scipy(monkeypatch)
    args = [rng("cholesky_solves", "y").normal(size=N), 1.3]
    assert "solve_cholesky_factor(" in source(complex_factor, args, (0,))
    check_function(complex_factor, args, (0,), policy)


def test_a_complex_matrix_differentiated_is_refused_as_before():
    args = [rng("cholesky_solves", "y").normal(size=N), 1.3]
    with pytest.raises(TransformError, match="takes real values only"):
        value_and_grad(complex_factor, (0, 1))(*args)
