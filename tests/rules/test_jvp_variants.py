"""Forward-mode terms on the variants the VJP driver's one example per parameter does not
reach (tests/rules/test_jvp_rules.py checks that one): shapes (wide, tall, stacked),
keywords (modes, pivoting, axes, weights, keepdims) and branches of the helpers, each
against central differences (tests/fd.py) and against the rule's cotangent template
(<v, J t> == <J^T v, t>), as test_jvp_rules does."""
import importlib.util

import numpy as np
import pytest

from runtime import registry
from tests.fd import assert_close, numerical_jvp
from tests.rules.checks import rand, spd
from tests.rules.test_factorizations import real_spectrum
import tests.rules.test_jvp_rules as jvp_rules
from tests.rules.test_jvp_rules import _symmetric
from tests.rules.test_jvp_rules import test_tangent_against_finite_differences as _against_fd
from tests.rules.test_jvp_rules import test_tangent_and_cotangent_agree as _against_vjp

A, B = rand(3, 5, seed=1), rand(3, 5, seed=2, low=0.5, high=1.5)
TALL, WIDE, S = rand(5, 3, seed=3), rand(3, 5, seed=4), spd(3, seed=5)
NAN = rand(3, 4, 5, seed=6)
NAN[0, 1, 2] = np.nan
NUMPY = [
    ("numpy.linalg.qr", "a", (WIDE,), {}), ("numpy.linalg.qr", "a", (rand(2, 5, 3, seed=7),), {}),
    ("numpy.linalg.svd", "a", (TALL,), {"full_matrices": False}),
    ("numpy.linalg.svd", "a", (WIDE,), {"full_matrices": False}),
    ("numpy.linalg.svd", "a", (rand(2, 3, 3, seed=8),), {}),
    ("numpy.linalg.svd", "a", (WIDE,), {"compute_uv": False}),
    ("numpy.linalg.eig", "a", (real_spectrum(3, seed=2, batch=(4,)),), {}),
    ("numpy.linalg.eigvals", "a", (real_spectrum(4, seed=3),), {}),
    ("numpy.linalg.cholesky", "a", (spd(3, seed=9, batch=(2,)),), {"upper": True}),
    ("numpy.linalg.cholesky", "a", (spd(3, seed=9, batch=(2, 2)),), {}),
    ("numpy.linalg.eigh", "a", (spd(3, seed=9, batch=(2,)),), {}),
    ("numpy.linalg.eigvalsh", "a", (S,), {"UPLO": "U"}),
    ("numpy.linalg.lstsq", "a", (TALL, rand(5, seed=10)), {}),
    ("numpy.linalg.lstsq", "b", (TALL, rand(5, seed=10)), {}),
    ("numpy.linalg.lstsq", "a", (TALL, rand(5, 2, seed=11)), {}),
    ("numpy.linalg.lstsq", "a", (WIDE, rand(3, 2, seed=11)), {}),
    ("numpy.linalg.lstsq", "b", (WIDE, rand(3, 2, seed=11)), {}),
    ("numpy.linalg.tensorsolve", "a",
     (rand(3, 2, 3, 2, seed=12) + np.eye(6).reshape(3, 2, 3, 2).transpose(2, 1, 0, 3),
      rand(2, 3, seed=13)), {"axes": (0,)}),
    ("numpy.quantile", "a", (NAN[1:], np.array([0.2, 0.7])), {"axis": (0, 2)}),
    ("numpy.quantile", "q", (NAN[1:], np.array([0.2, 0.7])), {"axis": (0, 2)}),
    ("numpy.percentile", "q", (NAN[1:], np.array([20.0, 70.0])), {"axis": 1, "keepdims": True}),
    ("numpy.nanpercentile", "a", (NAN, 33.0), {"axis": 2}),
    ("numpy.nanquantile", "q", (NAN, 0.33), {"axis": 2}),
    ("numpy.quantile", "a", (A, 0.33), {"method": "midpoint"}),
    ("numpy.quantile", "q", (A, 0.33), {"method": "lower"}),
    ("numpy.cov", "m", (A, B), {"rowvar": False, "aweights": np.arange(1.0, 4.0)}),
    ("numpy.cov", "y", (A, B), {"ddof": 2}), ("numpy.corrcoef", "y", (A, B), {}),
    ("numpy.corrcoef", "x", (A, None, False), {}),
    ("numpy.average", "weights", (A, 1, np.arange(1.0, 6.0)), {"keepdims": True}),
    ("numpy.average", "weights", (A, None, B + 2), {}),
    ("numpy.average", "a", (A, 1, np.arange(1.0, 6.0)), {"keepdims": True}),
    ("np.maximum.reduceat", "array", (A, [0, 3, 1, 4]), {"axis": 1}),
    ("np.minimum.reduceat", "array", (A, [0, 2]), {"axis": 1}),
    ("np.multiply.reduceat", "array", (A, [0, 2]), {"axis": 0}),
    ("np.minimum.accumulate", "array", (A,), {"axis": 1}),
    ("np.maximum.accumulate", "array", (A,), {"axis": 0}),
    ("numpy.vander", "x", (np.array([0.0, 0.5, 2.0]),), {"N": 4, "increasing": True}),
    ("numpy.vander", "x", (np.array([0.0, 0.5, 2.0]),), {}),
    ("numpy.fft.fftshift", "x", (A,), {"axes": 1}),
    ("numpy.std", "a", (A,), {"axis": 1, "ddof": 1, "keepdims": True}),
    ("numpy.prod", "a", (B,), {"axis": 0, "initial": 2.0}),
    ("numpy.max", "a", (A,), {"axis": (0, 1)}),
]
SCIPY = [
    ("scipy.linalg._decomp.eigvalsh", "a", (S, spd(3, seed=14)), {}),
    ("scipy.linalg._decomp.eigh", "a", (S, spd(3, seed=14)), {}),
    ("scipy.linalg._decomp.eigh", "a", (S, spd(3, seed=14)), {"eigvals_only": True}),
    ("scipy.linalg._decomp_cholesky.cholesky", "a", (S,), {"lower": True}),
    ("scipy.linalg._decomp_cholesky.cho_factor", "a", (S,), {"lower": True}),
    ("scipy.linalg._decomp_cholesky.cho_solve", "c_and_lower",
     ((np.linalg.cholesky(S).T + np.tril(S, -1), False), rand(3, seed=19)), {}),
    ("scipy.linalg._decomp_lu.lu_solve", "lu_and_piv",
     ((rand(3, 3, seed=20) + 3 * np.eye(3), np.array([1, 2, 2], dtype=np.int32)),
      rand(3, 2, seed=21)), {"trans": 1}),
    ("scipy.linalg._decomp_lu.lu_solve", "b",
     ((rand(3, 3, seed=20) + 3 * np.eye(3), np.array([1, 2, 2], dtype=np.int32)),
      rand(3, 2, seed=21)), {"trans": 1}),
    ("scipy.linalg._decomp_qr.qr", "a", (WIDE,), {"pivoting": True}),
    ("scipy.linalg._decomp_qr.qr", "a", (TALL,), {"mode": "r"}),
    ("scipy.linalg._decomp_qr.qr", "a", (TALL,), {"mode": "r", "pivoting": True}),
    ("scipy.linalg._decomp_qr.qr", "a", (TALL,), {"mode": "economic", "pivoting": True}),
    ("scipy.linalg._basic.lstsq", "a", (TALL, rand(5, seed=10)), {}),
    ("scipy.linalg._basic.pinv", "a", (TALL,), {"return_rank": True}),
    ("scipy.linalg._basic.solve", "a", (S, rand(3, seed=15)), {"assume_a": "sym", "lower": True}),
    ("scipy.linalg._basic.solve", "a", (S, rand(3, 2, seed=15)),
     {"assume_a": "upper triangular", "transposed": True}),
    ("scipy.linalg._basic.solve", "a", (S, rand(3, 2, seed=15)), {"assume_a": "tridiagonal"}),
    ("scipy.linalg._basic.solve", "a", (S, rand(3, 2, seed=15)), {"assume_a": "banded"}),
    ("scipy.linalg._decomp_svd.svd", "a", (TALL,), {"full_matrices": False}),
    ("scipy.linalg._decomp_svd.svd", "a", (TALL,), {"compute_uv": False}),
    ("scipy.signal._signaltools.convolve2d", "in2", (A, B[:2, :3]), {"mode": "same"}),
    ("scipy.signal._signaltools.correlate2d", "in1", (A, B[:2, :3]), {"mode": "valid"}),
    ("scipy.signal._signaltools.lfilter", "a",
     (np.array([0.5, 0.2]), np.array([1.0, -0.3, 0.1]), A), {"axis": 0}),
    ("scipy.signal._signaltools.lfilter", "b",
     (np.array([0.5, 0.2]), np.array([1.0, -0.3, 0.1]), A), {"axis": 0}),
    ("scipy.special._logsumexp.logsumexp", "a", (A, 1, B[0]), {"keepdims": True}),
    ("scipy.special._logsumexp.logsumexp", "b", (A, 0, B + 1), {}),
    ("scipy.special._logsumexp.logsumexp", "a", (A, None, B + 1), {"keepdims": True}),
    ("scipy.stats._stats_py.zscore", "a", (A,), {"axis": 1, "ddof": 1}),
    ("scipy.stats.multivariate_normal.logpdf", "cov", (rand(4, 3, seed=16), rand(3, seed=17), 1.7),
     {}),
    ("scipy.stats.multivariate_normal.logpdf", "cov",
     (rand(4, 3, seed=16), rand(3, seed=17), np.array([1.5, 2.0, 0.8])), {}),
    ("scipy.stats.multivariate_normal.pdf", "mean", (rand(3, seed=16), rand(3, seed=17), S), {}),
    ("scipy.stats.multivariate_normal.logpdf", "x", (rand(2, 2, 3, seed=16), None, S), {}),
    ("scipy.stats.dirichlet.logpdf", "alpha",
     (np.array([[0.2, 0.3], [0.3, 0.1]]), np.array([1.5, 2.0, 3.0])), {}),
    ("scipy.stats.dirichlet.pdf", "x",
     (np.array([[0.2, 0.3], [0.3, 0.1]]), np.array([1.5, 2.0, 3.0])), {}),
]
PROJECT = {("scipy.linalg._decomp.eigvalsh", "a"): _symmetric,
           ("scipy.linalg._decomp.eigh", "a"): _symmetric,
           ("scipy.linalg._decomp_cholesky.cholesky", "a"): _symmetric,
           ("scipy.linalg._decomp_cholesky.cho_factor", "a"): _symmetric,
           ("scipy.stats.dirichlet.pdf", "x"): lambda t: t}     # K - 1 entries: free
