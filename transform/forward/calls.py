"""A call of the user's own function in forward mode: the callee's `<name>_jvp`,
compiled when the call first runs (for the parameters whose arguments carry a
tangent), returns the value and its tangent together:

    h = layer(W, x, scale=2.0)   ->   h, h_dot = call_jvp(layer, {'x': x_dot}, W, x, scale=2.0)
    y = f(x)   (f a value)       ->   y, y_dot = call_jvp(f, {0: x_dot}, x)

`call_jvp` is the public face's (forward_api.call_jvp), passed in here as the compile
cache is passed to reverse mode's run-time rules: this stage does not import it.
"""
import inspect

import gast
import numpy as np

from runtime import registry
from runtime.rules.methods import RUN_TIME_METHODS

from ..ir.nodes import load, located, store
from ..ir.templates import clone
from ..ir.vocabulary import role_of
from ..frontend.varargs import named_callee
from .methods import user_method
from .refusals import refusal_when_run, refuse

PROVIDED = {}
OWN = "<called value>"  # call_jvp's key for the called value's own tangent (a closure's)


def provide(call_jvp, call_jvp_keywords):
    PROVIDED["call_jvp"] = call_jvp
    PROVIDED["call_jvp_keywords"] = call_jvp_keywords


def provide_spread(spread_jvp, spread_keywords_jvp):
    """spread_jvp(f, xs, xs_dot): `f(*xs)`; spread_keywords_jvp(f, args, params,
    args_dot, params_dot): `f(*args, **params)` (transform/spread_jvp.py)."""
    PROVIDED["spread_jvp"] = spread_jvp
    PROVIDED["spread_keywords_jvp"] = spread_keywords_jvp


def provide_tangents(tangent_function):
    """tangent_function(fn, names): for a derivative function fn (grad(f)) and the
    parameters whose arguments carry a tangent, the function giving its tangent
    (transform/derivatives.py), else None."""
    PROVIDED["tangent_function"] = tangent_function


