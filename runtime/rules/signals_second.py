"""Second order through np.interp's JVP term in x (session 39, secorder2): a reverse rule
for interp_x_vjp (g times the slope of the segment each x lies in), so hvp, hessian and
grad of grad take np.interp in x.

interp_x_vjp(slopes_g, x, xp, fp) = slopes_g (fp[j+1] - fp[j]) / (xp[j+1] - xp[j]) inside
[xp[0], xp[-1]), 0 outside: linear in slopes_g and in fp, and constant in x (the segment
j moves in steps; at a knot np.interp has no second derivative, the right-hand segment's
zero is taken as its first derivative's slope is). The knots xp have no rule (np.interp
refuses a differentiated xp), nor has period= (refused when the rule runs)."""
import numpy as np

from ..registry import LINEAR, NONE, defvjp, template_helper
from .shape_helpers import cot_dtype
from .signals_helpers import _checked, _segment, interp_x_vjp


@template_helper(pure=True)
def interp_x_vjp_fp(g, slopes_g, x, xp, fp, period):
    """Cotangent of fp in interp_x_vjp: each x's g slopes_g / (xp[j+1] - xp[j]) added
    to fp[j + 1] and taken from fp[j], for the x inside the knots."""
    xp = _checked(xp, period)
    j, inside = _segment(x, xp)
    weight = np.where(inside, np.asarray(g) * slopes_g / np.diff(xp)[j], 0)
    j, weight = np.broadcast_arrays(j, weight)
    cot = np.zeros(len(xp), dtype=cot_dtype(weight, fp))
    np.add.at(cot, j + 1, weight)
    np.subtract.at(cot, j, weight)
    return cot


# (a slopes_g broadcast against x in the DIAGONAL term: its cotangent summed back)
defvjp(interp_x_vjp, "slopes_g, x, xp, fp, period",
       "unbroadcast(interp_x_vjp(g, x, xp, fp, period), slopes_g)", None, NONE,
       "interp_x_vjp_fp(g, slopes_g, x, xp, fp, period)", None, numeric=True, jvp=LINEAR)
