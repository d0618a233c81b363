"""np.cov, np.corrcoef and the nan-reductions against central differences."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

M35, V5, W5 = rand(3, 5), rand(5, seed=1), rand(5, seed=2)
FW, AW = np.array([1, 2, 1, 3, 1]), rand(5, seed=3, low=0.5, high=2.0)
WITH_NANS = np.array([[0.5, np.nan, -1.0, 0.7], [np.nan, 2.0, 0.3, -0.4], [1.1, 0.2, -0.6, 0.9]])
WITH_ZERO = np.array([[0.5, 0.0, -1.0, 0.7], [1.3, 2.0, np.nan, -0.4]])

COV = [
    case(np.cov, M35), case(np.cov, V5, id="cov-one-variable"), case(np.cov, V5, W5),
    case(np.cov, M35, W5), case(np.cov, M35.T, rowvar=False), case(np.cov, M35.T, W5[:, None],
                                                                     rowvar=False),
    case(np.cov, M35, bias=True), case(np.cov, M35, ddof=2), case(np.cov, M35, fweights=FW),
    case(np.cov, M35, aweights=AW), case(np.cov, M35, fweights=FW, aweights=AW),
    case(np.cov, M35, aweights=AW, ddof=0), case(np.cov, M35, fweights=FW, ddof=0),
    case(np.corrcoef, M35), case(np.corrcoef, V5, W5), case(np.corrcoef, M35, V5),
    case(np.corrcoef, M35.T, rowvar=False), case(np.corrcoef, V5, id="corrcoef-one-variable"),
]
NANS = [case(fn, WITH_NANS, **kw) for fn in (np.nanvar, np.nanstd, np.nanprod)
        for kw in (dict(), dict(axis=0), dict(axis=1, keepdims=True), dict(ddof=1))
        if not (fn is np.nanprod and "ddof" in kw)]
NANS += [case(np.nanprod, WITH_ZERO), case(np.nanprod, WITH_ZERO, axis=1),
         case(np.nancumsum, WITH_NANS), case(np.nancumsum, WITH_NANS, axis=0),
         case(np.nancumprod, WITH_NANS, axis=1), case(np.nancumprod, WITH_ZERO, axis=1),
         case(np.nancumprod, WITH_NANS), case(np.nanvar, rand(2, 3, 4), axis=(0, 2)),
         case(np.nanstd, M35, axis=-1)]


@pytest.mark.parametrize("fn, args, kwargs", COV + NANS)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", COV + NANS)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_nan_entries_get_zero():
    from runtime import lookup, unthunk
    for fn in (np.nanvar, np.nanstd, np.nanprod, np.nancumsum, np.nancumprod):
        out, pullback = lookup(fn).rrule(WITH_NANS)
        cot = unthunk(pullback(np.ones(np.shape(out)))[0])
        assert np.all(cot[np.isnan(WITH_NANS)] == 0), fn.__name__
        assert np.all(np.isfinite(cot)), fn.__name__


def stats_loss(x, y):
    return np.sum(np.cov(x, y) ** 2) + np.sum(np.corrcoef(x) ** 3) + np.nanstd(x * y[0])


@pytest.mark.parametrize("policy", POLICIES)
def test_stats_program(policy):
    check_grad(stats_loss, [M35, W5], policy=policy)
