"""Reverse rules for VJP helpers that generated forward-mode code calls inside JVP terms
(the exponent's term of `x ** y`; np.linalg.norm's slopes are in tangents.py), so
that reverse mode differentiates `<name>_jvp` through them (hvp, hessian, grad of
grad). A product, linear in its first parameter (the cotangent the VJP is evaluated
at); the helpers are in second_order_helpers.py."""
from ..helpers import pow_exponent_vjp
from ..registry import LINEAR, SHAPE, defvjp

defvjp(pow_exponent_vjp, "slopes_g, answer, x, y",
       "pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, 0)",
       "pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, 1)",
       "pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, 2)", SHAPE,
       jvp=(LINEAR, LINEAR, "pow_exponent_x_jvp(t_x, slopes_g, answer, x, y)", None))
