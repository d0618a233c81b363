"""Forward mode over forward mode's calls: the JVP of `call_jvp` (a call of the user's own
function in generated forward code), which forward mode meets when it compiles generated
code again (jvp or jacfwd of grad(grad(f)), grad(grad(grad(f))), f calling a helper).

    y, y_dot = call_jvp(f, {'x': x_dot}, W, x)
        is f_jvp(W, x, *, x_dot) (the callee's pair function, forward_api._compiled), so
        its tangent along (x_dot's tangent s, W's w, x's u) is forward mode over f_jvp:
    y_t, y_dot_t = call_jvp(f_jvp, {'W': w, 'x': u, 'x_dot': s}, W, x, x_dot=x_dot)[1]

Generated code calls `call_jvp_tangent(tangents, f, given, *args)` (the custom rule's JVP
function, transform/forward/custom.py); it has a reverse rule (reverse over the second
pair function, in transform/forward_reverse.py) and a JVP (this one again, a level
up), so hvp and grad of such code, and a further forward pass, work too. Only calls of
plain Python functions are taken: a derivative function or a NumPy function passed as a
value is refused (their tangents are not generated code)."""
import inspect
import types

from runtime.forward import zero_tangent

from .errors import TransformError
from .forward_api import DERIVATIVES, _compiled, call_jvp
from .frontend.varargs import named_callee
from .public.parameters import _full_signature


def call_jvp_tangent(tangents, fn, given, /, *args, **kwargs):
    """The tangent of call_jvp(fn, given, *args, **kwargs) = (out, out_dot) along
    `tangents` by position: (fn's, given's (a dict like it), each argument's)."""
    fn = named_callee(fn, len(args))
    t_given, t_args = _split(fn, tangents, len(args))
    return _tangent(fn, given, args, kwargs, t_given, _by_name(fn, t_args))


def _split(fn, tangents, n):
    tangents = list(tangents) + [None] * (n + 2 - len(tangents))
    if tangents[0] is not None or not _plain_function(fn):
        raise TransformError(
            f"forward mode over forward mode: the call of {getattr(fn, '__name__', fn)!r} "
            "in generated forward code is of a value forward mode cannot compile again "
            "(a derivative function, a NumPy function or a closure passed as a value)",
            hint="call a function defined with def by its name, or use jacrev/vjp for "
            "the outer derivative")
    return tangents[1], tangents[2:]


def _plain_function(fn):
    return isinstance(fn, types.FunctionType) and not (
        DERIVATIVES and DERIVATIVES["is_derivative"](fn)) and \
        (fn.__module__ or "").split(".")[0] not in ("runtime", "transform")


def _by_name(fn, values):
    """{position or name: value} or a list by position as {parameter: value}, None
    dropped."""
    params = list(inspect.signature(fn).parameters)
    items = enumerate(values) if isinstance(values, (list, tuple)) else (values or {}).items()
    return {params[k] if isinstance(k, int) else k: v for k, v in items if v is not None}


def _pair_function(fn, given, args, kwargs):
    """(fn's pair function for the tangents `given`, its tangent parameter names, its
    keyword arguments: kwargs and the given tangents), or None when none is given."""
    named = _by_name(fn, given)
    if not named:
        return None
    rule = _compiled(fn, tuple(named), _full_signature(fn, args, kwargs))
    names = rule.tangent_params
    return rule.rrule, names, {**kwargs, **{names[n]: t for n, t in named.items()}}


def _moved(fn, given, args, kwargs, t_given, t_named):
    """(function, {parameter: tangent}, its keyword arguments): the call whose value
    is call_jvp(fn, given, *args, **kwargs) and whose tangent is wanted."""
    pair = _pair_function(fn, given, args, kwargs)
    if pair is None:
        return None
    pair_fn, names, kw = pair
    return pair_fn, {**t_named, **{names[n]: t for n, t in _by_name(fn, t_given).items()}}, kw


def _tangent(fn, given, args, kwargs, t_given, t_named):
    moved = _moved(fn, given, args, kwargs, t_given, t_named)
    if moved is None:                   # no tangent given: out_dot is a zero, held
        out, out_tangent = call_jvp(fn, t_named, *args, **kwargs)
        return out_tangent, zero_tangent(out)
    pair_fn, tangents, kw = moved
    return call_jvp(pair_fn, tangents, *args, **kw)[1]


def call_jvp_tangent_jvp(tangents, t_tangents, fn, given, /, *args, **kwargs):
    """The tangent of call_jvp_tangent(t_tangents, fn, given, *args, **kwargs) along
    `tangents` by position (t_tangents', fn's, given's, each argument's): the same
    construction one level up, over the function whose tangent it is."""
    fn = named_callee(fn, len(args))
    tangents = list(tangents) + [None] * (len(args) + 3 - len(tangents))
    d_tangents, (d_given, d_args) = tangents[0], _split(fn, tangents[1:], len(args))
    t_given, t_args = _split(fn, t_tangents, len(args))
    d_t_given, d_t_args = (None, []) if d_tangents is None else _split(fn, d_tangents,
                                                                        len(args))
    moved = _moved(fn, given, args, kwargs, t_given, _by_name(fn, t_args))
    if moved is None:
        t_named = _by_name(fn, t_args)
        out = _tangent(fn, t_named, args, kwargs, _by_name(fn, d_t_args), _by_name(fn, d_args))
        return out[1], zero_tangent(out[0])
    pair_fn, inner, kw = moved
    names = _pair_function(fn, given, args, kwargs)[1]
    d_inner = {**_by_name(fn, d_t_args),
               **{names[n]: t for n, t in _by_name(fn, d_t_given).items()}}
    d_named = {**_by_name(fn, d_args), **{names[n]: t for n, t in _by_name(fn, d_given).items()}}
    return _tangent(pair_fn, inner, args, kw, d_inner, d_named)[1]
