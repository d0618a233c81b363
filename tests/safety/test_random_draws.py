"""Location-scale draws are differentiated through their reparameterisation
(sample = loc + scale * z, z read back from the sample); the forward sweep makes
the user's call, so values are the primal's. Other draws reached by a value
being differentiated are refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad, value_and_grad

LOC = np.array([0.5, -1.0, 2.0])
SCALE = np.array([1.5, 0.3, 2.0])
WEIGHTS = np.array([[0.3, -1.1, 0.7], [1.2, 0.4, -0.5]])


def make_rng():
    return np.random.default_rng(7)


def generator_normal(loc, scale):
    rng = np.random.default_rng(0)
    return np.sum(rng.normal(loc, scale, size=(2, 3)) * WEIGHTS)


def generator_keywords(loc, scale):
    rng = np.random.default_rng(0)
    return np.sum(rng.normal(loc=loc, scale=scale, size=(2, 3)) ** 2)


def chained_uniform(low, high):
    return np.sum(np.random.default_rng(1).uniform(low, high, (2, 3)) * WEIGHTS)


def random_state_laplace(loc, scale):
    rs = np.random.RandomState(2)
    return np.sum(rs.laplace(loc, scale, (2, 3)) * WEIGHTS)


def legacy_logistic(loc, scale):
    np.random.seed(3)
    return np.sum(np.random.logistic(loc, scale, (2, 3)) * WEIGHTS)


def legacy_gumbel(loc, scale):
    np.random.seed(4)
    return np.sum(np.random.gumbel(loc, scale, (2, 3)) * WEIGHTS)


def legacy_exponential(scale):
    np.random.seed(5)
    return np.sum(np.random.exponential(scale, (2, 3)) * WEIGHTS)


def generator_exponential(scale):
    return np.sum(np.random.default_rng(5).exponential(scale, 4))


def dispatched_gumbel(loc, scale):
    rng = make_rng()                  # a generator the compiler cannot see: run-time dispatch
    return np.sum(rng.gumbel(loc, scale, (2, 3)) * WEIGHTS)


def legacy_scalar_normal(mu, sigma):
    np.random.seed(0)
    return np.random.normal(mu, sigma) ** 2


CASES = [
    (generator_normal, (LOC, SCALE)), (generator_keywords, (0.5, 2.0)),
    (chained_uniform, (LOC, LOC + SCALE)), (random_state_laplace, (0.5, SCALE)),
    (legacy_logistic, (LOC, 1.5)), (legacy_gumbel, (0.2, 1.5)),
    (legacy_exponential, (SCALE,)), (generator_exponential, (1.5,)),
    (dispatched_gumbel, (LOC, SCALE)), (legacy_scalar_normal, (0.5, 2.0)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", CASES, ids=[c[0].__name__ for c in CASES])
def test_reparameterised_gradient(f, args, policy):
    check_grad(f, args, policy=policy)


@pytest.mark.parametrize("f, args", CASES, ids=[c[0].__name__ for c in CASES])
def test_value_is_the_primal_draw(f, args):
    value, _ = value_and_grad(f, wrt=tuple(range(len(args))))(*args)
    assert value == f(*args)


def generator_gamma(k):
    rng = np.random.default_rng(0)
    return np.sum(rng.gamma(k, size=3))


def legacy_choice(x):
    np.random.seed(0)
    return np.sum(np.random.choice(x, 2))


GLOBAL_RNG = np.random.default_rng(11)


def global_generator_beta(a):
    return np.sum(GLOBAL_RNG.beta(a, 2.0, 3))


def dispatched_gamma(k):
    rng = make_rng()
    return np.sum(rng.gamma(k, size=3))


def dispatched_keyword(mu):
    rng = make_rng()
    return np.sum(rng.normal(loc=mu, size=3))


@pytest.mark.parametrize("f, message", [
    (generator_gamma, "reaches `shape` of np.random.Generator.gamma"),   # named: session 30
    (legacy_choice, "reaches argument 1 of np.random.choice"),
    (global_generator_beta, "reaches argument 1 of np.random.Generator.beta"),
    (dispatched_keyword, "passed by keyword"),
])
def test_refused_at_compile_time(f, message):
    with pytest.raises(TransformError, match=message) as info:
        grad(f)(np.array([2.0, 3.0]) if f is legacy_choice else 2.0)
    assert info.value.line is not None


def test_dispatched_draw_without_rule_is_refused():
    """The receiver's type is known only at run time: refused there, before the draw."""
    with pytest.raises(TransformError, match="Generator.gamma"):
        grad(dispatched_gamma)(2.0)


def test_integer_draw_has_zero_gradient():
    def f(p):
        rng = np.random.default_rng(0)
        return np.sum(rng.binomial(10, p, size=5)) * 1.0 + p
    check_grad(f, (0.4,))
