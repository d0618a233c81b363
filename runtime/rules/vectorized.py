"""np.vectorize of a user function (transform/frontend/vectorize_calls.py writes the
call as runtime/vectorize_source.py's loop, which calls the function once per element,
compiled like a user's helper): `vectorized_result` gathers the calls' results into the
array np.vectorize returns, in the dtype of the first result, as NumPy does (an int
first result truncates the others: then no derivative, as in the primal). Each result's
cotangent is the output's at its place."""
import numpy as np

from ..registry import LINEAR, defvjp, template_helper


def vectorized_result(outs, shape, where):
    """The array np.vectorize builds from the results `outs` (one per element, in C
    order) for inputs broadcast to `shape`: its dtype is the first result's."""
    if len(outs) == 0:
        raise ValueError(f"{where}: cannot call `vectorize` on size 0 inputs unless "
                         "`otypes` is set")
    first = np.asarray(outs[0])
    if first.ndim != 0:
        raise TypeError(f"{where}: np.vectorize of a function returning a tuple or an "
                        "array is not supported; write the loop yourself")
    return np.reshape(np.asarray(outs, dtype=first.dtype), shape)


@template_helper(pure=True)
def vectorized_vjp(g, ans, outs):
    """Cotangent of vectorized_result: one entry per result, g at its place (none for
    an integer result, which has no derivative)."""
    if not np.issubdtype(np.asarray(ans).dtype, np.inexact):
        return [np.zeros(()) for _ in outs]
    flat = np.ravel(np.asarray(g))
    return [flat[k] for k in range(len(outs))]


defvjp(vectorized_result, "outs, shape, where", "vectorized_vjp(g, ans, outs)", None, None,
       name="np.vectorize", jvp=LINEAR)
