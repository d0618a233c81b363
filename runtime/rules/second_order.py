"""Reverse rules for VJP helpers that generated forward-mode code calls inside JVP terms
(the exponent's term of `x ** y`, np.power's base term; np.linalg.norm's slopes are in
tangents.py), so
that reverse mode differentiates `<name>_jvp` through them (hvp, hessian, grad of
grad). A product, linear in its first parameter (the cotangent the VJP is evaluated
at); the helpers are in second_order_helpers.py."""
from ..helpers import pow_exponent_vjp
from ..registry import DIAGONAL, LINEAR, SHAPE, ZERO, defvjp, nondiff
from .elementwise_helpers import cast_like, power_base_vjp, sinc_slope
from .forward_helpers import pad_tangent
from .linalg_more import _tensor_axes
from .norm_helpers import _l2_kind_axes, matrix_norm_vjp, vector_norm_vjp
from .prod_second_helpers import _layout
from .shape_helpers import cot_dtype
from .ufunc_methods_helpers import _renewed_at

defvjp(pow_exponent_vjp, "slopes_g, answer, x, y",
       "pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, 0)",
       "pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, 1)",
       "pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, 2)", SHAPE,
       jvp=(LINEAR, LINEAR, "pow_exponent_x_jvp(t_x, slopes_g, answer, x, y)", None))

# read by JVP helpers reverse mode differentiates from their source (polyval_slope,
# running_max_jvp, tensorsolve_jvp: transform/generated_calls.py BY_SOURCE): a dtype, the
# indices where a running extreme was renewed (piecewise constant), an axis order
nondiff(cot_dtype, why=SHAPE)
nondiff(_renewed_at, why=ZERO)
nondiff(_tensor_axes, why=SHAPE)
nondiff(_l2_kind_axes, why=SHAPE)      # (norm_vjp_jvp's reduced axes, or a refusal)
nondiff(_layout, why=SHAPE)            # (prod_vjp_jvp's axis order and kept shape)

# np.power's tangent in its base (DIAGONAL over power_base_vjp's template): elementwise in
# the slopes, x and y once broadcast, so its own tangent is DIAGONAL too (np.power's
# slopes for np.float_power's too: `power`, a function, is not passed on)
defvjp(power_base_vjp, "slopes_g, x, y, power=np.power",
       "unbroadcast(power_base_vjp(g, x, y), slopes_g)",
       "power_base_second(g, slopes_g, x, y, 1)", "power_base_second(g, slopes_g, x, y, 2)",
       None, jvp=DIAGONAL)

# np.sinc's slope s'(x) = (cos(pi x) - s(x)) / x in its tangent term: its own slope
# s''(x) = -pi^2 s(x) - 2 s'(x) / x, -pi^2 / 3 at 0 (real values; elementwise, so DIAGONAL)
defvjp(sinc_slope, "x", "g * np.where(x == 0, -math.pi ** 2 / 3, -math.pi ** 2 * np.sinc(x)"
       " - 2 * sinc_slope(x) / np.where(x == 0, 1, x))", jvp=DIAGONAL)

# np.linalg.vector_norm's and matrix_norm's slopes in their JVP terms: the 2-norm and
# Frobenius norm's g x / |x|, as np.linalg.norm's (tangents.py; other orders refused
# when they run: runtime/rules/norm_helpers.py)
for _norm, _kind in ((vector_norm_vjp, "vector"), (matrix_norm_vjp, "matrix")):
    _args = f"slopes_g, answer, x, ord, axis, keepdims, {{}}, {_kind!r}"
    defvjp(_norm, "slopes_g, answer, x, ord, axis, keepdims",
           *(f"norm_vjp_vjp(g, {_args.format(k)})" for k in range(3)), None, None, None,
           jvp=(LINEAR, f"norm_vjp_jvp(t_answer, {_args.format(1)})",
                f"norm_vjp_jvp(t_x, {_args.format(2)})", None, None, None))

# np.float_power's cotangents cast to x's dtype (its DIAGONAL tangent term): linear in
# the cotangent, cast back to its own dtype; x gives only a dtype
defvjp(cast_like, "cot, x", "cast_like(g, cot)", None, jvp=(LINEAR, None))

# np.pad's tangent (the tangent padded, constants held): linear in t, whose cotangent is
# np.pad's own (pad_vjp refuses the modes that are not copies: mean, linear_ramp)
defvjp(pad_tangent, "t, pad_width, mode, kwargs",
       "pad_vjp(g, t, pad_width, mode, zero_fill(kwargs))", None, None, None,
       jvp=(LINEAR, None, None, None))
