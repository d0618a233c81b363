"""Random draws: the legacy np.random functions and the methods of
np.random.Generator and np.random.RandomState.

A location-scale draw is `loc + scale * z` with `z` a standard draw, so its
reparameterised derivative reads `z = (ans - loc) / scale` back from the sample
itself: the forward sweep makes the user's own call, and the random stream is
exactly the primal's. uniform(low, high) is `low + (high - low) * u`,
exponential(scale), rayleigh(scale) and gamma's scale are `scale * e`, and lognormal(mean, sigma) is
`exp(mean + sigma * z)`; weibull(a), power(a) and pareto(a) transform one standard
exponential draw. Integer-valued draws (binomial, poisson)
and seeding have a zero derivative; draws of a given size read only shapes;
the rest (gamma's shape, beta, choice, permutation, ...) have no rule yet, and the
compiler refuses a program in which a differentiated value reaches them, saying
what to do instead.
"""
import numpy as np

from ..registry import DIAGONAL, NONE, SHAPE, ZERO, declare, defvjp, lookup, nondiff

_LOC = "unbroadcast(g, loc)"
_SCALE = "unbroadcast(g * (ans - loc) / scale, scale)"
LOCATION_SCALE = {
    "normal": ("loc=0.0, scale=1.0, size=None", _LOC, _SCALE),
    "laplace": ("loc=0.0, scale=1.0, size=None", _LOC, _SCALE),
    "logistic": ("loc=0.0, scale=1.0, size=None", _LOC, _SCALE),
    "gumbel": ("loc=0.0, scale=1.0, size=None", _LOC, _SCALE),
    "uniform": ("low=0.0, high=1.0, size=None",
                "unbroadcast(g * (high - ans) / (high - low), low)",
                "unbroadcast(g * (ans - low) / (high - low), high)"),
    "exponential": ("scale=1.0, size=None", "unbroadcast(g * ans / scale, scale)"),
    "rayleigh": ("scale=1.0, size=None", "unbroadcast(g * ans / scale, scale)"),
    # exp(mean + sigma * z): z = (log(ans) - mean) / sigma
    "lognormal": ("mean=0.0, sigma=1.0, size=None", "unbroadcast(g * ans, mean)",
                  "unbroadcast(g * ans * (np.log(ans) - mean) / sigma, sigma)"),
    # one standard exponential e per sample, whatever a is (NumPy's Generator and legacy
    # algorithms): weibull e^(1/a) and power (1 - e^-e)^(1/a) have slope -x log(x) / a,
    # pareto expm1(e / a) slope -(x + 1) log1p(x) / a, read back from the sample x
    "weibull": ("a, size=None", "unbroadcast(-g * ans * np.log(ans) / a, a)"),
    "power": ("a, size=None", "unbroadcast(-g * ans * np.log(ans) / a, a)"),
    "pareto": ("a, size=None", "unbroadcast(-g * (ans + 1) * np.log1p(ans) / a, a)"),
    # scale * standard_gamma(shape): a scale family in `scale` only; the shape changes the
    # standard draw itself (no rule: a differentiated shape is refused)
    "gamma": ("shape, scale=1.0, size=None", NONE, "unbroadcast(g * ans / scale, scale)"),
}
NO_RULE_HINT = ("this draw has no location-scale form to differentiate through: draw it "
                "with parameters that are not differentiated, or use a location-scale draw "
                "(normal, laplace, logistic, gumbel, uniform, exponential, rayleigh, "
                "lognormal) or one of a single exponential draw (weibull, power, pareto), "
                "or a score-function estimator")
SHAPE_ONLY = {"random", "rand", "randn", "random_sample", "ranf", "sample", "standard_normal",
              "standard_exponential", "standard_cauchy", "bytes", "get_state", "tomaxint"}
INTEGER_OR_SEED = {"integers", "randint", "random_integers", "binomial", "poisson", "geometric",
                   "hypergeometric", "negative_binomial", "logseries", "zipf", "multinomial",
                   "multivariate_hypergeometric", "seed", "set_state", "spawn"}
SOURCES = (np.random.Generator, np.random.RandomState)


def _methods(cls):
    return sorted(n for n in dir(cls) if not n.startswith("_") and n != "bit_generator")


def _why(name):
    return SHAPE if name in SHAPE_ONLY else ZERO if name in INTEGER_OR_SEED else NONE


def _register(name, fn, self_param):
    if name in LOCATION_SCALE:
        signature, *templates = LOCATION_SCALE[name]
        if self_param:
            defvjp(fn, "self, " + signature, None, *templates, jvp=DIAGONAL)
        else:
            defvjp(fn, signature, *templates, jvp=DIAGONAL)    # the stream held: diagonal
        if NONE in templates:
            lookup(fn).hint = NO_RULE_HINT
    else:
        nondiff(fn, why=_why(name))
        if _why(name) == NONE:
            lookup(fn).hint = NO_RULE_HINT


for _cls in SOURCES:
    for _name in _methods(_cls):
        _register(_name, getattr(_cls, _name), self_param=True)
# The legacy module functions are methods of one global RandomState (np.random.seed too).
for _name in _methods(np.random.RandomState) + ["seed", "ranf", "sample"]:
    if hasattr(np.random, _name):
        _register(_name, getattr(np.random, _name), self_param=False)

# Generators, bit generators and seeds: integers in, no derivative
nondiff(np.random.default_rng, np.random.Generator, np.random.RandomState,
        np.random.SeedSequence, np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937,
        np.random.Philox, np.random.SFC64, why=ZERO)
declare(np.random.shuffle, writes=True)           # shuffles its argument in place
