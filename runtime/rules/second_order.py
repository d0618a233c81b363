"""Reverse rules for VJP helpers that generated forward-mode code calls inside JVP terms
(the exponent's term of `x ** y`, np.power's base term; np.linalg.norm's slopes are in
tangents.py), so
that reverse mode differentiates `<name>_jvp` through them (hvp, hessian, grad of
grad). A product, linear in its first parameter (the cotangent the VJP is evaluated
at); the helpers are in second_order_helpers.py."""
from ..helpers import pow_exponent_vjp
from ..registry import DIAGONAL, LINEAR, SHAPE, ZERO, defvjp, nondiff
from .elementwise_helpers import power_base_vjp
from .linalg_more import _tensor_axes
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

# np.power's tangent in its base (DIAGONAL over power_base_vjp's template): elementwise in
# the slopes, x and y once broadcast, so its own tangent is DIAGONAL too (np.power's
# slopes for np.float_power's too: `power`, a function, is not passed on)
defvjp(power_base_vjp, "slopes_g, x, y, power=np.power",
       "unbroadcast(power_base_vjp(g, x, y), slopes_g)",
       "power_base_second(g, slopes_g, x, y, 1)", "power_base_second(g, slopes_g, x, y, 2)",
       None, jvp=DIAGONAL)
