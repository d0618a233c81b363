"""Array constructors that carry their input's values, hence its cotangent.

np.array([x, y]) gets a list of cotangents, one slice of `g` per element
(nested lists nest; ndmin's extra axes are dropped); an array argument gets
`g` back in its own shape. astype casts the cotangent back to the input's
dtype, and a cast to an integer or bool dtype carries no cotangent.
"""
import numpy as np

from ..registry import defvjp

_AS = "a, dtype=None, order=None, *, device=None, copy=None, like=None"

defvjp(np.array,
       "object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, ndmax=0, like=None",
       "unstack_vjp(g, object)")
defvjp(np.asarray, _AS, "unstack_vjp(g, a)")
defvjp(np.asanyarray, _AS, "unstack_vjp(g, a)")
defvjp(np.ascontiguousarray, "a, dtype=None, *, like=None", "unstack_vjp(g, a)")
defvjp(np.asfortranarray, "a, dtype=None, *, like=None", "unstack_vjp(g, a)")
defvjp(np.copy, "a, order='K', subok=False", "unstack_vjp(g, a)")
defvjp(np.astype, "x, dtype, /, *, copy=True, device=None", "cast_back(g, x, dtype)", None)


def astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """`x.astype(dtype, ...)` as a function, so the method has a rule."""
    return np.asarray(x).astype(dtype, order=order, casting=casting, subok=subok, copy=copy)


defvjp(astype, "x, dtype, order='K', casting='unsafe', subok=True, copy=True",
       "cast_back(g, x, dtype)", None)
