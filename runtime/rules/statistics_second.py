"""Second order through np.cov's and np.corrcoef's JVP terms (session 39, secorder2): a
reverse rule for cov_jvp, so hvp, hessian and grad of grad take np.cov and np.corrcoef
(corrcoef_jvp, in plain NumPy around np.cov and cov_jvp, is differentiated from its
source: transform/generated_calls.py BY_SOURCE).

np.cov is quadratic in its data (m and y stacked, the weights held), so cov_jvp(t, m, y)
is linear in t, its transpose np.cov's cotangent at (m, y) (cov_vjp), and affine in
(m, y): its cotangent there is the difference of cov_vjp at the operand moved by +s t
and -s t, over 2 s, exactly (s puts t on the operand's scale, against rounding, as
cov_jvp's own difference does). Its tangent in m or y is, for the same reason, the
difference of cov_jvp at m (or y) moved by the tangent and against it, halved.
"""
import numpy as np

from ..registry import LINEAR, NONE, defvjp, template_helper
from .statistics_helpers import cov_jvp, cov_vjp


@template_helper(pure=True)
def cov_jvp_vjp(g, t, m, y, rowvar, bias, ddof, fweights, aweights, operand, part):
    """Cotangent of m (part 0) or y (part 1) in cov_jvp(t, m, y, ..., operand)."""
    value = np.asarray((m, y)[operand], dtype=float)
    s = (np.linalg.norm(value) or 1.0) / (np.linalg.norm(t) or 1.0)

    def at(step):
        parts = [m, y]
        parts[operand] = value + step * np.asarray(t)
        return cov_vjp(g, *parts, rowvar, bias, ddof, fweights, aweights, part)
    return (at(s) - at(-s)) / (2 * s)


_REST = "rowvar, bias, ddof, fweights, aweights, operand"
defvjp(cov_jvp, f"t, m, y, {_REST}",
       f"cov_vjp(g, m, y, rowvar, bias, ddof, fweights, aweights, operand)",
       f"cov_jvp_vjp(g, t, m, y, {_REST}, 0)", f"cov_jvp_vjp(g, t, m, y, {_REST}, 1)",
       None, None, None, NONE, NONE, None, numeric=True,
       jvp=(LINEAR, f"(cov_jvp(t, m + t_m, y, {_REST}) - cov_jvp(t, m - t_m, y, {_REST})) / 2",
            f"(cov_jvp(t, m, y + t_y, {_REST}) - cov_jvp(t, m, y - t_y, {_REST})) / 2"))
