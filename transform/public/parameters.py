"""The public API's view of a function's parameters: which function is compiled
(a `differentiable` wrapper's, a bound method's), the parameters a pullback answers for,
and `wrt` (indices, names, keyword-only names) resolved to parameter names.

    _wrt_names(loss, ("W", 1))   ->   (("W", "b"), False)
"""
import inspect
import numbers

import runtime
from ..analysis.shapes import signature_of
from ..frontend.parse import unwrap as _unwrap

from ..errors import TransformError, at_definition


def _method_parts(fn, wrt):
    """(function, (receiver,), wrt) for a bound method `obj.f` with Python source: its
    function is differentiated with the receiver passed as a fixed first argument, and
    wrt's indices (counting the explicit arguments) shift past it. Else (fn, (), wrt)."""
    func = getattr(fn, "__func__", None)
    if not inspect.ismethod(fn) or runtime.lookup(fn) is not None or \
            not callable(func) or getattr(_unwrap(func)[0], "__code__", None) is None:
        return fn, (), wrt

    def shift(w):
        return w + 1 if isinstance(w, numbers.Integral) and not isinstance(w, bool) \
            and w >= 0 else w
    wrt = type(wrt)(shift(w) for w in wrt) if isinstance(wrt, (tuple, list)) else shift(wrt)
    return func, (fn.__self__,), wrt


def _params(fn, keyword_only=False):
    """Parameter names a pullback answers for: positional ones (then keyword-only)."""
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if keyword_only:
        kinds += (inspect.Parameter.KEYWORD_ONLY,)
    rule = runtime.lookup(fn)
    try:
        signature = _rule_signature(rule) or \
            inspect.signature(fn, follow_wrapped=rule is not None)  # source: its own
    except (TypeError, ValueError):
        return []
    return [p.name for p in signature.parameters.values() if p.kind in kinds]


def _rule_signature(rule):
    """A template rule's own parameters (as NumPy names them), else None. Read from the
    rule because NumPy < 2.4 gives ufuncs no signature: 1.26 raises, 2.2 says (*args)."""
    return rule.signature if rule is not None else None


def _wrt_names(fn, wrt):
    """wrt (index, name, or tuple of those) -> (tuple of names, single?)."""
    params = _params(fn)
    single = not isinstance(wrt, (tuple, list))
    items = [wrt] if single else list(wrt)
    names = []
    for item in items:
        if isinstance(item, numbers.Integral) and not isinstance(item, bool):
            if len(params) <= item and _rule_takes_varargs(fn):
                names.append(str(item))     # np.einsum's operands: named by position
                continue
            if not -len(params) <= item < len(params):
                _refuse_collected(fn, item, len(params))
            names.append(params[item])
        elif isinstance(item, str):
            if item in _collecting(fn):
                raise TypeError(f"{fn.__name__}()'s `{item}` collects extra arguments, "
                                "which are not differentiated: name each parameter to "
                                "differentiate, or pass them as one tuple argument")
            if item not in params and item not in _keyword_only(fn):
                raise TypeError(f"{fn.__name__}() has no parameter named {item!r}")
            names.append(item)
        else:
            raise TypeError(f"wrt must be a parameter index or name, not {item!r}")
    return tuple(names), single


def _keyword_only(fn):
    """fn's keyword-only parameters, when it is compiled from source (a wrt by name)."""
    if runtime.lookup(fn) is not None:
        return []
    positional = set(_params(fn))
    return [p for p in _params(fn, keyword_only=True) if p not in positional]


def _refuse_collected(fn, item, count):
    """wrt=item beyond fn's named parameters: a TransformError when `*args` takes it
    (a wrapper `def wrapper(*args)`), else a TypeError."""
    collected = _collecting(fn)
    if collected:
        raise at_definition(fn, f"argument {item} of {fn.__name__}() is collected by "
                            f"`{collected[0]}` (`*args`/`**kwargs`): collected arguments are "
                            "data, not differentiated", hint="name the parameters to "
                            "differentiate (`def wrapper(x, *rest)`)", mark="*")
    raise TypeError(f"wrt={item} is out of range: {fn.__name__}() takes {count} "
                    "positional parameters")


