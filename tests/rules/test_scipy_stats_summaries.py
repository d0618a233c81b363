"""scipy.stats summary statistics (runtime/rules/scipy_stats_summaries.py) against central
differences, float32, and from compiled code under every policy; what the rules do not
cover is refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

stats = pytest.importorskip("scipy.stats")

from runtime import lookup, unthunk  # noqa: E402

M45, V6, T = rand(4, 5, seed=1), rand(6, seed=2), rand(2, 3, 4, seed=3)
POS, W = rand(4, 5, seed=4, low=0.5, high=2.0), rand(4, 5, seed=5, low=0.5, high=1.5)
PK, QK = rand(3, 4, seed=6, low=0.2, high=1.0), rand(3, 4, seed=7, low=0.2, high=1.0)

CASES = [
    case(stats.zscore, M45), case(stats.zscore, M45, 1), case(stats.zscore, V6, ddof=1),
    case(stats.zscore, T, None, id="zscore-flat"), case(stats.zscore, T, -1),
    case(stats.sem, M45), case(stats.sem, M45, 1, 0), case(stats.sem, T, None),
    case(stats.sem, T, 2, keepdims=True),
    case(stats.variation, POS), case(stats.variation, POS, 1, ddof=1),
    case(stats.skew, M45), case(stats.skew, M45, 1, False), case(stats.skew, T, None),
    case(stats.skew, T, 1, keepdims=True),
    case(stats.kurtosis, M45), case(stats.kurtosis, V6, 0, False, False),
    case(stats.kurtosis, T, -1, True, False), case(stats.kurtosis, M45, None),
    case(stats.moment, M45, 2), case(stats.moment, M45, 3, 1), case(stats.moment, V6, 4),
    case(stats.moment, M45, 1, id="moment-first"), case(stats.moment, T, 3, None),
    case(stats.gmean, POS), case(stats.gmean, POS, 1, weights=W), case(stats.gmean, POS, None),
    case(stats.hmean, POS), case(stats.hmean, POS, 1, weights=W), case(stats.hmean, POS, None),
    case(stats.entropy, PK), case(stats.entropy, PK, QK), case(stats.entropy, PK, None, axis=1, base=2.0),
    case(stats.entropy, PK, QK, None, 1, keepdims=True), case(stats.entropy, PK[0], QK[0], base=10.0),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", [
    (stats.skew, (M45,), dict(nan_policy="omit")), (stats.moment, (M45, 2), dict(center=0.1)),
    (stats.zscore, (M45,), dict(nan_policy="omit"))])
def test_what_the_rules_do_not_cover_is_refused(fn, args, kwargs):
    out, pullback = lookup(fn).rrule(*args, **kwargs)
    with pytest.raises(NotImplementedError):
        unthunk(pullback(np.ones(np.shape(out)))[0])


def descriptive_loss(x, w):
    z = stats.zscore(x * w, axis=0)
    shape = stats.skew(x, axis=1) ** 2 + stats.kurtosis(x * w, axis=1, bias=False)
    spread = stats.sem(x, axis=None) + stats.variation(np.exp(x), axis=0)
    centre = np.sum(stats.gmean(np.exp(w))) * stats.hmean(np.exp(x), axis=None)
    mix = stats.entropy(np.exp(x), np.exp(w), axis=0) + stats.moment(x, 3, axis=0)
    return np.sum(z ** 3 * w) + np.sum(shape) + np.sum(spread) + centre + np.sum(mix)


@pytest.mark.parametrize("policy", POLICIES)
def test_descriptive_program(policy):
    check_grad(descriptive_loss, [rand(5, 4, seed=8), rand(5, 4, seed=9)], policy=policy)
