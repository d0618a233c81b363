"""np.median, np.quantile, np.percentile and their nan-forms (runtime/rules/quantiles.py)
against central differences, in `a` and in `q`, float32, through compiled programs under
every policy; NaN entries get a zero cotangent; what the rule does not cover is refused."""
import numpy as np
import pytest

from runtime import lookup, unthunk
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

# distinct values (no ties) and quantiles off the sample grid (no kink in q)
M34, T234, V5 = rand(3, 4), rand(2, 3, 4, seed=1), rand(5, seed=2)
Q2 = np.array([0.23, 0.81])
WITH_NANS = np.array([[0.5, np.nan, -1.0, 0.7], [np.nan, 2.0, 0.3, -0.4], [1.1, 0.2, -0.6, 0.9]])

CASES = [
    case(np.median, M34), case(np.median, V5, id="median-odd"), case(np.median, M34, axis=0),
    case(np.median, M34, axis=1, keepdims=True), case(np.median, T234, axis=(0, 2)),
    case(np.median, T234, axis=-1),
    case(np.quantile, M34, 0.37), case(np.quantile, M34, Q2, axis=1),
    case(np.quantile, T234, Q2, axis=(1, 2), keepdims=True),
    case(np.quantile, M34, 0.37, axis=0, method="lower"),
    case(np.quantile, M34, 0.37, axis=0, method="higher"),
    case(np.quantile, M34, Q2, method="nearest"), case(np.quantile, M34, Q2, method="midpoint"),
    case(np.quantile, V5, 0.999, id="quantile-near-top"),
    case(np.percentile, M34, 37.0), case(np.percentile, M34, Q2 * 100, axis=0),
    case(np.percentile, T234, 62.5, axis=1, keepdims=True),
    case(np.nanmedian, WITH_NANS), case(np.nanmedian, WITH_NANS, axis=1),
    case(np.nanmedian, M34, axis=0, id="nanmedian-no-nan"),
    case(np.nanquantile, WITH_NANS, Q2, axis=1), case(np.nanquantile, WITH_NANS, 0.37),
    case(np.nanpercentile, WITH_NANS, 37.0, axis=0),
    case(np.nanpercentile, WITH_NANS, Q2 * 100, axis=1, keepdims=True),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("q", [0.0, 1.0, [0.0, 0.5, 1.0]])
def test_the_ends_of_q(q):
    """q = 0 and 1 take the minimum and maximum (the virtual index at the last entry);
    differences in q would leave [0, 1], so only `a` is checked."""
    check_rule(np.quantile, (V5, q), argnums=[0])
    check_rule(np.percentile, (M34, np.asarray(q) * 100, 1), argnums=[0])


def test_q_of_a_step_method_has_zero_cotangent():
    out, pullback = lookup(np.quantile).rrule(M34, Q2, None, None, False, "nearest")
    assert np.all(unthunk(pullback(np.ones(np.shape(out)))[1]) == 0)


@pytest.mark.parametrize("fn, q", [(np.nanmedian, ()), (np.nanquantile, (0.37,)),
                                   (np.nanpercentile, (Q2 * 100,))])
def test_nan_entries_get_zero(fn, q):
    out, pullback = lookup(fn).rrule(WITH_NANS, *q, 1)
    cot = unthunk(pullback(np.ones(np.shape(out)))[0])
    assert np.all(cot[np.isnan(WITH_NANS)] == 0) and np.all(np.isfinite(cot))
    assert np.allclose(np.sum(cot, axis=1), np.size(q[0]) if q else 1.0)   # weights sum to 1


@pytest.mark.parametrize("kwargs, message", [(dict(method="hazen"), "method="),
                                             (dict(overwrite_input=True), "overwrite_input")])
def test_what_the_rule_does_not_cover_is_refused(kwargs, message):
    out, pullback = lookup(np.quantile).rrule(M34.copy(), 0.37, **kwargs)
    with pytest.raises(NotImplementedError, match=message):
        unthunk(pullback(np.ones(np.shape(out)))[0])


def robust_loss(x, q):
    centre = np.median(x, axis=0)
    spread = np.percentile(x - centre, 100 * q, axis=0) - np.nanquantile(x, 1 - q, axis=0)
    return np.sum(spread ** 2) + np.quantile(x, q) * np.nanmedian(x)


@pytest.mark.parametrize("policy", POLICIES)
def test_robust_statistics_program(policy):
    check_grad(robust_loss, [rand(5, 3, seed=3), 0.27], policy=policy)


def median_in_place(x):
    y = x * 2.0
    return np.median(y, overwrite_input=True)


def test_overwrite_input_is_refused_at_compile_time():
    from transform import TransformError, grad
    with pytest.raises(TransformError, match="overwrite_input"):
        grad(median_in_place)(V5)


def median_of_keyword_argument(v):
    return np.median(a=v, overwrite_input=True)


def percentile_in_place(v):
    y = v + 1.0
    return np.percentile(y, 40.0, overwrite_input=True)


@pytest.mark.parametrize("fn, message", [
    (median_of_keyword_argument, r"`overwrite_input=` changes `v` in place(.|\n)*NumPy's "
     r"`overwrite_input` at False: the backward sweep reads `v`"),   # (as on a local)
    (percentile_in_place, r"`overwrite_input=` changes `y` in place(.|\n)*NumPy's "
     r"`overwrite_input` at False: the backward sweep reads `y`"),
])
def test_overwrite_input_names_the_argument_it_writes(fn, message):
    """Session 30 (lib30): `a=` given by keyword was not found (the refusal named the
    keyword's value), and the message said SciPy for NumPy's overwrite_input."""
    from transform import TransformError, grad
    with pytest.raises(TransformError, match=message):
        grad(fn)(V5)
