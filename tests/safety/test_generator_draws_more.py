"""Session 30 (lib30): gamma(shape, scale) is scale * standard_gamma(shape), so its
scale is differentiated as a scale family (Generator, RandomState and the legacy
function, against central differences under every policy, with the primal's numbers);
a differentiated shape, and every Generator family with no location-scale form, is
refused at the user's line naming the method, with what to do instead."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad, value_and_grad

SCALE = np.array([1.5, 0.3, 2.0])
W = np.array([0.3, -1.1, 0.7])


def gamma_scale(scale):
    rng = np.random.default_rng(11)
    return np.sum(rng.gamma(2.5, scale, size=(2, 3)) * W)


def gamma_scale_keyword(scale):
    rng = np.random.default_rng(12)
    return np.sum(np.log(rng.gamma(np.array([0.5, 1.0, 4.0]), scale=scale)))


def legacy_gamma(scale):
    np.random.seed(13)
    return np.sum(np.random.gamma(3.0, scale, 3) ** 2)


def random_state_gamma(scale):
    return np.sum(np.random.RandomState(14).gamma(1.5, scale, 4))


CASES = [(gamma_scale, (SCALE,)), (gamma_scale, (0.8,)), (gamma_scale_keyword, (SCALE,)),
         (legacy_gamma, (1.7,)), (random_state_gamma, (0.6,))]
IDS = [f"{f.__name__}-{k}" for k, (f, _) in enumerate(CASES)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", CASES, ids=IDS)
def test_gamma_scale_is_reparameterised(f, args, policy):
    check_grad(f, args, policy=policy)


@pytest.mark.parametrize("f, args", CASES, ids=IDS)
def test_value_is_the_primal_draw(f, args):
    value, _ = value_and_grad(f)(*args)
    assert value == f(*args)


REFUSED = {
    "gamma": "rng.gamma(t, 1.0, size=3)", "beta": "rng.beta(t, 2.0, size=3)",
    "chisquare": "rng.chisquare(t, 3)", "standard_t": "rng.standard_t(t, 3)",
    "vonmises": "rng.vonmises(t, 2.0, 3)", "wald": "rng.wald(t, 1.5, 3)",
    "triangular": "rng.triangular(t - 1.0, t, t + 1.0, 3)", "f": "rng.f(t, 3.0, 3)",
    "standard_gamma": "rng.standard_gamma(t, 3)",
    "noncentral_chisquare": "rng.noncentral_chisquare(3.0, t, 3)",
    "noncentral_f": "rng.noncentral_f(2.0, 3.0, t, 3)",
    "dirichlet": "rng.dirichlet(np.array([t, 1.0]))",
    "multivariate_normal": "rng.multivariate_normal(np.array([t, 1.0]), np.eye(2))",
    "choice": "rng.choice(np.array([t, 2.0 * t, 3.0]), 2)",
    "permutation": "rng.permutation(np.array([t, 2.0 * t, 3.0]))",
}


def _draw(method, text):
    namespace = {"np": np}
    source = f"def draw_{method}(t):\n    rng = np.random.default_rng(0)\n" \
             f"    return np.sum({text})\n"
    path = f"<lib30 {method}>"
    import linecache
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    exec(compile(source, path, "exec"), namespace)
    return namespace[f"draw_{method}"]


@pytest.mark.parametrize("method", sorted(REFUSED))
def test_families_without_a_location_scale_form_are_refused(method):
    fn = _draw(method, REFUSED[method])
    with pytest.raises(TransformError, match=rf"Generator\.{method}\b") as info:
        grad(fn)(1.3)
    assert info.value.line == 3
    assert "which has no derivative rule for it" in str(info.value)


def make_rng(seed):
    return np.random.default_rng(seed)


def dispatched_gamma_scale(scale):
    rng = make_rng(15)                   # a generator the compiler cannot see: run time
    return np.sum(rng.gamma(2.0, scale, size=3) * W)


def dispatched_gamma_shape(k):
    rng = make_rng(16)
    return np.sum(rng.gamma(k, 1.5, size=3))


def dispatched_gamma_shape_keyword(k):
    rng = make_rng(17)
    return np.sum(rng.gamma(shape=k, scale=1.5, size=3))


@pytest.mark.parametrize("policy", POLICIES)
def test_dispatched_gamma_scale(policy):
    check_grad(dispatched_gamma_scale, (SCALE,), policy=policy)


@pytest.mark.parametrize("fn, message", [
    (dispatched_gamma_shape, r"Generator.gamma\(\)'s `shape` has no derivative rule"),
    (dispatched_gamma_shape_keyword, r"is passed by keyword \(`shape`\)")])
def test_dispatched_gamma_shape_is_refused(fn, message):
    """The rule has a template for the scale only: a differentiated shape reaching it
    through a generator known only at run time is refused there (it was a silent 0
    while this session's gamma rule was being written; a keyword: at compile time)."""
    with pytest.raises(TransformError, match=message) as info:
        grad(fn)(2.0)
    assert "test_generator_draws_more.py" in str(info.value)