CASES = NUMPY + (SCIPY if importlib.util.find_spec("scipy") else [])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{'-'.join(sorted(c[3]))}")
def test_a_variant_against_differences_and_its_cotangent(case, monkeypatch):
    name, param, args, kwargs = case
    registry._load_pending()
    check = (next(r for r in registry._RULES.values() if r.name == name), param)
    monkeypatch.setattr(jvp_rules, "_covering", lambda rule, param: None)
    monkeypatch.setitem(jvp_rules.MORE, (name, param), (args, kwargs))
    monkeypatch.setattr(jvp_rules, "PROJECT", {**jvp_rules.PROJECT, **PROJECT})
    _against_fd(check)
    _against_vjp(check)


def test_lstsq_without_singular_values_has_no_tangent_for_them():
    """SciPy's gelsy driver returns no singular values (None): their tangent is None."""
    sl = pytest.importorskip("scipy.linalg")
    rule = registry.lookup(sl.lstsq)
    t = rand(5, 3, seed=18)
    ans, tangent = rule.frule((t, None), TALL, rand(5, seed=10), lapack_driver="gelsy")
    assert ans[3] is None and tangent[3] is None
    want = numerical_jvp(lambda a: sl.lstsq(a, rand(5, seed=10), lapack_driver="gelsy")[0],
                         [TALL], 0, t)
    assert_close(tangent[0], want, rtol=1e-6)


