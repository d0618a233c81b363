"""Example arguments for every no-derivative entry of the registry, for
test_every_nondiff_entry.py: each float argument in turn is the differentiated one.

Keyed by the function; random draws are keyed by method name, shared by the
legacy np.random function and the Generator and RandomState methods.
"""
import contextlib
import logging
import math
import operator
import random
import time
import warnings

import numpy as np

from runtime.gradient_stop import stop_gradient
from runtime.rules.indexing import index_object
from runtime.patterns import is_instance_with
from runtime.checkpoint_trial import checkpoint_fits
from runtime.rules.operators import enter_context, exit_context
from runtime.rules.sequences_helpers import shuffle_order
from tests.optional_scipy import HAVE_SCIPY
from tests.rules.test_nondiff import CALLS

A = np.array([[0.53, -0.21, 0.36], [-0.79, 0.48, -0.17]])
B = np.array([[0.12, 0.44, -0.61], [0.25, -0.33, 0.91]])
V = np.array([0.3, 1.7, 2.2])
LOGGER = logging.getLogger("thunkgrad.tests.nondiff")

EXAMPLES = {fn: tuple(args) for fn, *args in CALLS}
EXAMPLES.update({
    operator.lt: (0.3, 0.7), operator.le: (0.3, 0.7), operator.gt: (A, 0.1),
    operator.ge: (A, B), operator.eq: (A, B), operator.ne: (0.3, 0.7),
    operator.not_: (0.3,), operator.floordiv: (2.3, 0.7), operator.and_: (A > 0, B > 0),
    operator.xor: (A > 0, B > 0), operator.invert: (3,),
    operator.is_: (0.3, None), operator.is_not: (0.3, None), operator.contains: ((1.0,), 0.3),
    math.floor: (2.3,), math.ceil: (2.3,), math.trunc: (-2.3,), math.isnan: (2.3,),
    math.isinf: (2.3,), math.isfinite: (2.3,), math.isclose: (2.3, 2.3000001), math.ulp: (2.3,),
    math.factorial: (4,), math.comb: (5, 2), math.perm: (5, 2), math.gcd: (12, 18),
    math.lcm: (4, 6), math.isqrt: (17,),
    len: (V,), int: (2.3,), bool: (2.3,), range: (3,), round: (2.34,), isinstance: (2.3, float),
    type: (2.3,), is_instance_with: (2.3, float, ("real",)),
    checkpoint_fits: ("no step of this key", 2.3, (0.7,), range(3)),
    slice: (0.5, 2.5), dict.keys: ({"a": 1.0},), index_object: (np.s_, 1.5),
    np.arange: (0.5, 3.0, 0.75),
    # output, logging and clocks (runtime/rules/nondiff.py)
    print: ("loss", 0.5), warnings.warn: ("a message",),
    logging.log: (logging.DEBUG, "value %s", 0.5),
    logging.Logger.log: (LOGGER, logging.DEBUG, "value %s", 0.5),
    enter_context: (contextlib.nullcontext(),), exit_context: (contextlib.nullcontext(),),
    # (index: a moved value is not found, so only the container is given)
    list.index: ([1, 2], 2), list.count: ([0.5, 1.5], 1.5),
    tuple.index: ((1, 2), 1), tuple.count: ((0.5, 1.5), 0.5),
})
EXAMPLES.update({fn: ("value %s", 0.5) for fn in (
    logging.debug, logging.info, logging.warning, logging.error, logging.critical,
    logging.exception)})
EXAMPLES.update({fn: (LOGGER, "value %s", 0.5) for fn in (
    logging.Logger.debug, logging.Logger.info, logging.Logger.warning, logging.Logger.error,
    logging.Logger.critical, logging.Logger.exception)})
EXAMPLES.update({fn: () for fn in (
    time.perf_counter, time.perf_counter_ns, time.time, time.time_ns, time.monotonic,
    time.monotonic_ns, time.process_time, time.process_time_ns)})
try:                                               # SciPy is optional (runtime/rules/__init__.py)
    import scipy.special as _sc
    EXAMPLES.update({_sc.round: (A + 0.1,), _sc.gammasgn: (A,)})
except ImportError:
    pass