def call_statement(fwd, s, prim, target):
    """`target, target_dot = call_jvp(f, {param: tangent}, *the call's arguments)`."""
    fn, call = prim.fn, s.value
    if fn is None and getattr(prim, "method", None) == "__call__":
        return _dynamic(fwd, s, prim, target)
    if fn is None and getattr(prim, "method", None) is not None and \
            isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute):
        return _container_method(fwd, s, prim, target)
    if inspect.isfunction(fn) and isinstance(call, gast.Call):      # `*args`: named
        fn = named_callee(fn, len(call.args))     # for the values it gets (call_jvp too)
    if fn is None or not inspect.isfunction(fn) or not isinstance(call, gast.Call) or \
            _collects(fn) or any(fwd.is_active(a) for _, a in prim.operands) or \
            any(isinstance(a, gast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        refuse(fwd, prim, f"a call of `{prim.label}` (a method, a callable value, a "
               "function taking *args, or a differentiated value into **kwargs)",
               "forward mode compiles calls of plain functions with named parameters: "
               "call one, or use vjp/jacrev")
    params = [p.name for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    tangents = {params[k]: atom for k, atom in enumerate(prim.args) if fwd.is_active(atom)}
    return _statement(fwd, s, target, tangents, call=_positional(fn, call))


def _collects(fn):
    """Whether fn's code takes `*args` not named for this call (frontend/varargs.py's
    stand-in names them). A method's stand-in returning the object it changes
    (frontend/method_writes.py) is judged by the method it is compiled from."""
    named = getattr(fn, "thunkgrad_varargs", None)
    if "thunkgrad_parse_as" in getattr(fn, "__dict__", {}):
        fn = fn.thunkgrad_parse_as[0]
    return bool(fn.__code__.co_flags & inspect.CO_VARARGS) and named is None


def _positional(fn, call):
    """The call with the keywords that continue its positional arguments passed by
    position (`_pair(r, k=k, r0=1.2)` -> `_pair(r, k, 1.2)`): call_jvp's reverse rule
    (hvp, grad of grad) gives cotangents by position only."""
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = [p.name for p in inspect.signature(fn).parameters.values() if p.kind in kinds]
    given = {k.arg: k.value for k in call.keywords}
    args = list(call.args)
    while len(args) < len(params) and params[len(args)] in given:
        args.append(given.pop(params[len(args)]))
    keywords = [k for k in call.keywords if k.arg in given]
    return gast.Call(func=call.func, args=args, keywords=keywords)


def _dynamic(fwd, s, prim, target):
    """`f(x)` where f is a value (a function passed in): the tangents keyed by position,
    named when the call runs (call_jvp refuses a value that is not a plain function)."""
    func, args, call = prim.args[0], prim.args[1:], s.value
    if role_of(func) == "spread_call" or role_of(func) == "spread_keywords" and \
            not call.keywords:
        return _spread(fwd, s, prim, target)
    if role_of(func) is not None:           # spread_keywords(f, args, params): f(**params)
        refuse(fwd, prim, "a call spread from a sequence or dict (`f(*xs)`, `f(**params)`) "
               "of a length the source does not fix", "pass the arguments by name, or use "
               "vjp/jacrev")
    if any(fwd.is_active(a) for _, a in prim.operands) or \
            not isinstance(call, gast.Call) or \
            any(isinstance(a, gast.Starred) for a in call.args):
        refuse(fwd, prim, "a call of a function value with a differentiated value passed "
               "by keyword or spread", "pass it by position, or use vjp/jacrev")
    tangents = {k: a for k, a in enumerate(args) if fwd.is_active(a)}
    if fwd.is_active(func):     # a closure record or partial: its own tangent too
        tangents = {OWN: func, **tangents}
    return _statement(fwd, s, target, tangents)


def _spread(fwd, s, prim, target):
    """`spread_call(f, xs)` (f(*xs), the length of xs known when it runs), and
    `spread_keywords(f, args, params)` (f(*args, **params), params's keys known then):

        y, y_dot = spread_jvp(f, xs, xs_dot, k=v)         (k=v: no tangent)
        y, y_dot = spread_keywords_jvp(f, args, params, None, params_dot)
    """
    helper = "spread_jvp" if role_of(prim.args[0]) == "spread_call" else \
        "spread_keywords_jvp"
    fn, *values = prim.args[1:]
    if fwd.is_active(fn) or any(fwd.is_active(a) for _, a in prim.operands):
        refuse(fwd, prim, "a call spread from a sequence or dict (`f(*xs)`, `f(**params)`)"
               " of a value that carries a derivative itself, or with one passed by "
               "keyword", "call a function defined with def, or use vjp/jacrev")
    name = _global(fwd, helper, PROVIDED[helper])
    dots = [load(fwd.dot(v.id)) if fwd.is_active(v) else gast.Constant(value=None, kind=None)
            for v in values]
    value = gast.Call(func=load(name), args=[load(fn.id)] + [load(v.id) for v in values] +
                      dots, keywords=clone(s.value.keywords))
    pair = gast.Tuple(elts=[store(target), store(fwd.dot(target))], ctx=gast.Store())
    return located(gast.Assign(targets=[pair], value=value, type_comment=None), s)


def unspread(s, prim):
    """`y = spread_call(f, xs)` without a tangent: `y = f(*xs)` again (and
    spread_keywords's `f(*args, **params)`), which reverse mode over this code (hvp)
    spreads by its own route; generated code calls no runtime helper it has no rule for."""
    call = s.value
    role = role_of(prim.args[0]) if prim is not None and prim.args and \
        getattr(prim, "method", None) == "__call__" else None
    if role == "spread_call" and len(call.args) == 2:
        s.value = gast.Call(func=call.args[0], args=[gast.Starred(value=call.args[1],
                                                                  ctx=gast.Load())],
                            keywords=call.keywords)
    elif role == "spread_keywords" and len(call.args) == 3 and not call.keywords:
        s.value = gast.Call(func=call.args[0], args=[gast.Starred(value=call.args[1],
                                                                  ctx=gast.Load())],
                            keywords=[gast.keyword(arg=None, value=call.args[2])])
    return s


def listed_generator(fwd, s, prim):
    """`t = gen(X)` without a tangent, gen a generator function: `t = list(gen(X))`.
    The caller consumes it whole (frontend/generators.py checked), so the items are
    the same; reverse mode over this code (hvp) would refuse a generator kept in `t`."""
    if prim is not None and prim.kind == "call" and inspect.isgeneratorfunction(prim.fn) \
            and isinstance(s.value, gast.Call):
        s.value = gast.Call(func=load(_global(fwd, "list", list)), args=[s.value],
                            keywords=[])
    return s


def _container_method(fwd, s, prim, target, receiver=None):
    """`d.get(k)` (a method the source does not resolve): the receiver's class's method
    run through its rule's JVP when the code runs, for dicts, lists and tuples
    (`container_method`; another receiver is refused there):

        v, v_dot = call_jvp(container_method(d, 'get', refusal, 2), {0: d_dot}, d, k)

    `receiver`: a called value carrying a tangent (`layer(h)`: its `__call__`)."""
    call = s.value
    if any(fwd.is_active(a) for _, a in prim.operands) or \
            any(isinstance(a, gast.Starred) for a in call.args):
        refuse(fwd, prim, f"a call of `{prim.label}` with a differentiated value passed by "
               "keyword or spread", "pass it by position, or use vjp/jacrev")
    method, made = dispatched(fwd, s, prim, receiver)
    tangents = {k: a for k, a in enumerate(prim.args) if fwd.is_active(a)}
    return _statement(fwd, located(gast.Expr(value=made), s), target, tangents,
                      callee=method)


def dispatched(fwd, s, prim, receiver=None):
    """(`container_method(obj, 'name', refusal, count)`, that called with the receiver
    first and the call's arguments): `obj.name(...)` dispatched when the code runs."""
    call = s.value
    what = f"`{prim.label}()` of an object that is not a dict, list or tuple, nor a " \
        "user object whose class defines the method in Python (a builtin type's method, " \
        "a closure stored on the object)" if receiver is None \
        else "a call of a value that carries a derivative itself that is no user object " \
        "with a `__call__` method in Python (a closure over differentiated values, a " \
        "bound method)"
    receiver = receiver or call.func.value
    refusal = refusal_when_run(     # raised when the code runs, if the receiver is no container
        fwd, prim, what, "call a function defined with def at module level or a method "
        "defined with def in your class, or use vjp/jacrev")
    method = gast.Call(func=load(_global(fwd, "container_method", container_method)),
                       args=[clone(receiver), gast.Constant(value=prim.method, kind=None),
                             load(refusal), gast.Constant(value=len(prim.args), kind=None)],
                       keywords=[])
    made = gast.Call(func=method, args=[clone(receiver)] + clone(call.args),
                     keywords=clone(call.keywords))
    return method, made


# ndarray methods whose NumPy function takes the receiver first, then the method's own
# parameters in the method's order (`a.max(axis, out, keepdims)`, `np.max(a, axis, ...)`,
# `a.take(indices, axis)`, `np.take(a, indices, axis)`); not `reshape` or `transpose`
# (the method takes its shape spread), `sort` (the method sorts in place) or `astype`
_REDUCTIONS = frozenset(("max", "min", "sum", "mean", "prod", "std", "var"))
_RECEIVER_FIRST = _REDUCTIONS | frozenset((
    "take", "dot", "clip", "repeat", "cumsum", "cumprod", "trace", "round", "copy",
    "conj", "conjugate", "squeeze", "swapaxes", "diagonal", "ravel", "compress"))


def container_method(obj, name, refusal, count=None):
    """`type(obj).name` for a dict, list or tuple receiver (its rule gives the JVP), an
    array's or NumPy number's `.item()`/`.tolist()` (their rules'; session 34), or a
    method with a rule with tangent terms (a frozen distribution's
    `stats.norm(mu, s).pdf`), an array's reduction (`t.max(axis=0)` of a value the
    source does not show is an array: the flat gradient's; `xs[0].take(idx)`, forward
    mode's, with its function's JVP); another object's method is
    refused (the TransformError at the user's line, made when compiling): forward mode
    does not compile it yet."""
    method = getattr(type(obj), name, None)
    if type(obj) in (dict, list, tuple):
        return method
    if isinstance(obj, (np.ndarray, np.generic)) and name in RUN_TIME_METHODS:
        return RUN_TIME_METHODS[name]
    if isinstance(obj, (np.ndarray, np.generic)) and name in _RECEIVER_FIRST and \
            registry.method_function(name) is not None:
        return registry.method_function(name)      # np.max(a, axis, ...): the same order
    rule = registry.lookup(method) if method is not None else None
    if rule is not None and rule.kind == "template" and rule.has_jvp:
        return method
    fn = user_method(obj, name, count)
    if fn is None:
        raise refusal
    return fn


def _keywords_carrying(fwd, keywords):
    """Whether a keyword argument (none spread with `**`) carries a tangent."""
    return all(k.arg is not None for k in keywords) and \
        any(isinstance(k.value, gast.Name) and fwd.is_active(k.value) for k in keywords)


def _global(fwd, name, value):
    if name not in fwd.builtins:
        fwd.builtins[name] = fwd.names.reserve(name)
        fwd.ctx.globals[fwd.builtins[name]] = value
    return fwd.builtins[name]


def _statement(fwd, s, target, tangents, callee=None, call=None):
    call = call or s.value
    keys = [gast.Constant(value=p, kind=None) for p in tangents]
    given = gast.Dict(keys=keys, values=[load(fwd.dot(a.id)) for a in tangents.values()])
    head, keywords = [callee or clone(call.func), given], clone(call.keywords)
    helper = "call_jvp"
    if _keywords_carrying(fwd, keywords):   # `call_jvp_keywords(f, {..}, {'y': t2}, x)`
        helper = "call_jvp_keywords"         # (hvp gives a dict argument cotangents)
        head.append(gast.Dict(keys=[gast.Constant(value=k.arg, kind=None) for k in keywords],
                              values=[k.value for k in keywords]))
        keywords = []
    value = gast.Call(func=load(_global(fwd, helper, PROVIDED[helper])),
                      args=head + clone(call.args), keywords=keywords)
    pair = gast.Tuple(elts=[store(target), store(fwd.dot(target))], ctx=gast.Store())
    return located(gast.Assign(targets=[pair], value=value, type_comment=None), s)


def derivative_tangent(fwd, s, prim):
    """The tangent of `y = g(x, n)` for g a derivative function (grad(f)): another
    derivative function's value, `y_dot = g_tan(x_dot, x, n)` (derivatives.py); its
    arguments carrying a tangent are passed by position."""
    if any(fwd.is_active(a) for _, a in prim.operands) or \
            any(isinstance(a, gast.Starred) for a in s.value.args):
        refuse(fwd, prim, f"a call of `{prim.label}` with a differentiated value passed by "
               "keyword or spread", "pass it by position, or use vjp")
    params = list(inspect.signature(prim.fn).parameters)
    active = [(params[k], a) for k, a in enumerate(prim.args) if fwd.is_active(a)]
    if not active:
        return fwd.names.call("zero_tangent", load(s.targets[0].id))
    tangent = PROVIDED["tangent_function"](prim.fn, tuple(p for p, _ in active))
    name = fwd.names.reserve(f"{_identifier(s.value.func, prim.fn)}_tangent")
    fwd.ctx.globals[name] = tangent
    return gast.Call(func=load(name), args=[load(fwd.dot(a.id)) for _, a in active] +
                     clone(s.value.args), keywords=clone(s.value.keywords))


def _identifier(func, fn):
    """The name the call used (`energy_grad(x)`), else the function's, else a word."""
    name = func.id if isinstance(func, gast.Name) else getattr(fn, "__name__", "")
    return name if name.isidentifier() else "derivative"