RANK_ONE = np.outer(np.arange(1.0, 6.0), [1.0, 2.0, 3.0])
REFUSED = [("numpy.linalg.svd", (S,), {"hermitian": True}), ("numpy.linalg.svd", (WIDE,), {}),
           ("numpy.linalg.svd", (rand(2, 3, 5, seed=20),), {}),
           ("numpy.linalg.qr", (TALL,), {"mode": "complete"}),
           ("numpy.linalg.lstsq", (RANK_ONE, rand(5, seed=10)), {}),
           ("numpy.linalg.eig", (np.array([[0.0, -1.0], [1.0, 0.0]]),), {})]
SCIPY_REFUSED = [("scipy.linalg._decomp_qr.qr", (TALL,), {}),
                 ("scipy.linalg._decomp.eigvalsh", (S,), {"subset_by_index": [0, 1]}),
                 ("scipy.special._logsumexp.logsumexp", (A,), {"return_sign": True}),
                 ("scipy.signal._signaltools.lfilter",
                  (np.array([0.5, 0.2]), np.array([1.0, -0.3]), A[0]), {"zi": np.zeros(1)}),
                 ("scipy.signal._signaltools.sosfilt",
                  (np.array([[0.2, 0.3, 0.1, 1.0, -0.4, 0.2]]), A[0]), {"zi": np.zeros((1, 2))}),
                 ("scipy.signal._signaltools.convolve2d", (A, B), {"fillvalue": 1.0})]


