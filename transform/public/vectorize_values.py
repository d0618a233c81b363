"""An np.vectorize held in a value (`apply(vf, x)` with `def apply(fn, x): return fn(x)`):
the call the source cannot show is rewritten when it runs as frontend/vectorize_calls.py
rewrites one it shows, into the loop np.vectorize runs (runtime/vectorize_source.py),
compiled like a user's helper; NumPy's own `vectorize.__call__` is never compiled.

    fn(x, a)   (fn an np.vectorize of f)   ->  vectorized_2(f, "file.py:9", x, a)

Reverse mode only (grad, vjp, jacrev); forward mode (jvp, jacfwd, hvp's routes through
it) refuses np.vectorize, held in a value or not, saying so."""
import numpy as np

from runtime.vectorize_source import HELPERS
from ..errors import TransformError

HINT = "call np.vectorize(f) on one to three arrays, positionally, without otypes=, " \
       "excluded=, signature= or cache=, or write the loop: " \
       "`np.array([f(t) for t in np.ravel(x)]).reshape(np.shape(x))`"


def vectorized_value(fn, args, kwargs, site, rule):
    """(out, pullback) of `fn(*args)`, fn an np.vectorize, through its loop compiled
    with `rule(helper, varied)`; fn itself gets no cotangent."""
    if kwargs or not 1 <= len(args) <= len(HELPERS) or fn.otypes is not None or \
            fn.excluded or fn.signature is not None or fn.cache:
        raise TransformError("this call of an np.vectorize held in a value is not "
                             "supported", hint=HINT)
    where = getattr(site, "location", "") or "np.vectorize"
    out, pullback = rule(HELPERS[len(args) - 1], None)(fn.pyfunc, where, *args)
    return out, lambda g: (None,) + tuple(pullback(g))[2:]


def refuse_forward(fn):
    """Forward mode's refusal of an np.vectorize (or the loop the compiler wrote for a
    call of one) called with arguments carrying tangents."""
    if isinstance(fn, np.vectorize) or fn in HELPERS:
        raise TransformError("forward mode (jvp, jacfwd): a function made by np.vectorize, "
                             "called with arguments that carry a derivative, is not "
                             "supported yet", hint="use grad, vjp or jacrev, or write the "
                             "loop: `np.array([f(t) for t in np.ravel(x)]).reshape("
                             "np.shape(x))`")
