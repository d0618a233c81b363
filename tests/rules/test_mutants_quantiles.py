"""Behaviour the mutation run (tools/mutate.py, session 29) found unpinned in
runtime/rules/quantiles.py and quantiles_helpers.py: lines with one value or none (the
nan-forms), and the cotangent of a scalar q (central differences, exact values)."""
import numpy as np
import pytest

from runtime import lookup, unthunk
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import check_rule

ONE_VALID = np.array([[0.4, np.nan, np.nan], [np.nan, -1.3, 0.8], [0.9, 0.1, -0.6]])
ALL_NAN = np.array([[np.nan, np.nan, np.nan], [0.5, -0.2, 1.4]])


# names, not functions: tests/rules/rule_examples.py reads (function, args) pairs here
@pytest.mark.parametrize("name, q", [("nanmedian", ()), ("nanquantile", (0.37,)),
                                     ("nanpercentile", (np.array([23.0, 81.0]),))])
def test_a_line_with_one_value(name, q):
    """A line with one counted value: that value is every quantile (slope 1 to it)."""
    check_rule(getattr(np, name), [ONE_VALID, *q], {"axis": 1})


@pytest.mark.parametrize("q", [0.37, np.array([0.23, 0.81])])
def test_lines_of_length_one(q):
    check_rule(np.quantile, [np.array([[0.4], [-1.3], [0.8]]), q], {"axis": 1})


@pytest.mark.filterwarnings("ignore:All-NaN slice")
@pytest.mark.parametrize("name, q", [("nanmedian", ()), ("nanquantile", (0.37,)),
                                     ("nanquantile", (np.array([0.23, 0.81]),))])
def test_an_all_nan_line_gets_zero(name, q):
    """An all-NaN line gives NaN; its entries' cotangent is 0 whatever g is."""
    out, pullback = lookup(getattr(np, name)).rrule(ALL_NAN, *q, 1)
    cot = unthunk(pullback(np.full(np.shape(out), 2.5))[0])
    np.testing.assert_array_equal(cot[0], 0.0)
    np.testing.assert_allclose(np.sum(cot[1]), 2.5 * np.size(q[0] if q else 0.5))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_scalar_q_gets_a_scalar(dtype):
    """A scalar q's cotangent is a scalar of q's dtype (the rules' convention), not a
    0-d array."""
    a = np.array([0.3, -1.2, 0.8, 2.1], dtype=dtype)
    q = dtype(0.37)
    out, pullback = lookup(np.quantile).rrule(a, q)
    cot_q = unthunk(pullback(np.ones_like(out))[1])
    assert type(cot_q) is dtype


def quantile_of_few(x, y, q):
    return np.sum(np.nanquantile(x, q, axis=1) ** 2) + np.sum(np.quantile(y, q, axis=1) * y)


@pytest.mark.parametrize("policy", POLICIES)
def test_lines_with_one_value_in_compiled_code(policy):
    x = ONE_VALID.copy()
    x[1, 1] = np.nan                        # two lines with one value
    check_grad(quantile_of_few, [x, np.array([[0.4], [-1.3]]), 0.37], policy=policy)


@pytest.mark.filterwarnings("ignore:All-NaN slice")
@pytest.mark.parametrize("q", [0.37, np.array([0.23, 0.81])])
def test_an_all_nan_line_moves_no_q(q):
    """q's cotangent from the lines with values only (an all-NaN line's slope is NaN)."""
    def q_cotangent(a):
        out, pullback = lookup(np.nanquantile).rrule(a, q, 1)
        return unthunk(pullback(np.full(np.shape(out), 2.5))[1])
    np.testing.assert_allclose(q_cotangent(ALL_NAN), q_cotangent(ALL_NAN[1:]), rtol=1e-14)


@pytest.mark.parametrize("method", ["higher", "nearest"])
@pytest.mark.parametrize("q", [0.0, np.array([0.0, 0.5])])
def test_steps_at_q_zero(q, method):
    """method='higher' or 'nearest' at q = 0 is the smallest entry (index 0)."""
    check_rule(np.quantile, [np.array([0.4, -1.3, 0.8, 2.2]), q], {"method": method},
               argnums=[0])


@pytest.mark.parametrize("q", [0.5, np.array([0.0, 0.5, 1.0])])
def test_midpoint_on_the_sample_grid(q):
    """method='midpoint' where q (n - 1) is a whole number is that sorted entry alone."""
    check_rule(np.quantile, [np.array([0.4, -1.3, 0.8]), q], {"method": "midpoint"},
               argnums=[0])


def test_the_refusal_names_weights_only_when_given():
    a = np.array([0.4, -1.3, 0.8, 2.2])
    out, pullback = lookup(np.quantile).rrule(a, 0.37, method="hazen")
    with pytest.raises(NotImplementedError) as plain:
        unthunk(pullback(1.0)[0])
    assert "method='hazen'" in str(plain.value) and "weights" not in str(plain.value)[-20:]
    out, pullback = lookup(np.quantile).rrule(a, 0.37, method="inverted_cdf",
                                               weights=np.ones(4))
    with pytest.raises(NotImplementedError, match="with weights=$"):
        unthunk(pullback(1.0)[0])
