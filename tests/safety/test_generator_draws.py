"""Draws through np.random.Generator methods (runtime/rules/random.py), as users write
them: the generator created inside, passed as an argument, or made by a helper; every
location-scale family, rayleigh and lognormal differentiated in every parameter against
central differences under every policy, with the primal's numbers; the other families
refused at the user's line with what to do instead."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad, value_and_grad

LOC = np.array([0.5, -1.0, 2.0])
SCALE = np.array([1.5, 0.3, 2.0])
W = np.array([0.3, -1.1, 0.7])


def normal_inside(mu, sigma):
    rng = np.random.default_rng(0)
    z = rng.normal(mu, sigma, size=(4, 3))
    return np.sum(z * W)


def uniform_argument(lo, hi, rng):
    return np.sum(rng.uniform(lo, hi) * W)


def exponential_scalar(scale):
    rng = np.random.default_rng(3)
    return np.sum(rng.exponential(scale, 5) ** 2)


def laplace_inside(loc, scale):
    rng = np.random.default_rng(4)
    return np.sum(np.tanh(rng.laplace(loc, scale, size=(2, 3))))


def logistic_inside(loc, scale):
    rng = np.random.default_rng(5)
    return np.sum(rng.logistic(loc=loc, scale=scale) * W)


def gumbel_inside(loc, scale):
    rng = np.random.default_rng(6)
    return np.sum(np.exp(-rng.gumbel(loc, scale, 3) ** 2))


def lognormal_inside(mean, sigma):
    rng = np.random.default_rng(7)
    return np.sum(np.log1p(rng.lognormal(mean, sigma, size=(2, 3))))


def rayleigh_inside(scale):
    rng = np.random.default_rng(8)
    return np.sum(rng.rayleigh(scale, 3) * W)


def legacy_lognormal(mean, sigma):
    np.random.seed(9)
    return np.sum(np.random.lognormal(mean, sigma, 3) * W)


def random_state_rayleigh(scale):
    return np.sum(np.random.RandomState(10).rayleigh(scale, 3) ** 2)


def reparameterised_loss(mu, log_sigma, rng):
    """A variational objective: samples of q = N(mu, exp(log_sigma)) through a model."""
    z = rng.normal(mu, np.exp(log_sigma), size=(8, 3))
    return np.mean(np.sum((z - 1.0) ** 2, axis=1)) - np.sum(log_sigma)


CASES = [(normal_inside, (LOC, SCALE)), (normal_inside, (0.3, 1.2)),
         (exponential_scalar, (1.3,)), (laplace_inside, (LOC, 0.7)),
         (logistic_inside, (LOC, SCALE)), (gumbel_inside, (0.2, SCALE)),
         (lognormal_inside, (LOC, 0.4)), (lognormal_inside, (0.1, SCALE)),
         (rayleigh_inside, (SCALE,)), (legacy_lognormal, (0.2, 0.5)),
         (random_state_rayleigh, (1.7,))]
IDS = [f"{f.__name__}-{k}" for k, (f, _) in enumerate(CASES)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", CASES, ids=IDS)
def test_reparameterised_gradient(f, args, policy):
    check_grad(f, args, policy=policy)


@pytest.mark.parametrize("f, args", CASES, ids=IDS)
def test_value_is_the_primal_draw(f, args):
    value, _ = value_and_grad(f, wrt=tuple(range(len(args))))(*args)
    assert value == f(*args)


@pytest.mark.parametrize("policy", POLICIES)
def test_generator_passed_as_an_argument(policy):
    check_grad(lambda lo, hi: uniform_argument(lo, hi, np.random.default_rng(1)),
               [LOC, LOC + SCALE], policy=policy)
    check_grad(lambda m, s: reparameterised_loss(m, s, np.random.default_rng(2)),
               [LOC, np.log(SCALE)], policy=policy)


def test_grad_with_the_generator_among_the_arguments():
    got = grad(reparameterised_loss, wrt=(0, 1))(LOC, np.log(SCALE), np.random.default_rng(2))
    want = grad(lambda m, s: reparameterised_loss(m, s, np.random.default_rng(2)),
                wrt=(0, 1))(LOC, np.log(SCALE))
    np.testing.assert_allclose(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1])


def gamma_shape(k):
    rng = np.random.default_rng(0)
    return np.sum(rng.gamma(k, 1.0, size=3))


def beta_draw(a):
    rng = np.random.default_rng(0)
    return np.sum(rng.beta(a, 2.0, size=3))


def poisson_rate(lam):
    rng = np.random.default_rng(0)
    return np.sum(rng.poisson(lam, size=3)) * lam


def wald_mean(a):
    rng = np.random.default_rng(0)
    return np.sum(rng.wald(a, 1.5, 3))


@pytest.mark.parametrize("f, name", [(gamma_shape, "gamma"), (beta_draw, "beta"),
                                     (wald_mean, "wald")])
def test_other_families_refused_with_what_to_do(f, name):
    with pytest.raises(TransformError, match=f"Generator.{name}") as info:
        grad(f)(2.0)
    assert info.value.line is not None
    assert "location-scale" in str(info.value)


def test_poisson_count_has_zero_derivative_in_its_rate():
    # an integer draw: piecewise constant in lam, so only the explicit factor counts
    check_grad(poisson_rate, (2.5,))
