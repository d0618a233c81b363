"""Functions whose output carries no derivative, each with its reason.

*zero*: comparisons, predicates, integer results (indices, counts) and
piecewise-constant functions (floor, sign): the derivative is zero wherever it
exists, so a differentiated argument correctly gets a zero cotangent.
*shape*: only the argument's shape or dtype is read (np.zeros_like, np.ndim).
*none*: a derivative exists but no rule gives it (np.arange's float endpoints):
the compiler refuses a program in which a differentiated value reaches it.
Random draws are in `random.py`; constructors with a real rule (np.full,
np.linspace, ...) in `constructors.py`.
"""
import logging
import time
import warnings

import numpy as np

from ..forward import zero_tangent
from ..higher import unit_tangent
from .forward_container_helpers import zero_addend
from ..gradient_stop import stop_gradient
from ..supers import super_function
from ..registry import NONE, SHAPE, ZERO, nondiff
from .reductions_helpers import extremum_share

# Comparisons, logic and predicates
nondiff(np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal,
        np.logical_and, np.logical_or, np.logical_not, np.logical_xor, np.isclose,
        np.isfinite, np.isnan, np.isinf, np.isneginf, np.isposinf, np.signbit,
        np.isreal, np.iscomplex, why=ZERO, elementwise=True)
nondiff(np.allclose, np.array_equal, np.array_equiv, np.any, np.all, np.isscalar,
        np.iscomplexobj, np.isrealobj, why=ZERO)
nondiff(np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.invert, np.left_shift,
        np.right_shift, np.gcd, np.lcm, why=ZERO, elementwise=True)

# Piecewise constant: the derivative is zero wherever it exists (np.sign, whose complex
# form z / |z| moves, is in complex_parts.py)
nondiff(np.floor, np.ceil, np.round, np.around, np.rint, np.fix, np.trunc,
        np.floor_divide, why=ZERO, elementwise=True)
# the gap to the next representable number: a step function of |x|
nondiff(np.spacing, why=ZERO, elementwise=True)

# Indices, counts and searches
nondiff(np.argmax, np.argmin, np.argsort, np.argpartition, np.argwhere, np.nonzero,
        np.flatnonzero, np.count_nonzero, np.searchsorted, np.digitize,
        np.unravel_index, np.ravel_multi_index, np.indices, np.diag_indices,
        np.tril_indices, np.triu_indices, why=ZERO)
nondiff(np.nanargmax, np.nanargmin, np.lexsort, np.isin, why=ZERO)
nondiff(np.tril_indices_from, np.triu_indices_from, np.diag_indices_from, why=SHAPE)
# index grids and distinct values of data (element connectivity, group labels): a
# differentiated argument is refused (np.unique's values move with a float one)
nondiff(np.ix_, np.unique, why=NONE)
if hasattr(np, "bitwise_count"):                                        # NumPy 2.0+
    nondiff(np.bitwise_count, why=ZERO, elementwise=True)

# Shapes, dtypes and arrays built from shapes
nondiff(np.shape, np.size, np.ndim, np.tri, np.result_type, np.can_cast, why=SHAPE)
nondiff(np.zeros_like, np.ones_like, np.empty_like, np.zeros, np.ones, np.empty, np.eye,
        np.identity, why=SHAPE, fresh=True)
# window functions of a length M (np.kaiser's beta moves it: not declared)
nondiff(np.hamming, np.hanning, np.blackman, np.bartlett, why=SHAPE, fresh=True)
# arange(start, stop, step) = start + k * step: a derivative in start and step, no rule yet
nondiff(np.arange, why=NONE, fresh=True)

# Output and clocks: they show values or read the time and return None or a float that
# no argument changes. They run once in the forward sweep, as in the primal; a value
# being differentiated may be printed or logged (its cotangent from them is zero).
nondiff(print, warnings.warn, logging.debug, logging.info, logging.warning, logging.error,
        logging.critical, logging.exception, logging.log, logging.Logger.debug,
        logging.Logger.info, logging.Logger.warning, logging.Logger.error,
        logging.Logger.critical, logging.Logger.exception, logging.Logger.log, why=ZERO)
nondiff(time.perf_counter, time.perf_counter_ns, time.time, time.time_ns, time.monotonic,
        time.monotonic_ns, time.process_time, time.process_time_ns, why=ZERO)

# The identity whose derivative is zero (transform.stop_gradient): one declaration for
# every mode; the result is a copy (fresh), see runtime/gradient_stop.py
nondiff(stop_gradient, why=ZERO, fresh=True)

# The shares of tied extrema in a max's or min's tangent (runtime/rules/reductions.py):
# piecewise constant in the argument
nondiff(extremum_share, why=ZERO, fresh=True)

# Generated forward-mode code's zero tangent (runtime/forward.py): only its argument's
# shape and dtype are read, so reverse mode over `<name>_jvp` (transform.hvp) passes it
nondiff(zero_tangent, why=SHAPE, fresh=True)
nondiff(unit_tangent, why=SHAPE, fresh=True)       # grad of grad (runtime/higher.py)
nondiff(zero_addend, why=SHAPE, fresh=True)     # (x + y's: a bool's is 0.0, session 33)
# the function `super().name` calls (transform/frontend/super_calls.py): a function value
nondiff(super_function, why=ZERO)
