"""Reductions and scans: the cotangent spreads back over the reduced axes.

Signatures list the keywords the rules honour; `where=` masks, `out=` and
`returned=True` (np.average) are not supported. Max and min split the
cotangent equally among tied extrema; prod and cumprod are exact at zeros;
std of a constant line divides by zero.

Norms cover every `ord` NumPy accepts. Ties of the vector inf/-inf norms and
of the matrix 1/-1/inf/-inf norms split equally; the 2-norm and Frobenius
norm of zero get a zero cotangent; vector ord 0 (a count) gets none; vector
ords p < 1 are undefined at zero entries; matrix ord 2/-2 need a simple
extreme singular value and 'nuc' distinct nonzero singular values.
"""
import numpy as np

from ..registry import LINEAR, REDUCTION, defvjp

_SUM = "a, axis=None, dtype=None, out=None, keepdims=False, initial=None"
_EXTREMUM = "a, axis=None, out=None, keepdims=False, initial=None"
_MOMENT = "a, axis=None, dtype=None, out=None, ddof=0, keepdims=False"

# full_reduction: a scalar when axis=None and keepdims=False
defvjp(np.sum, _SUM, "unreduce(g, a, axis, keepdims)", full_reduction=True, numeric=True,
       complex_ok=True, jvp="np.sum(t_a, axis, dtype, None, keepdims)")
defvjp(np.mean, "a, axis=None, dtype=None, out=None, keepdims=False",
       "unreduce(g / reduction_size(a, axis), a, axis, keepdims)", full_reduction=True,
       numeric=True, complex_ok=True, jvp=LINEAR)
defvjp(np.prod, _SUM, "prod_vjp(g, a, axis, keepdims) * initial_factor(initial)",
       full_reduction=True, complex_ok=True,
       jvp=REDUCTION)
# the tangent sums the tangents of the tied extrema, shared: the shares are plain NumPy
# and nondiff, so reverse mode differentiates the tangent (hvp) with its own rules
EXTREMUM_JVP = "np.sum(t_{0} * extremum_share(np.{1}, {0}, axis, initial), axis, None, " \
    "None, keepdims)"
for _fn, _kind in ((np.max, "max"), (np.amax, "max"), (np.min, "min"), (np.amin, "min"),
                   (np.nanmax, "nanmax"), (np.nanmin, "nanmin")):
    defvjp(_fn, _EXTREMUM, "extremum_vjp(g, ans, a, axis, keepdims)", full_reduction=True,
           complex_ok=True,
           jvp=EXTREMUM_JVP.format("a", _kind))
defvjp(np.ptp, "a, axis=None, out=None, keepdims=False",
       "extremum_vjp(g, np.max(a, axis, keepdims=keepdims), a, axis, keepdims)"
       " - extremum_vjp(g, np.min(a, axis, keepdims=keepdims), a, axis, keepdims)",
       full_reduction=True,
       jvp=REDUCTION)
# var and std of complex values are those of |a - mean|: the deviation is conjugated, and
# their output is real, so is its cotangent (np.dot or np.concatenate with a complex value
# hands back a complex one: docs/complex.md)
defvjp(np.var, _MOMENT,
       "unreduce(np.real(g), a, axis, keepdims) * 2 * deviation(a, axis)"
       " / (reduction_size(a, axis) - ddof)", full_reduction=True, complex_ok=True,
       jvp=REDUCTION)
defvjp(np.std, _MOMENT,
       "unreduce(as_cotangent(np.real(g), a) / ans, a, axis, keepdims) * deviation(a, axis)"
       " / (reduction_size(a, axis) - ddof)", full_reduction=True, complex_ok=True,
       jvp=REDUCTION)
defvjp(np.average, "a, axis=None, weights=None, returned=False, *, keepdims=False",
       "unreduce(g, a, axis, keepdims) * average_weights(a, axis, weights)", None,
       "average_weights_vjp(g, ans, a, axis, weights, keepdims)", complex_ok=True,
       jvp=(REDUCTION, None,
            "average_weights_jvp(t_weights, ans, a, axis, weights, keepdims)"))
defvjp(np.nansum, _SUM, "np.where(np.isnan(a), 0, unreduce(g, a, axis, keepdims))",
       full_reduction=True, complex_ok=True,
       jvp="np.nansum(np.where(np.isnan(a), 0, t_a), axis, dtype, None, keepdims)")
defvjp(np.nanmean, "a, axis=None, dtype=None, out=None, keepdims=False",
       "np.where(np.isnan(a), 0, unreduce(g, a, axis, keepdims) / count_valid(a, axis))",
       full_reduction=True, complex_ok=True,
       jvp=REDUCTION)

# Scans
defvjp(np.cumsum, "a, axis=None, dtype=None, out=None", "cumsum_vjp(g, a, axis)", complex_ok=True,
       jvp=LINEAR)
defvjp(np.cumprod, "a, axis=None, dtype=None, out=None", "cumprod_vjp(g, ans, a, axis)",
       complex_ok=True, jvp="cumprod_jvp(t_a, a, axis)")
if hasattr(np, "cumulative_sum"):                                         # NumPy 2.1+
    _SCAN = "x, /, *, axis=None, dtype=None, out=None, include_initial=False"
    defvjp(np.cumulative_sum, _SCAN, "cumsum_vjp(g, x, axis, include_initial)", complex_ok=True,
           jvp=LINEAR)
    defvjp(np.cumulative_prod, _SCAN, "cumprod_vjp(g, ans, x, axis, include_initial)",
           complex_ok=True, jvp="cumprod_jvp(t_x, x, axis, include_initial)")

# Norms and traces
defvjp(np.linalg.norm, "x, ord=None, axis=None, keepdims=False",
       "norm_vjp(g, ans, x, ord, axis, keepdims)", full_reduction=True, numeric=True,
       complex_ok=True,
       jvp=REDUCTION)
if hasattr(np.linalg, "vector_norm"):                                     # NumPy 2.0+
    defvjp(np.linalg.vector_norm, "x, /, *, axis=None, keepdims=False, ord=2",
           "vector_norm_vjp(g, ans, x, ord, axis, keepdims)",
           jvp=REDUCTION)
    defvjp(np.linalg.matrix_norm, "x, /, *, keepdims=False, ord='fro'",
           "matrix_norm_vjp(g, ans, x, ord, (-2, -1), keepdims)",        # no `axis`: explicit
           jvp="reduce_jvp(matrix_norm_vjp(np.ones_like(ans), ans, x, ord, (-2, -1), keepdims), "
               "t_x, (-2, -1), keepdims)")
defvjp(np.trace, "a, offset=0, axis1=0, axis2=1, dtype=None, out=None",
       "trace_vjp(g, a, offset, axis1, axis2)", complex_ok=True, jvp=LINEAR)
if hasattr(np.linalg, "trace"):                                           # NumPy 2.0+
    defvjp(np.linalg.trace, "x, /, *, offset=0, dtype=None", "trace_vjp(g, x, offset, -2, -1)",
           complex_ok=True, jvp=LINEAR)
