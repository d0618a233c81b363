"""Array constructors that carry their input's values, hence its cotangent,
and arrays filled from values (np.full, np.linspace, np.geomspace, np.logspace).

np.array([x, y]) gets a list of cotangents, one slice of `g` per element
(nested lists nest; ndmin's extra axes are dropped); an array argument gets
`g` back in its own shape. astype casts the cotangent back to the input's
dtype, and a cast to an integer or bool dtype carries no cotangent.
"""
import numpy as np

from .. import registry
from ..registry import JOINT, LINEAR, defvjp

_AS = "a, dtype=None, order=None, *, device=None, copy=None, like=None"

defvjp(np.array,
       "object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, ndmax=0, like=None",
       "unstack_vjp(g, object)", fresh=True,
       complex_ok=True, jvp=LINEAR)      # (copy=False: the alias analysis checks)
defvjp(np.asarray, _AS, "unstack_vjp(g, a)", view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.asanyarray, _AS, "unstack_vjp(g, a)", view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.ascontiguousarray, "a, dtype=None, *, like=None", "unstack_vjp(g, a)", view=True,
       complex_ok=True, jvp=LINEAR)
defvjp(np.asfortranarray, "a, dtype=None, *, like=None", "unstack_vjp(g, a)", view=True,
       complex_ok=True, jvp=LINEAR)
defvjp(np.copy, "a, order='K', subok=False", "unstack_vjp(g, a)", fresh=True, complex_ok=True,
       jvp=LINEAR)
if hasattr(np, "astype"):                                                 # NumPy 2.1+
    defvjp(np.astype, "x, dtype, /, *, copy=True, device=None", "cast_back(g, x, dtype)", None,
           complex_ok=True, jvp="cast_jvp(t_x, ans, dtype)",
           complex_jvp=True)


def astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """`x.astype(dtype, ...)` as a function, so the method has a rule."""
    return np.asarray(x).astype(dtype, order=order, casting=casting, subok=subok, copy=copy)


defvjp(astype, "x, dtype, order='K', casting='unsafe', subok=True, copy=True",
       "cast_back(g, x, dtype)", None, complex_ok=True, jvp="cast_jvp(t_x, ans, dtype)",
       complex_jvp=True)
# an integer cast's cotangent is None (cast_back): the generated code guards its use
# (`dv + dt * 5.0` crashed, session 39's review), as a record field's never read
for _cast in (astype, getattr(np, "astype", None)):
    if _cast is not None:
        registry.lookup(_cast).maybe_none = True

# NumPy's float types called as functions: np.float64(x) is float(x) for a number (a NumPy
# scalar of that type) and x itself or a cast copy for an array; the cotangent goes back
# in x's own type (a float32 result of a float64 x gives a float64 cotangent).
for _float_type in (np.float64, np.float32):
    defvjp(_float_type, "x=0, /", "float_type_vjp(g, x)", elementwise=True, view=True,
           jvp=LINEAR)


# Arrays filled from values: the fill value and the endpoints carry the derivative
# (the shape, count and dtype arguments are integers: zero).
defvjp(np.full, "shape, fill_value, dtype=None, order='C', *, device=None, like=None",
       None, "fill_vjp(g, ans, fill_value)", None, None, fresh=True, complex_ok=True, jvp=LINEAR)
defvjp(np.full_like, "a, fill_value, dtype=None, order='K', subok=True, shape=None, *, "
       "device=None", None, "fill_vjp(g, ans, fill_value)", None, None, None, None, fresh=True,
       complex_ok=True, jvp=LINEAR)
defvjp(np.linspace, "start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, "
       "*, device=None",
       "linspace_vjp(g, ans, start, stop, num, endpoint, retstep, axis, 0)",
       "linspace_vjp(g, ans, start, stop, num, endpoint, retstep, axis, 1)",
       None, None, None, None, None, fresh=True, complex_ok=True, jvp=JOINT)
defvjp(np.geomspace, "start, stop, num=50, endpoint=True, dtype=None, axis=0",
       "geomspace_vjp(g, ans, start, stop, num, endpoint, axis, 0)",
       "geomspace_vjp(g, ans, start, stop, num, endpoint, axis, 1)", None, None, None, None,
       complex_ok=True,
       jvp=("ans * np.linspace(t_start / start, 0 * np.asarray(stop), num, endpoint, axis=axis)",
            "ans * np.linspace(0 * np.asarray(start), t_stop / stop, num, endpoint, axis=axis)"))
defvjp(np.logspace, "start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0",
       "logspace_vjp(g, ans, start, stop, num, endpoint, base, axis, 0)",
       "logspace_vjp(g, ans, start, stop, num, endpoint, base, axis, 1)", None, None,
       "logspace_vjp(g, ans, start, stop, num, endpoint, base, axis, 2)", None, None,
       complex_ok=True,
       jvp=("ans * math.log(base) * np.linspace(t_start, 0 * np.asarray(stop), num, endpoint, "
            "axis=axis)",
            "ans * math.log(base) * np.linspace(0 * np.asarray(start), t_stop, num, endpoint, "
            "axis=axis)", None, None,
            "ans * np.linspace(start, stop, num, endpoint, axis=axis) * t_base / base"))