# 2026-12-02, session 30 (py30b): the order rng.shuffle(xs) of a list is rewritten to draw
# (a permutation of range(len(xs)): its sum never moves, whatever the draws)
EXAMPLES[shuffle_order] = (random.Random(3), [0.5, 1.5, 2.5])
# Outputs whose values are undefined (uninitialised memory): only their shape is probed
SHAPE_PROBED = {np.empty, np.empty_like}
# Not callable with arguments: the type of builtins (a rule so calls through it classify)
NOT_CALLED = {min.__class__}
# The identity declared ZERO on purpose (transform.stop_gradient, 2026-12-02, session 31
# (api31)): its gradient must be zero where the differences are not
EXAMPLES[stop_gradient] = (A,)
# session 32 (hvp): forward mode's zero tangent, nondiff (SHAPE) for hvp's reverse sweep
from runtime.forward import zero_tangent  # noqa: E402
EXAMPLES[zero_tangent] = (A,)
# session 33 (hbench): the tie shares of a max's tangent, piecewise constant in `a`
from runtime.rules.reductions_helpers import extremum_share  # noqa: E402
EXAMPLES[extremum_share] = (np.max, A, 1)
# session 33 (corp): guards and masks generated forward code calls (runtime/rules/tangents.py)
from runtime.containers import is_user_object, not_shared_array, unpacked_count  # noqa: E402
from runtime.rules.elementwise_helpers import clip_inside  # noqa: E402
EXAMPLES.update({unpacked_count: ((0.3, 0.7), 2), not_shared_array: (0.5, "where"),
                 is_user_object: (A, "sum"), clip_inside: (A, -0.2, 0.3, None, None)})
# session 34 (fill): a.fill(v)'s dispatch, np.sum(b)'s guard for an argument
from runtime.containers import is_ndarray  # noqa: E402
from runtime.rules.own_methods_helpers import own_method_refused  # noqa: E402
EXAMPLES.update({is_ndarray: (A,), own_method_refused: (A, "sum", "where", True)})
from runtime.higher import unit_tangent  # noqa: E402  (grad of grad's unit tangent)
EXAMPLES[unit_tangent] = (1.3,)
from runtime.rules.forward_container_helpers import zero_addend  # noqa: E402
EXAMPLES[zero_addend] = (A,)          # session 33: `x + y`'s zero for an inactive y
# session 34 (red): forward mode's guard of a dict loop, var/std's element count
from runtime.forward import dict_items_guard  # noqa: E402
from runtime.helpers import reduction_size  # noqa: E402
from transform.errors import TransformError  # noqa: E402
EXAMPLES.update({dict_items_guard: ({"w": A}, TransformError("not a dict")),
                 reduction_size: (A, 1)})
# session 38 (secorder): nanmean's count of non-NaN values (its divisor)
from runtime.rules.reductions_helpers import count_valid  # noqa: E402
EXAMPLES[count_valid] = (A, 1)
# session 39 (red40fix): a helper's integer made from sizes (lowering/integer_results.py)
from runtime.helpers import integer_valued  # noqa: E402
EXAMPLES[integer_valued] = (3,)
from runtime.integer_reads import integer_attribute, integer_call  # noqa: E402 (session 40)
EXAMPLES.update({integer_call: (len, A), integer_attribute: (A, "ndim")})
# session 35: the second-order rules' and hvp routes' shape and check helpers
from runtime.accumulate import cotangent_zeros  # noqa: E402
from runtime.closures import make_closure, expire_closure  # noqa: E402
from runtime.flat import gradient_seed, shape_snapshot  # noqa: E402
from runtime.rules.linalg_more import _tensor_axes  # noqa: E402
from runtime.rules.shape_helpers import cot_dtype  # noqa: E402
from runtime.rules.ufunc_methods_helpers import _renewed_at  # noqa: E402
from runtime.tape import shape_only  # noqa: E402
EXAMPLES.update({cotangent_zeros: (A,), gradient_seed: (1.3,), shape_only: (A,),
                 shape_snapshot: (A,),           # session 38 (fwdcov): the flat gradient's
                 expire_closure: (make_closure(lambda t, w: t * w, (0.5,)),),
                 _tensor_axes: (A, (0,)),
                 cot_dtype: (A, B), _renewed_at: (np.maximum.accumulate(V), 0)})
from runtime.rules.methods import integer_shape  # noqa: E402  (session 38: reshape's n)
EXAMPLES[integer_shape] = ((3, 2),)          # integers only: a float raises, as in NumPy
if HAVE_SCIPY:               # (SciPy's rules: an optional extra)
    from runtime.rules.scipy_linalg_more import _row_order
    from runtime.rules.scipy_stats import mvn_dimension, mvn_symmetric
    EXAMPLES[_row_order] = (np.array([2, 2, 2], np.int32),)
    # a 1x1 covariance stays symmetric under the differences' steps
    EXAMPLES.update({mvn_dimension: (V, 2.0 * np.eye(3)), mvn_symmetric: (np.array([[2.0]]),)})
    from runtime.rules.scipy_stats_summaries import moment_order   # (session 39, secorder2)
    EXAMPLES[moment_order] = (3, None)              # an integer order: no float argument
# session 36: super() calls rewritten (runtime/supers.py); no float argument to step


