"""User rules (@rrule, ChainRules' rrule convention), Thunk semantics,
unthunk and thunk_stats."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

from tests.fd import assert_close, numerical_grad
from transform import Thunk, grad, rrule, thunk_stats, unthunk, value_and_grad, vjp

COUNTS = {"x": 0, "y": 0, "primal": 0}


def heavy(x, y):
    return x * x * y


@rrule(heavy)
def heavy_rrule(x, y):
    COUNTS["primal"] += 1
    ans = x * x * y

    def pullback(g):
        def dx():
            COUNTS["x"] += 1
            return unthunk(g) * 2 * x * y

        def dy():
            COUNTS["y"] += 1
            return unthunk(g) * x * x
        return Thunk(dx), Thunk(dy)
    return ans, pullback


def uses_heavy_twice(x, y):
    return heavy(x, y) + 2 * heavy(x, y)


def _reset():
    for k in COUNTS:
        COUNTS[k] = 0


@pytest.mark.parametrize("policy", POLICIES)
def test_unneeded_cotangent_never_computed(policy):
    _reset()
    g = grad(uses_heavy_twice, wrt=0, policy=policy)(1.5, 0.5)
    assert g == pytest.approx(3 * 2 * 1.5 * 0.5)
    assert COUNTS["y"] == 0
    assert COUNTS["x"] == 2


def test_both_cotangents_computed_once_per_call_site():
    _reset()
    gx, gy = grad(uses_heavy_twice, wrt=(0, 1))(1.5, 0.5)
    assert gx == pytest.approx(3 * 2 * 1.5 * 0.5)
    assert gy == pytest.approx(3 * 1.5 * 1.5)
    assert COUNTS["x"] == 2
    assert COUNTS["y"] == 2


def test_only_y_requested():
    _reset()
    gy = grad(uses_heavy_twice, wrt="y")(1.5, 0.5)
    assert gy == pytest.approx(3 * 1.5 * 1.5)
    assert COUNTS["x"] == 0
    assert COUNTS["y"] == 2


def test_grad_directly_on_function_with_rule():
    _reset()
    g = grad(heavy, wrt=1)(2.0, 3.0)
    assert g == pytest.approx(4.0)
    assert COUNTS["x"] == 0 and COUNTS["y"] == 1


def test_rule_is_used_not_source():
    _reset()
    grad(uses_heavy_twice)(1.0, 1.0)
    assert COUNTS["primal"] == 2


def heavy_in_array_code(x, y):
    return np.sum(heavy(x, y) * np.sin(x))


def test_custom_rule_inside_array_code_matches_fd():
    x, y = np.array([0.3, -0.7, 1.1]), np.array([1.2, 0.4, -0.5])
    gx, gy = grad(heavy_in_array_code, wrt=(0, 1))(x, y)
    assert_close(gx, numerical_grad(heavy_in_array_code, [x, y], 0))
    assert_close(gy, numerical_grad(heavy_in_array_code, [x, y], 1))


# A rule whose pullback returns plain values and None
def clipped(x, lo):
    return min(max(x, lo), 10.0)


@rrule(clipped)
def clipped_rrule(x, lo):
    ans = min(max(x, lo), 10.0)

    def pullback(g):
        g = unthunk(g)
        return (g if lo < x < 10.0 else 0.0), None
    return ans, pullback


def uses_clipped(x, lo):
    return clipped(x * x, lo) * 3.0


def test_rule_returning_values_and_none():
    assert grad(uses_clipped)(2.0, 1.0) == pytest.approx(12.0)
    assert grad(uses_clipped)(0.5, 1.0) == 0.0
    g = grad(uses_clipped, wrt=1)(2.0, 1.0)
    assert g == 0.0 and type(g) is float


# Cotangent handed to the pullback may itself be a Thunk
SEEN = []


def scale3(x):
    return 3.0 * x


@rrule(scale3)
def scale3_rrule(x):
    def pullback(g):
        SEEN.append(type(g))
        return (Thunk(lambda: 3.0 * unthunk(g)),)
    return 3.0 * x, pullback


def chain_scale(x):
    return scale3(scale3(x) * x)


@pytest.mark.parametrize("policy, second", [("loop", float), ("flat", Thunk)])
def test_pullback_accepts_thunk_or_value_cotangent(policy, second):
    """Both calls go through the rule; under "flat" the inner call's cotangent arrives
    as the Thunk the outer pullback returned, and unthunk handles either."""
    SEEN.clear()
    g = grad(chain_scale, policy=policy)(2.0)
    assert g == pytest.approx(18.0 * 2.0)
    assert SEEN == [float, second]


def test_vjp_through_custom_rule():
    out, pb = vjp(scale3, np.array([1.0, 2.0]))
    np.testing.assert_allclose(out, [3.0, 6.0])
    (g,) = pb(np.array([1.0, -1.0]))
    np.testing.assert_allclose(g, [3.0, -3.0])


def test_value_and_grad_through_custom_rule():
    v, g = value_and_grad(chain_scale)(2.0)
    assert v == pytest.approx(36.0)
    assert g == pytest.approx(36.0)


# ---------------------------------------------------------------- Thunk / unthunk
def test_thunk_is_memoised():
    calls = []

    def compute():
        calls.append(1)
        return np.arange(3.0)
    t = Thunk(compute)
    assert not t.forced
    a = unthunk(t)
    b = unthunk(t)
    assert a is b
    assert len(calls) == 1
    assert t.forced


def test_thunk_of_thunk_unwraps():
    inner = Thunk(lambda: 5.0)
    outer = Thunk(lambda: inner)
    assert unthunk(outer) == 5.0
    assert inner.forced


@pytest.mark.parametrize("value", [1.5, 0, None, "s", (1, 2), np.arange(3.0)])
def test_unthunk_is_identity_on_non_thunks(value):
    assert unthunk(value) is value


def test_thunk_not_forced_on_creation():
    def boom():
        raise AssertionError("forced too early")
    t = Thunk(boom)
    assert "pending" in repr(t)


def test_thunk_stats_counts_created_and_forced():
    with thunk_stats() as stats:
        a = Thunk(lambda: 1.0)
        b = Thunk(lambda: unthunk(a) + 1.0)
        Thunk(lambda: 0.0)  # never forced
        assert unthunk(b) == 2.0
    assert stats.created == 3
    assert stats.forced == 2
    assert stats.max_depth == 2


def test_thunk_stats_depth_of_chain():
    with thunk_stats() as stats:
        t = Thunk(lambda: 0.0)
        for _ in range(10):
            t = Thunk(lambda t=t: unthunk(t) + 1.0)
        assert unthunk(t) == 10.0
    assert stats.created == 11
    assert stats.forced == 11
    assert stats.max_depth == 11


def test_thunk_stats_inactive_outside_context():
    with thunk_stats() as stats:
        pass
    unthunk(Thunk(lambda: 1.0))
    assert stats.created == 0 and stats.forced == 0 and stats.max_depth == 0


def test_thunk_stats_reports_gradient_work():
    with thunk_stats() as stats:
        grad(uses_heavy_twice, wrt=0)(1.5, 0.5)
    assert stats.created >= 2
    assert stats.forced >= 2
    assert stats.forced <= stats.created
    assert stats.max_depth >= 1
    text = repr(stats)
    assert "created" in text and "forced" in text and "max_depth" in text


def test_thunk_stats_nested_contexts_restore():
    with thunk_stats() as outer:
        Thunk(lambda: 1.0)
        with thunk_stats() as inner:
            unthunk(Thunk(lambda: 2.0))
        Thunk(lambda: 3.0)
    assert inner.created == 1 and inner.forced == 1
    assert outer.created == 2