def _collecting(fn):
    """The names of fn's `*args` and `**kwargs` parameters."""
    try:
        parameters = inspect.signature(fn, follow_wrapped=False).parameters.values()
    except (TypeError, ValueError):
        return ()
    return [p.name for p in parameters
            if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]


def _rule_takes_varargs(fn):
    """fn has a custom rule and takes `*args` (np.einsum, np.meshgrid): its rule answers
    for every positional argument, so wrt may name one by position beyond the named
    parameters."""
    rule = runtime.lookup(fn)
    if rule is None or rule.kind != "custom":
        return False
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in parameters)


def _rule_for(fn):
    """The rule grad & co. run for `fn` itself, or None (its source is compiled). A
    function with source declared zero in every argument (stop_gradient) runs its
    declaration, as compiled code calling it does, not its source."""
    rule = runtime.lookup(fn)
    if rule is not None and rule.kind != "nondiff":
        return rule
    if rule is not None and rule.why in (runtime.ZERO, runtime.SHAPE) and \
            getattr(fn, "__code__", None) is not None:
        return rule
    return None


def _bound_args(params, args, kwargs):
    values = {str(k): a for k, a in enumerate(args[len(params):], len(params))}   # *args
    values.update(zip(params, args))
    values.update(kwargs)                  # keyword-only parameters too
    return values


def positional_filler(fn):
    """For a function whose parameters are all positional-or-keyword: a function giving
    the positional arguments a call `(args, kwargs)` binds, defaults filled in, or None
    when the call is not that simple (the general path then binds it, or says what is
    wrong). `simulate(x0)` for `def simulate(x0, dt=1e-4)` runs as `simulate(x0, 1e-4)`:
    the rule specialised to every argument, with no signature binding per call. None
    for any other function."""
    try:
        parameters = list(inspect.signature(fn, follow_wrapped=False).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters):
        return None
    names = [p.name for p in parameters]
    defaults = {p.name: p.default for p in parameters if p.default is not p.empty}
    missing = object()
    tails = {n: tuple(defaults[name] for name in names[n:]) for n in range(len(names) + 1)
             if all(name in defaults for name in names[n:])}   # positions given -> the rest

    def fill(args, kwargs):
        if not kwargs:
            tail = tails.get(len(args))
            return None if tail is None else tuple(args) + tail
        if len(args) > len(names) or any(k not in names[len(args):] for k in kwargs):
            return None                  # too many, a duplicate or an unknown keyword
        filled = list(args)
        for name in names[len(args):]:
            value = kwargs.get(name, defaults.get(name, missing))
            if value is missing:
                return None
            filled.append(value)
        return tuple(filled)
    return fill


def _full_signature(plain, args, kwargs):
    """signature_of every positional parameter's value, keywords and defaults left out
    included (`simulate(x0)` for `def simulate(x0, dt=1e-4)` is specialised to dt's
    shape as `simulate(x0, 1e-4)` is), or None if the call does not bind."""
    try:
        bound = inspect.signature(plain).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    values = []
    for name, param in inspect.signature(plain).parameters.items():
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            break
        values.append(bound.arguments[name])
    return signature_of(values)


def _defaults(fn):
    try:
        return {name: p.default for name, p in inspect.signature(fn).parameters.items()
                if p.default is not p.empty}
    except (TypeError, ValueError):
        return {}


def keywords_by_position(fn, api, args, kwargs):
    """The positional arguments of the call `fn(*args, **kwargs)`, keywords placed by
    position and the defaults between filled in, for jacfwd and hessian (their jvps and
    hvps take positional primals): `jacfwd(f)(x, scale=3.0)` runs as `f(x, 3.0)`. A
    keyword-only parameter given a value is a TypeError saying so."""
    if not kwargs:
        return tuple(args)
    signature = inspect.signature(fn)
    bound = signature.bind(*args, **kwargs)           # Python's own TypeError if not
    named = [name for name, p in signature.parameters.items()
             if name in kwargs and p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
    if named or any(k not in signature.parameters for k in kwargs):
        raise TypeError(f"{api}: the keyword-only argument {(named or list(kwargs))[0]!r} "
                        f"of {getattr(fn, '__name__', fn)} cannot be passed through {api} "
                        "yet (it calls jvp/hvp with positional arguments); make it "
                        "positional, or use jacrev/grad")
    bound.apply_defaults()
    return tuple(bound.args)
