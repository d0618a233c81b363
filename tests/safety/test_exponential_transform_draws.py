"""weibull(a), power(a) and pareto(a) draws (runtime/rules/random.py) differentiated in a:
each transforms one standard exponential draw that does not depend on a, so the
gradient is pathwise and matches central differences taken with the same seed, through
Generator, RandomState and the legacy functions, under every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import value_and_grad

A = np.array([0.8, 1.7, 3.2])
W = np.array([0.3, -1.1, 0.7])


def generator_weibull(a):
    rng = np.random.default_rng(0)
    return np.sum(rng.weibull(a, size=(4, 3)) * W)


def generator_power(a):
    rng = np.random.default_rng(1)
    return np.sum(np.log1p(rng.power(a, 3)) * W)


def generator_pareto(a):
    rng = np.random.default_rng(2)
    return np.sum(np.sqrt(rng.pareto(a, size=(2, 3))))


def random_state_weibull(a):
    return np.sum(np.random.RandomState(3).weibull(a, 3) ** 2)


def legacy_pareto(a):
    np.random.seed(4)
    return np.sum(np.random.pareto(a, 3) * W)


def legacy_power(a):
    np.random.seed(5)
    return np.sum(np.random.power(a) * W)


def survival_model(log_shape, rng):
    """Simulated lifetimes with a differentiated Weibull shape and a Pareto tail."""
    a = np.exp(log_shape)
    life = rng.weibull(a, size=(6, 3))
    tail = rng.pareto(a + 2.0, size=3)
    return np.mean(np.minimum(life, 2.0) + tail)


CASES = [(generator_weibull, (A,)), (generator_weibull, (1.4,)), (generator_power, (A,)),
         (generator_pareto, (A + 1.0,)), (random_state_weibull, (2.2,)),
         (legacy_pareto, (A,)), (legacy_power, (A,))]
IDS = [f"{f.__name__}-{k}" for k, (f, _) in enumerate(CASES)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", CASES, ids=IDS)
def test_pathwise_gradient(f, args, policy):
    check_grad(f, args, policy=policy)


@pytest.mark.parametrize("f, args", CASES, ids=IDS)
def test_value_is_the_primal_draw(f, args):
    value, _ = value_and_grad(f)(*args)
    assert value == f(*args)


@pytest.mark.parametrize("policy", POLICIES)
def test_survival_model(policy):
    check_grad(lambda s: survival_model(s, np.random.default_rng(6)), [np.log(A)],
               policy=policy)
