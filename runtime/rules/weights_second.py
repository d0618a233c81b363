"""Second order through np.average's and the nan-reductions' JVP terms (session 38,
secorder): reverse rules for the normalised weights `average_weights` (a template's
factor in np.average's tangent) and for `count_valid` (nanmean's divisor, a count), so
hvp, hessian and grad of grad take np.average and np.nanmean."""
import numpy as np

from ..registry import ZERO, defvjp, nondiff, template_helper
from .reductions_helpers import _sum_to_weights, _weights_like, average_weights, count_valid


def _normalised(a, axis, weights):
    a = np.asarray(a)
    w = _weights_like(a, axis, weights)
    total = np.sum(w, axis=axis, keepdims=True)
    return w, total, w / total


@template_helper
def average_weights_vjp_w(g, a, axis, weights):
    """Cotangent of the weights in w / sum(w) (over `axis`): (g - sum(g n)) / sum(w)."""
    if weights is None:
        return None
    w, total, n = _normalised(a, axis, weights)
    g = np.asarray(g)
    cot = (g - np.sum(g * n, axis=axis, keepdims=True)) / total
    return _sum_to_weights(np.broadcast_to(cot, np.broadcast_shapes(cot.shape, w.shape)),
                           w, weights)


@template_helper
def average_weights_tangent(t, a, axis, weights):
    """Tangent of w / sum(w) along the weights' tangent t: (t - n sum(t)) / sum(w)."""
    if weights is None or t is None:
        return 0.0
    w, total, n = _normalised(a, axis, weights)
    dw = _weights_like(np.asarray(a), axis, t)
    return (dw - n * np.sum(dw, axis=axis, keepdims=True)) / total


# np.average's normalised weights (1/N without weights): a read for its shape only
defvjp(average_weights, "a, axis, weights", None, None,
       "average_weights_vjp_w(g, a, axis, weights)",
       jvp=(None, None, "average_weights_tangent(t_weights, a, axis, weights)"))
# how many values a nan-reduction combines: piecewise constant in a (which are NaN)
nondiff(count_valid, why=ZERO)