class _Base:
    def scaled(self, x):
        return 2.0 * x


class _Derived(_Base):
    pass


from runtime.supers import super_function  # noqa: E402
EXAMPLES[super_function] = (_Derived, _Derived(), "scaled")
STOPS = {stop_gradient}

RANDOM = {
    "beta": (2.0, 3.0), "binomial": (5, 0.4), "bytes": (4,), "chisquare": (3.0,),
    "choice": (V,), "dirichlet": (np.array([1.0, 2.0]),), "f": (3.0, 4.0), "gamma": (2.0,),
    "geometric": (0.3,), "get_state": (), "hypergeometric": (5, 4, 3), "integers": (0, 5, 3),
    "lognormal": (0.5, 1.0), "logseries": (0.5,), "multinomial": (5, np.array([0.2, 0.8])),
    "multivariate_hypergeometric": (np.array([3, 2]), 2),
    "multivariate_normal": (np.zeros(2), np.eye(2)), "negative_binomial": (3, 0.5),
    "noncentral_chisquare": (3.0, 1.0), "noncentral_f": (3.0, 4.0, 1.0), "pareto": (3.0,),
    "permutation": (V,), "permuted": (V,), "poisson": (3.0,), "power": (3.0,), "random": (3,),
    "rand": (2,), "randn": (2,), "randint": (0, 5), "random_integers": (1, 5),
    "random_sample": (3,), "ranf": (3,), "sample": (3,), "rayleigh": (2.0,), "seed": (0,),
    "set_state": (np.random.RandomState(0).get_state(),), "shuffle": (V,), "spawn": (2,),
    "standard_cauchy": (3,), "standard_exponential": (3,), "standard_gamma": (2.0,),
    "standard_normal": (3,), "standard_t": (3.0,), "tomaxint": (3,),
    "triangular": (0.0, 0.5, 1.0), "vonmises": (0.0, 1.0), "wald": (1.0, 2.0),
    "weibull": (2.0,), "zipf": (2.0,),
}
# ufunc.outer of a no-derivative ufunc (runtime/rules/ufunc_outer.py): the ufunc's own example
EXAMPLES.update({u.outer: EXAMPLES[u] for u in list(EXAMPLES)
                 if isinstance(u, np.ufunc) and u.nin == 2 and u.signature is None})
# Generators, bit generators and seed sequences: built from integer seeds
SEEDED = {np.random.default_rng, np.random.Generator, np.random.RandomState,
          np.random.SeedSequence, np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937,
          np.random.Philox, np.random.SFC64}


def random_variant(fn):
    """("Generator" | "RandomState" | "legacy", method name) for a random draw, else None."""
    for cls in (np.random.Generator, np.random.RandomState):
        for name in dir(cls):
            if not name.startswith("_") and getattr(cls, name, None) is fn:
                return cls.__name__, name
    name = getattr(fn, "__name__", None)
    if name and getattr(np.random, name, None) is fn and fn not in SEEDED:
        return "legacy", name
    return None
# session 34 (hvpcov): what generated forward code calls, nondiff for hvp's reverse sweep:
# `with` and `try`/`finally` (runtime/contexts.py; no float argument: not called), an
# operator's side, a container's method looked up by type, a match's sequence test
import runtime.contexts as _contexts  # noqa: E402
from runtime.operators import operator_side  # noqa: E402
from transform.forward.calls import container_method  # noqa: E402
from transform.frontend.match import is_sequence_of  # noqa: E402
EXAMPLES.update({_contexts.enter_context: (contextlib.nullcontext(),),
                 _contexts.exit_context: (contextlib.nullcontext(),),
                 _contexts.finally_guard: ("key",),
                 operator_side: (A, 0.5, "mul", False, "here"),
                 container_method: ([0.5, 1.5], "index", None),
                 is_sequence_of: ([0.5, 1.5], 2)})
# session 40 (red41): index grids and distinct values of data (np.ix_ and np.unique refuse a
# differentiated argument), np.fill_diagonal's written index and length (shape only)
from runtime.rules.indexing import diagonal_length, diagonal_positions  # noqa: E402
EXAMPLES.update({np.ix_: (np.array([0.5, 1.5]),), np.unique: (A,),
                 diagonal_positions: (np.ones((3, 3)),), diagonal_length: (np.ones((3, 2)),)})
# session 40 (secorder3): the reduced axes of a 2-norm and prod's reduced-axes layout (shapes
# only, for the third-order rules compiled from source)
from runtime.rules.norm_helpers import _l2_kind_axes  # noqa: E402
from runtime.rules.prod_second_helpers import _layout  # noqa: E402
EXAMPLES.update({_l2_kind_axes: (A, None, None, "vector"), _layout: (A, 1)})