@pytest.mark.parametrize("case", REFUSED + (SCIPY_REFUSED if importlib.util.find_spec("scipy")
                                            else []), ids=lambda c: f"{c[0]}-{sorted(c[2])}")
def test_a_forward_rule_refuses_what_its_vjp_refuses(case):
    """Outside a rule's limits (docs/rules.md) the tangent is refused, never wrong."""
    name, args, kwargs = case
    registry._load_pending()
    rule = next(r for r in registry._RULES.values() if r.name == name)
    k = next(k for k, a in enumerate(args) if rule.params[k] in rule.templates)
    with pytest.raises((NotImplementedError, TypeError)):
        rule.frule({rule.params[k]: np.ones_like(args[k])}, *args, **kwargs)


def test_an_all_nan_line_of_a_nanquantile_has_a_zero_tangent():
    """A line with no value (all NaN) gives NaN whatever the input does: its tangent is
    zero, in a and in q, as its cotangent is (quantile_vjp)."""
    a = rand(2, 4, seed=19)
    a[1] = np.nan
    rule = registry.lookup(np.nanquantile)
    for tangents in ({"a": np.ones_like(a)}, {"q": 1.0}):
        ans, tangent = rule.frule(tangents, a, 0.3, axis=1)
        assert np.isnan(ans[1]) and tangent[1] == 0 and np.isfinite(tangent[0])


def test_a_nanquantile_line_with_one_value_follows_it():
    """One value left in a line: every quantile is that value, its tangent that value's."""
    a = np.array([[np.nan, 0.7, np.nan], [0.2, 0.5, 0.9]])
    t = np.array([[5.0, 2.0, 7.0], [1.0, 1.0, 1.0]])
    ans, tangent = registry.lookup(np.nanquantile).frule({"a": t}, a, 0.3, axis=1)
    assert ans[0] == 0.7 and tangent[0] == 2.0 and tangent[1] == pytest.approx(1.0)
