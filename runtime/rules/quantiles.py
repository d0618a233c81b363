"""Order statistics: np.median, np.quantile, np.percentile and their nan-forms.

Differentiated in `a` (the sorted entries the result interpolates between receive the
cotangent, shared as the interpolation weighs them; at a tie, where the derivative
does not exist, the entry the stable sort puts first) and in `q` for method='linear' (the slope between the two entries; the
other supported methods, 'lower', 'higher', 'nearest' and 'midpoint', are steps in q).
Other methods, weights= and overwrite_input=True are refused when the rule runs. The
nan-forms count only the values that are not NaN; NaN entries get a zero cotangent.
"""
import numpy as np

from ..registry import REDUCTION, defvjp

_MEDIAN = "a, axis=None, out=None, overwrite_input=False, keepdims=False"
_QUANTILE = ("a, q, axis=None, out=None, overwrite_input=False, method='linear', "
             "keepdims=False, *, weights=None")


def _nan_flag(skip_nan):
    """The helpers' skip_nan argument: None when overwrite_input=True (refused)."""
    return f"(None if overwrite_input else {skip_nan})"


for _fn, _skip in ((np.median, False), (np.nanmedian, True)):
    defvjp(_fn, _MEDIAN, f"quantile_vjp(g, ans, a, 0.5, axis, 'linear', None, "
           f"{_nan_flag(_skip)})", None, None, None, None, full_reduction=True, numeric=True,
           jvp=REDUCTION)

for _fn, _skip, _scale in ((np.quantile, False, 1), (np.nanquantile, True, 1),
                           (np.percentile, False, 100), (np.nanpercentile, True, 100)):
    _flag = _nan_flag(_skip)
    defvjp(_fn, _QUANTILE,
           f"quantile_vjp(g, ans, a, np.asarray(q) / {_scale}, axis, method, weights, {_flag})",
           f"quantile_q_vjp(g, ans, a, q, axis, method, weights, {_flag}, {_scale})",
           None, None, None, None, None, numeric=True,    # weights= (refused): no rule
           jvp=(f"quantile_jvp(t_a, ans, a, np.asarray(q) / {_scale}, axis, method, weights, "
                f"{_flag})",
                f"quantile_q_jvp(t_q, ans, a, q, axis, method, weights, {_flag}, {_scale})"))
