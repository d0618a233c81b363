"""hvp and hessian: second derivatives of a scalar function, reverse-over-forward.

    hv = hvp(f, (x, y), (v,))          H v for the argument wrt=0, shaped like x
    H = hessian(f)(x, y)               x.shape + x.shape (a float for a float x)

Route (docs/forward.md "Hessian-vector products"): forward mode compiles `f_jvp(x, *,
x_dot)` from f's source (plain generated code whose source is registered), and reverse
mode differentiates that generated function like user code: H v is the gradient of
x -> <the tangent of f(x) along v>, taken by `vjp` of `f_jvp` with the cotangent
(0, 1). The Hessian is never formed by hvp; `hessian` stacks one hvp per basis vector.
Generated forward code that calls runtime helpers other than `zero_tangent` (a
broadcast tangent, a reduction's, a call into another user function, an attribute's)
is refused: reverse mode has no rules for them yet.
"""
import functools

import numpy as np

from runtime.forward import zero_tangent

from .api import adjoint_source, vjp
from .derivatives import as_function
from .generated_calls import refuse_helpers as _refuse_helpers
from .errors import TransformError
from .forward_api import _compiled, _like
from .public.checks import check_target, mark_derivative
from .public.parameters import _collecting, _full_signature, _params, _unwrap, _wrt_names


def hvp(fn, primals, tangents, *, wrt=0, policy=None):
    """The Hessian of scalar `fn` with respect to argument `wrt` (an index or a name),
    applied to `tangents[0]`, shaped like that argument; see the module text."""
    check_target(fn, "hvp")
    fn = as_function(fn, "hvp")
    plain = _plain(fn)
    if isinstance(wrt, (tuple, list)):
        raise TransformError("hvp: wrt must be one argument (an index or a name)",
                             hint="call hvp once per argument; mixed blocks are not "
                             "supported yet")
    (name,), _ = _wrt_names(plain, wrt)
    primals = tuple(primals)
    if not isinstance(tangents, (tuple, list)) or len(tangents) != 1:
        raise TypeError(f"hvp: tangents must be a tuple with one entry, the direction for "
                        f"{name!r}, got {type(tangents).__name__}")
    index = _params(plain).index(name)
    if index >= len(primals):
        raise TypeError(f"hvp: pass {name!r} among the primals (it has a default)")
    direction = _like(name, primals[index], tangents[0])
    rule = _compiled(plain, (name,), _full_signature(plain, primals, {}))
    _refuse_helpers(plain, rule.rrule)
    out, pullback = vjp(rule.rrule, *primals, wrt=index, policy=policy,
                        **{rule.tangent_params[name]: direction})
    _check_scalar(plain, out[0])
    (result,) = pullback((zero_tangent(out[0]), _one(out[1])))
    return result


def hessian(fn, wrt=0, *, policy=None):
    """A function returning the Hessian of scalar `fn` with respect to argument `wrt`:
    shape arg.shape + arg.shape for an array, a float for a float (one hvp per entry)."""
    check_target(fn, "hessian")
    fn = as_function(fn, "hessian")
    _plain(fn)

    @functools.wraps(fn)
    def hessian_fn(*args):
        (name,), _ = _wrt_names(_plain(fn), wrt)
        arg = args[_params(_plain(fn)).index(name)]
        if isinstance(arg, (float, np.floating)):
            return hvp(fn, args, (1.0,), wrt=wrt, policy=policy)
        if not isinstance(arg, np.ndarray) or arg.dtype.kind != "f":
            raise TransformError(f"hessian: argument {name!r} is a {type(arg).__name__}; "
                                 "hessian takes a float or a float array",
                                 hint="for a container, call hvp with one direction per "
                                 "entry (nested Hessian blocks are not supported yet)")
        columns = []
        for k in range(arg.size):
            basis = np.zeros(arg.size, arg.dtype)
            basis[k] = 1.0
            columns.append(np.ravel(hvp(fn, args, (basis.reshape(arg.shape),), wrt=wrt,
                                        policy=policy)))
        return np.stack(columns, axis=-1).reshape(arg.shape + arg.shape)
    return mark_derivative(hessian_fn, fn)


def _plain(fn):
    if getattr(fn, "__self__", None) is not None:
        raise TransformError("hvp/hessian of a bound method is not supported yet",
                             hint="pass a function taking the object's arrays")
    plain, _ = _unwrap(fn)
    if _collecting(plain):
        raise TransformError(f"hvp/hessian: {plain.__name__} takes *args or **kwargs",
                             hint="name the parameters")
    return plain


def _check_scalar(plain, out):
    if not isinstance(out, (float, np.floating)) and np.shape(out) != ():
        raise TypeError(f"hvp/hessian: {plain.__name__} must return a scalar, got shape "
                        f"{np.shape(out)}")


def _one(tangent):
    return np.ones_like(tangent) if isinstance(tangent, np.ndarray) else 1.0


def hvp_source(fn, wrt=0, *, policy=None):
    """What `thunkgrad dump --mode hvp` prints: the tangent code `<name>_jvp` (general)
    and the adjoint reverse mode runs over it, whose gradient along (0, 1) is H v."""
    plain = _plain(fn)
    names, _ = _wrt_names(plain, wrt)
    if len(names) != 1:
        raise TransformError("hvp: wrt must be one argument (an index or a name)",
                             hint="dump once per argument, e.g. --wrt x")
    (name,) = names
    rule = _compiled(plain, (name,), None)
    _refuse_helpers(plain, rule.rrule)
    return rule.source + "\n\n" + adjoint_source(rule.rrule, wrt=name, policy=policy)
