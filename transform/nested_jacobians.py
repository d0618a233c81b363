"""Jacobians of what jacfwd, jacrev and hessian return: jacfwd(jacrev(f)),
jacrev(jacfwd(f)), jacfwd(hessian(f)) and the like, for one array (or float) argument
differentiated at each level and an array (or float) output.

    jacfwd(jacrev(f, wrt=0), wrt=1)(x, y)    shape out + x.shape + y.shape:
                                             d2 f / dx_i dy_j at [..., i, j]

Each level is a plain generated function, so the outer Jacobian is taken as of user
code: entry i of the inner Jacobian (its column along x's basis vector e_i) is
`f_tan(e_i, x, y)`, forward mode's "tangent" variant (forward_pipeline.compile_forward),
and the outer jacfwd or jacrev is taken of that; a Hessian's row i is
grad_x f_tan(e_i, x, y) (an hvp), a derivative function whose Jacobian both modes take
(transform/derivatives.py), as is grad(g)'s tangent function when f is grad(g). A
tuple `wrt` at either level is taken one argument at a time (entry [i][j]: inner
argument i, outer argument j). Other nestings (a Hessian's tuple `wrt`, containers,
has_aux, a bound method, a Jacobian of a Jacobian of a Jacobian) are refused at the
user's def."""
import functools
import inspect

import numpy as np

from . import derivatives
from .errors import TransformError
from .forward_api import _compiled
from .public.checks import mark_derivative
from .public.parameters import _collecting, _unwrap, _wrt_names

SPEC = "thunkgrad_jacobian"        # (kind, f, wrt, has_aux) on what jacfwd & co. return


def tag(wrapper, kind, fn, wrt, has_aux=False):
    """Record on a Jacobian or Hessian function what it differentiates."""
    setattr(wrapper, SPEC, (kind, fn, wrt, has_aux))
    return wrapper


def spec_of(fn):
    return getattr(fn, "__dict__", {}).get(SPEC)


def nested(entry, outer, fn, wrt, policy, grad):
    """`outer` (jacfwd or jacrev, named `entry`) of fn, a function jacfwd, jacrev or
    hessian returned; grad: api's (a Hessian's rows). A tuple `wrt` at either level
    (not a Hessian's) gives a tuple, entry [i][j] the one of inner argument i and outer
    argument j, as jacfwd and jacrev give out[i][j] for a tuple output and `wrt`."""
    kind, f, inner_wrt, has_aux = spec_of(fn)
    if _tuple(inner_wrt) and kind != "hessian" and not has_aux:
        singles = [tag(_stand_in(), kind, f, w) for w in inner_wrt]
        return _entries(f, [nested(entry, outer, one, wrt, policy, grad) for one in singles])
    if _tuple(wrt) and not _tuple(inner_wrt) and not has_aux:
        return _entries(f, [nested(entry, outer, fn, w, policy, grad) for w in wrt])
    plain = _plain(entry, fn, f, inner_wrt, wrt, has_aux)
    (first,), _ = _wrt_names(plain, inner_wrt)
    (second,), _ = _wrt_names(plain, wrt)
    rows = _rows(kind, f, plain, first, policy, grad)
    outer_fn = outer(rows, wrt=second, policy=policy)
    position = list(_params(plain)).index(first)

    @functools.wraps(fn)
    def jacobian_of_jacobian(*args):
        arg = args[position] if position < len(args) else None
        _check_argument(entry, first, arg)
        parts = [np.asarray(outer_fn(e, *args)) for e in one_hots(arg)]
        shape = np.shape(arg)
        lead = parts[0].ndim - _rank(args, plain, second) - (
            len(shape) if kind == "hessian" else 0)
        stacked = np.stack(parts, axis=lead)
        return stacked.reshape(stacked.shape[:lead] + shape + stacked.shape[lead + 1:])
    return mark_derivative(jacobian_of_jacobian, f)


def _tuple(wrt):
    return isinstance(wrt, (tuple, list))


def _stand_in():
    """A new function standing for the inner Jacobian along one of its `wrt` (only its
    tag is read)."""
    def inner_along_one(*args):
        raise AssertionError("a stand-in's tag is read, it is never called")
    return inner_along_one


def _entries(f, parts):
    """One function returning the tuple of the functions `parts` return."""
    def jacobian_entries(*args):
        return tuple(part(*args) for part in parts)
    return mark_derivative(jacobian_entries, f)


def _rows(kind, f, plain, first, policy, grad):
    """The function of (e, *args) giving the inner Jacobian's column along e (a
    Hessian's row): f's tangent variant, or for f = grad(g) its tangent function
    (derivatives.py), itself a derivative function."""
    if derivatives.spec_of(f) is not None:
        return derivatives.tangent_function(f, (first,))
    tangent = _compiled(plain, (first,), None, "tangent").rrule     # f_tan(e, *args)
    return tangent if kind != "hessian" else grad(tangent, wrt=first, policy=policy)


def _params(plain):
    return inspect.signature(plain).parameters


def _rank(args, plain, name):
    k = list(_params(plain)).index(name)
    return np.ndim(args[k]) if k < len(args) else 0


def _plain(entry, fn, f, inner_wrt, wrt, has_aux):
    """f's plain function (grad(g)'s g's), or the refusal at the user's def for the
    nestings not taken."""
    spec = derivatives.spec_of(f)
    plain = spec.fn if spec is not None else _unwrap(f)[0]
    other = derivatives.derivative_of(f) is not None and (spec is None or spec.has_aux)
    if has_aux or isinstance(inner_wrt, (tuple, list)) or isinstance(wrt, (tuple, list)) \
            or getattr(f, "__self__", None) is not None or _collecting(plain) or other \
            or getattr(plain, "__code__", None) is None:
        user = inspect.unwrap(f)
        code = getattr(user, "__code__", None)
        raise TransformError(
            f"{entry} of this Jacobian of {getattr(user, '__qualname__', user)!r} is not "
            "supported: nested Jacobians take arguments (one or a tuple) at each level, no "
            "has_aux, of a function or of grad(f)", filename=getattr(code, "co_filename", None),
            line=getattr(code, "co_firstlineno", None),
            hint="write the inner derivative with grad of a function of your own, or "
            "differentiate one argument at a time")
    return plain


def _check_argument(entry, name, arg):
    if isinstance(arg, (float, np.floating)) or \
            isinstance(arg, np.ndarray) and arg.dtype.kind == "f":
        return
    raise TransformError(f"{entry} of a Jacobian or Hessian: the argument {name!r} the "
                         f"inner one differentiates is a {type(arg).__name__}; nested "
                         "Jacobians take a float or a float array there",
                         hint="pass the array itself, or differentiate a function of "
                         "your own that takes it")


def one_hots(leaf):
    """One direction per entry of a float or float array: that entry 1, the rest 0 (a
    float's: 1.0). Also the Hessian's blocks' directions (hessian_blocks.py)."""
    if not isinstance(leaf, np.ndarray):
        yield type(leaf)(1.0)
        return
    for index in np.ndindex(leaf.shape):
        hot = np.zeros_like(leaf)
        hot[index] = 1
        yield hot
