"""Statistics: covariance and correlation, and the NaN-ignoring reductions not in
reductions.py.

np.cov is differentiated in m and y, not in fweights/aweights (a differentiated weight
is refused); np.corrcoef in x and y (it divides by the standard deviations: a constant
variable has none). The nan-functions treat NaN entries as absent: their cotangent
there is 0, and so are entries where= leaves out. nanstd of a constant line divides by zero, like np.std.
"""
import numpy as np

from ..registry import NONE, REDUCTION, defvjp

_COV = "m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None"
defvjp(np.cov, _COV, "cov_vjp(g, m, y, rowvar, bias, ddof, fweights, aweights, 0)",
       "cov_vjp(g, m, y, rowvar, bias, ddof, fweights, aweights, 1)", None, None, None,
       NONE, NONE, None, numeric=True,
       jvp=tuple(f"cov_jvp(t_{p}, m, y, rowvar, bias, ddof, fweights, aweights, {k})"
                 for k, p in enumerate(("m", "y"))))
defvjp(np.corrcoef, "x, y=None, rowvar=True, *, dtype=None", "corrcoef_vjp(g, x, y, rowvar, 0)",
       "corrcoef_vjp(g, x, y, rowvar, 1)", None, None, numeric=True,
       jvp=("corrcoef_jvp(t_x, ans, x, y, rowvar, 0)", "corrcoef_jvp(t_y, ans, x, y, rowvar, 1)"))

_MOMENT = "a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True"
# where=False entries count as NaN: absent from the mean, the count and the cotangent
_PRESENT = "np.where(where, a, np.nan)"
# complex values: conj(a - mean) and a real cotangent, as np.var's (reductions.py)
_NAN_CENTRED = (f"np.conj({_PRESENT} - np.nanmean({_PRESENT}, axis, keepdims=True))"
                f" / (count_valid({_PRESENT}, axis) - ddof)")
defvjp(np.nanvar, _MOMENT,
       f"np.where(np.isnan({_PRESENT}), 0, unreduce(np.real(g), a, axis, keepdims) * 2 * "
       f"{_NAN_CENTRED})",
       full_reduction=True, numeric=True,
       jvp=REDUCTION)
defvjp(np.nanstd, _MOMENT,
       f"np.where(np.isnan({_PRESENT}), 0, unreduce(as_cotangent(np.real(g), a) / ans, a, "
       f"axis, keepdims) * {_NAN_CENTRED})", full_reduction=True, numeric=True,
       jvp=REDUCTION)
defvjp(np.nanprod, "a, axis=None, dtype=None, out=None, keepdims=False",
       "np.where(np.isnan(a), 0, prod_vjp(g, np.where(np.isnan(a), 1, a), axis, keepdims))",
       full_reduction=True, numeric=True, complex_ok=True,
       jvp=REDUCTION)
defvjp(np.nancumsum, "a, axis=None, dtype=None, out=None",
       "np.where(np.isnan(a), 0, cumsum_vjp(g, a, axis))", numeric=True, complex_ok=True,
       jvp="np.cumsum(np.where(np.isnan(a), 0, t_a), axis)")
defvjp(np.nancumprod, "a, axis=None, dtype=None, out=None",
       "np.where(np.isnan(a), 0, cumprod_vjp(g, ans, np.where(np.isnan(a), 1, a), axis))",
       numeric=True, complex_ok=True,
       jvp="cumprod_jvp(np.where(np.isnan(a), 0, t_a), np.where(np.isnan(a), 1, a), axis)")
