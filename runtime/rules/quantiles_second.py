"""Second order through the order statistics' JVP terms (session 39, secorder2): reverse
rules for quantile_jvp (np.quantile's and np.percentile's tangent from a) and
quantile_vjp (np.median's REDUCTION term), so hvp, hessian and grad of grad take
np.median, np.quantile, np.percentile and their nan-forms.

Both are linear in their first argument, each the other's transpose at the same a and q
(runtime/rules/quantiles_helpers.py: the entries the sort puts at lo and hi, weighed
1 - f and f), and constant in a (the sort order, the counts, lo, hi and f do not move
with a's values). Their derivative in q (f moves with q for method 'linear') has no rule
here: NONE, refused when q carries one.
"""
import numpy as np  # noqa: F401  (templates read np)

from ..registry import LINEAR, NONE, defvjp
from .quantiles_helpers import quantile_jvp, quantile_vjp

_AFTER_Q = (None, None, None, None)       # axis, method, weights, skip_nan: not values

defvjp(quantile_jvp, "t, answer, a, q, axis, method, weights, skip_nan",
       "quantile_vjp(g, answer, a, q, axis, method, weights, skip_nan)", None, None, NONE,
       *_AFTER_Q, numeric=True, jvp=LINEAR)
defvjp(quantile_vjp, "slopes_g, answer, a, q, axis, method, weights, skip_nan",
       "unbroadcast(quantile_jvp(g, answer, a, q, axis, method, weights, skip_nan), slopes_g)",
       None, None, NONE, *_AFTER_Q, numeric=True, jvp=LINEAR)
