"""scipy.linalg's qr, lstsq, pinv and eigvalsh (runtime/rules/scipy_linalg_factorizations.py)
against central differences in every float argument, one output at a time, float32,
compiled programs under every policy, and the refusals."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand, spd

sl = pytest.importorskip("scipy.linalg")

from runtime import registry, unthunk  # noqa: E402

A43, A33, A35 = rand(4, 3, seed=1), rand(3, 3, seed=2) + 2 * np.eye(3), rand(3, 5, seed=3)
B4, B42 = rand(4, seed=4), rand(4, 2, seed=5)
S4, SB = spd(4, seed=6), spd(4, seed=7)


def sym(x):
    return (x + x.T) / 2


CASES = [
    case(sl.qr, A33), case(sl.qr, A35), case(sl.qr, A43, mode="economic"),
    case(sl.qr, A35, mode="economic"), case(sl.qr, A43, mode="r"), case(sl.qr, A35, mode="r"),
    case(sl.qr, A43, mode="economic", pivoting=True), case(sl.qr, A35, pivoting=True),
    case(sl.qr, A43, mode="r", pivoting=True),
    case(sl.lstsq, A43, B4), case(sl.lstsq, A43, B42), case(sl.lstsq, A33, B42[:3]),
    case(sl.lstsq, A35, B4[:3]), case(sl.lstsq, A43, B4, lapack_driver="gelss"),
    case(sl.pinv, A43), case(sl.pinv, A35), case(sl.pinv, A33), case(sl.pinv, A43, atol=1e-3),
    case(sl.pinv, A35, return_rank=True),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", [c for c in CASES if c.values[0] is not sl.pinv])
def test_one_output_at_a_time(fn, args, kwargs):
    out = fn(*args, **kwargs)
    for k, part in enumerate(out):
        if part is None or np.size(part) == 0 or np.asarray(part).dtype.kind == "i" or \
                isinstance(part, int):
            continue
        G = [None] * len(out)
        G[k] = np.random.default_rng(k).standard_normal(np.shape(part))
        check_rule(fn, args, kwargs, G=tuple(G))


@pytest.mark.parametrize("b", [B4, B42])
def test_lstsq_gelsy_has_no_singular_values(b):
    x, res, rank, s = sl.lstsq(A43, b, lapack_driver="gelsy")
    assert s is None
    G = (np.random.default_rng(1).standard_normal(np.shape(x)), None, None, None)
    check_rule(sl.lstsq, [A43, b], {"lapack_driver": "gelsy"}, G=G)
    out, pullback = registry.lookup(sl.lstsq).rrule(A43, b, lapack_driver="gelsy")
    got = unthunk(pullback(G[:3] + (np.ones(3),))[0])     # an s cotangent is dropped
    assert np.allclose(got, unthunk(registry.lookup(sl.lstsq).rrule(A43, b, lapack_driver="gelsy")
                                    [1](G)[0]))


@pytest.mark.parametrize("kwargs", [{}, {"lower": False}, {"b": SB}, {"b": SB, "lower": False}])
def test_eigvalsh(kwargs):
    check_rule(sl.eigvalsh, [S4], kwargs, fd=lambda x: sl.eigvalsh(sym(x), **kwargs))
    check_float32(sl.eigvalsh, [S4], kwargs)


def test_eigvalsh_reads_one_triangle():
    rule = registry.lookup(sl.eigvalsh)
    lower = np.tril(S4) + np.triu(rand(4, 4, seed=8), 1)       # the upper part is ignored
    out, pullback = rule.rrule(lower)
    G = np.arange(1.0, 5.0)
    assert np.allclose(out, np.linalg.eigvalsh(S4))
    expected = rule.rrule(S4)[1](G)[0]
    assert np.allclose(unthunk(pullback(G)[0]), unthunk(expected))


@pytest.mark.parametrize("kwargs", [{"mode": "full"}, {"mode": "raw"}])
def test_qr_modes_without_a_rule_are_refused(kwargs):
    out, pullback = registry.lookup(sl.qr).rrule(A43, **kwargs)
    with pytest.raises(NotImplementedError, match="scipy.linalg.qr's rule takes"):
        unthunk(pullback((np.ones((4, 4)), np.ones((4, 3))))[0])


def test_lstsq_of_a_rank_deficient_matrix_is_refused():
    a = np.outer(B4, [1.0, 2.0, 3.0])
    out, pullback = registry.lookup(sl.lstsq).rrule(a, B4)
    with pytest.raises(NotImplementedError, match="full-rank"):
        unthunk(pullback((np.ones(3), None, None, None))[0])


@pytest.mark.parametrize("kwargs", [{"subset_by_index": [0, 1]}, {"subset_by_value": [0, 9]},
                                    {"b": SB, "type": 2}])
def test_eigvalsh_subsets_and_other_types_are_refused(kwargs):
    out, pullback = registry.lookup(sl.eigvalsh).rrule(S4, **kwargs)
    with pytest.raises(NotImplementedError, match="eigvalsh's rule takes all"):
        unthunk(pullback(np.ones(np.shape(out)))[0])


def regression(w, X, y):
    q, r = sl.qr(X * w, mode="economic")
    coef, res, rank, s = sl.lstsq(X * w, y)
    return np.sum(r ** 2) + np.sum(coef ** 2) + res + np.sum(sl.pinv(X * w)) + np.sum(s)


def spectrum(a):
    return np.sum(sl.eigvalsh(a @ a.T + np.eye(3)) ** 2) + np.sum(sl.qr(a, mode="r")[0])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", [(regression, (rand(3, seed=9), A43, B4)),
                                     (spectrum, (A33,))], ids=["regression", "spectrum"])
def test_programs_under_every_policy(fn, args, policy):
    check_grad(fn, list(args), wrt=0, policy=policy)
