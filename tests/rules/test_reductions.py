"""Reductions, scans, norms and traces against central differences."""
import numpy as np
import pytest

import runtime
from tests.rules.checks import available, case, check_float32, check_rule, needs, newer, rand

A = rand(3, 4)
B = rand(2, 3, 4, seed=1)
V = rand(5, seed=2)
WITH_ZEROS = np.array([[1.5, 0.0, -2.0, 0.7], [0.0, 0.0, 1.2, -0.4], [0.9, 1.1, -1.3, 0.6]])
WITH_NANS = np.array([[0.5, np.nan, -1.0], [np.nan, 2.0, 0.3]])

AXES = [dict(), dict(axis=0), dict(axis=1), dict(axis=-1, keepdims=True), dict(axis=(0, 1)),
        dict(keepdims=True)]
REDUCTIONS = [np.sum, np.mean, np.prod, np.max, np.amax, np.min, np.amin, np.ptp, np.std,
              np.var, np.nanmax, np.nanmin, np.nansum, np.nanmean, np.average]

CASES = [case(fn, A, **kw) for fn in REDUCTIONS for kw in AXES
         if not (fn in (np.ptp, np.average) and kw.get("axis") == (0, 1))
         and not (fn is np.average and kw.get("axis") == -1)]
CASES += [
    case(np.sum, B, axis=(0, 2)), case(np.mean, B, axis=(-1, 0), keepdims=True),
    case(np.prod, V), case(np.prod, B, axis=1),
    case(np.sum, A, initial=1.0), case(np.max, A, axis=0, initial=-5.0),
    case(np.std, A, ddof=1), case(np.var, A, axis=0, ddof=1), case(np.var, B, axis=(0, 2)),
    case(np.average, A, axis=1, weights=rand(4, low=0.5, high=2.0)),
    case(np.average, A, weights=rand(3, 4, low=0.5, high=2.0)),
    needs("2.0", case(np.average, B, axis=(0, 2), weights=rand(2, 4, low=0.5, high=2.0),
                      keepdims=True), "weights must match a's shape or be 1-D"),
    case(np.average, A, axis=0, weights=rand(3, 4, low=0.5, high=2.0)),
    case(np.nansum, WITH_NANS, axis=0), case(np.nanmean, WITH_NANS), case(np.nanmean, WITH_NANS, axis=1),
    case(np.nanmax, WITH_NANS, axis=1),
    case(np.cumsum, A), case(np.cumsum, A, axis=0), case(np.cumsum, B, axis=-1), case(np.cumsum, V),
    case(np.cumprod, A), case(np.cumprod, A, axis=1), case(np.cumprod, B, axis=0),
    case(newer("cumulative_sum"), V), case(newer("cumulative_sum"), A, axis=1, include_initial=True),
    case(newer("cumulative_prod"), V, include_initial=True), case(newer("cumulative_prod"), A, axis=0),
    case(np.trace, A), case(np.trace, A, offset=1), case(np.trace, A, offset=-1),
    case(np.trace, B, axis1=0, axis2=2), case(np.trace, B, 1, 2, 1, id="trace-positional"),
    case(newer("linalg.trace"), B), case(newer("linalg.trace"), B, offset=-1),
]

VECTOR_ORDS = [None, 2, 1, np.inf, -np.inf, 0, 3, 0.5, -1.5]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, np.inf, -np.inf, 2, -2]
NORMS = ([case(np.linalg.norm, V, ord=o) for o in VECTOR_ORDS]
         + [case(np.linalg.norm, A, ord=o) for o in MATRIX_ORDS]
         + [case(np.linalg.norm, A, ord=o, axis=1) for o in VECTOR_ORDS]
         + [case(np.linalg.norm, B, ord=o, axis=(2, 0), keepdims=True) for o in MATRIX_ORDS]
         + [case(np.linalg.norm, B), case(np.linalg.norm, B, axis=0, keepdims=True),
            case(np.linalg.norm, A, keepdims=True),
            case(newer("linalg.vector_norm"), B), case(newer("linalg.vector_norm"), B, axis=(0, 2), ord=3),
            case(newer("linalg.vector_norm"), A, axis=0, ord=np.inf, keepdims=True),
            case(newer("linalg.matrix_norm"), B), case(newer("linalg.matrix_norm"), B, ord="nuc"),
            case(newer("linalg.matrix_norm"), B, ord=-np.inf, keepdims=True)])


@pytest.mark.parametrize("fn, args, kwargs", CASES + NORMS)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES + NORMS)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("fn", [np.prod, np.cumprod])
def test_products_are_exact_at_zeros(fn):
    check_rule(fn, [WITH_ZEROS], {"axis": 1})
    check_rule(fn, [WITH_ZEROS])


def test_max_splits_ties_equally():
    x = np.array([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]])
    out, pb = runtime.lookup(np.max).rrule(x, axis=1)
    np.testing.assert_allclose(runtime.unthunk(pb(np.array([1.0, 3.0]))[0]),
                               [[0.5, 0.0, 0.5], [1.0, 1.0, 1.0]])


def test_norm_ties_split_equally():
    x = np.array([2.0, -2.0, 1.0])
    out, pb = runtime.lookup(np.linalg.norm).rrule(x, np.inf)
    np.testing.assert_allclose(runtime.unthunk(pb(1.0)[0]), [0.5, -0.5, 0.0])


def test_norm_of_zero_vector_has_zero_cotangent():
    out, pb = runtime.lookup(np.linalg.norm).rrule(np.zeros(3))
    np.testing.assert_array_equal(runtime.unthunk(pb(1.0)[0]), np.zeros(3))


def test_cotangent_of_python_float_seed():
    out, pb = runtime.lookup(np.sum).rrule(A)
    np.testing.assert_array_equal(runtime.unthunk(pb(1.0)[0]), np.ones_like(A))


SCALAR_OUTPUTS = available([(np.sum, {}), (np.mean, {}), (np.prod, {}), (np.max, {}), (np.min, {}),
                  (np.std, {}), (np.var, {}), (np.ptp, {}), (np.nansum, {}), (np.nanmean, {}),
                  (np.nanmax, {}), (np.average, {"weights": rand(3, 4, seed=3)}), (np.trace, {}),
                  (newer("linalg.matrix_norm"), {}), (newer("linalg.vector_norm"), {"ord": np.inf})])
SCALAR_OUTPUTS += [(np.linalg.norm, {"ord": o}) for o in ["fro", "nuc", 1, -np.inf, 2]]


@pytest.mark.parametrize("fn, kwargs", SCALAR_OUTPUTS, ids=lambda v: getattr(v, "__name__", ""))
def test_python_float_cotangent_keeps_float32(fn, kwargs):
    kwargs = {k: v.astype(np.float32) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    out, pb = runtime.lookup(fn).rrule(A.astype(np.float32), **kwargs)
    assert runtime.unthunk(pb(1.0)[0]).dtype == np.float32
