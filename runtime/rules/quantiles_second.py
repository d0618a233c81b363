"""Second order through the order statistics' JVP terms (session 39, secorder2): reverse
rules for quantile_jvp (np.quantile's and np.percentile's tangent from a) and
quantile_vjp (np.median's REDUCTION term), so hvp, hessian and grad of grad take
np.median, np.quantile, np.percentile and their nan-forms.

Both are linear in their first argument, each the other's transpose at the same a and q
(runtime/rules/quantiles_helpers.py: the entries the sort puts at lo and hi, weighed
1 - f and f), and constant in a (the sort order, the counts, lo, hi and f do not move
with a's values). quantile_jvp moves with q (f = q (n - 1) - lo for method 'linear'):
d/dq = (t_s[hi] - t_s[lo]) (n - 1), quantile_q_jvp's slope read from t (its `values`);
quantile_vjp's q has no rule here: NONE, refused when q carries one.

quantile_q_jvp (np.quantile's tangent from q, session 40, secorder3) is t (s[hi] - s[lo])
(n - 1) / scale: bilinear in t and the line s (a's, or `values` in a's order), constant in
q (lo, hi jump), so its cotangents are quantile_q_vjp's (t) and a scatter of g t (n - 1) /
scale to the entries sorted at hi and lo (quantile_q_slope_vjp: a, values).
"""
import numpy as np  # noqa: F401  (templates read np)

from ..registry import LINEAR, NONE, defvjp
from .quantiles_helpers import quantile_jvp, quantile_q_jvp, quantile_vjp

_AFTER_Q = (None, None, None, None)       # axis, method, weights, skip_nan: not values

_ALONG_T = "answer, a, q, axis, method, weights, skip_nan, 1, t"
defvjp(quantile_jvp, "t, answer, a, q, axis, method, weights, skip_nan",
       "quantile_vjp(g, answer, a, q, axis, method, weights, skip_nan)", None, None,
       f"quantile_q_vjp(g, {_ALONG_T})", *_AFTER_Q, numeric=True,
       jvp=(LINEAR, None, None, f"quantile_q_jvp(t_q, {_ALONG_T})") + _AFTER_Q)
defvjp(quantile_vjp, "slopes_g, answer, a, q, axis, method, weights, skip_nan",
       "unbroadcast(quantile_jvp(g, answer, a, q, axis, method, weights, skip_nan), slopes_g)",
       None, None, NONE, *_AFTER_Q, numeric=True, jvp=LINEAR)

_Q_ARGS = "ans, a, q, axis, method, weights, skip_nan, scale, values"
defvjp(quantile_q_jvp, f"t, {_Q_ARGS}=None", f"unbroadcast(quantile_q_vjp(g, {_Q_ARGS}), t)",
       None, f"quantile_q_slope_vjp(g, t, {_Q_ARGS}, 'a')", None, *_AFTER_Q, None,
       f"quantile_q_slope_vjp(g, t, {_Q_ARGS}, 'values')", numeric=True,
       jvp=(LINEAR, None, f"quantile_q_slope_jvp(t, t_a, {_Q_ARGS})", None) + _AFTER_Q +
       (None, LINEAR))
