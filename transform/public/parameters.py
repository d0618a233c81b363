"""The public API's view of a function's parameters: which function is compiled
(a `differentiable` wrapper's, a bound method's), the parameters a pullback answers for,
and `wrt` (indices, names, keyword-only names) resolved to parameter names.

    _wrt_names(loss, ("W", 1))   ->   (("W", "b"), False)
"""
import inspect
import numbers
import types
import weakref

import runtime
from ..analysis.shapes import signature_of
from ..frontend.parse import unwrap as _unwrap

from ..errors import TransformError, at_definition


_SIGNATURES = weakref.WeakKeyDictionary()   # a plain function -> _Known


class _Known:
    """A plain function's signature and what is derived from it alone (`derived`:
    parameter lists, defaults), kept while its code, defaults, keyword defaults and
    annotations are the objects they were when read."""
    __slots__ = ("code", "defaults", "kwdefaults", "annotations", "signature", "derived")

    def __init__(self, fn, signature):
        self.code, self.defaults = fn.__code__, fn.__defaults__
        self.kwdefaults, self.annotations = _items(fn.__kwdefaults__), _items(fn.__annotations__)
        self.signature, self.derived = signature, {}

    def holds(self, fn):
        return self.code is fn.__code__ and _same(self.defaults, fn.__defaults__) and \
            _same_items(self.kwdefaults, fn.__kwdefaults__) and \
            _same_items(self.annotations, fn.__annotations__)


def _signature(fn, follow_wrapped=True):
    """inspect.signature(fn), kept per plain function (no `__wrapped__`, no
    `__signature__`) while its code, defaults, keyword defaults and annotations are the
    same objects; anything else (a wrapper, a partial, a builtin) is read at each call.
    The public wrappers read it several times per call (jacfwd's and jacrev's rows)."""
    known = _known(fn)
    return inspect.signature(fn, follow_wrapped=follow_wrapped) if known is None \
        else known.signature


def _known(fn):
    """fn's _Known, read again if any of its objects changed; None for anything but a
    plain function (a wrapper, a partial, a builtin: nothing is kept)."""
    if type(fn) is not types.FunctionType or "__wrapped__" in fn.__dict__ or \
            "__signature__" in fn.__dict__:
        return None
    last, known = _LAST[0]
    if last() is not fn:                 # (a weak reference: the last function asked)
        known = _SIGNATURES.get(fn)
    if known is None or not known.holds(fn):
        known = _SIGNATURES[fn] = _Known(fn, inspect.signature(fn))
    _LAST[0] = (weakref.ref(fn), known)
    return known


_LAST = [(lambda: None, None)]      # one call asks the same function several times


def _derived(fn, what, read):
    """read(fn), kept in fn's _Known under `what` (read at each call when none is kept):
    for values depending on fn's signature alone."""
    known = _known(fn)
    if known is None:
        return read(fn)
    value = known.derived.get(what, _Known)
    if value is _Known:
        value = known.derived[what] = read(fn)
    return value


def _items(mapping):
    return None if mapping is None else tuple(mapping.items())


def _same_items(items, mapping):
    """Whether a mapping holds the same objects as `items` (_items of it) did."""
    if not mapping or items is None:       # (no keyword defaults, no annotations)
        return items is None if mapping is None else items == () and not mapping
    return len(items) == len(mapping) and \
        all(k is k2 and v is v2 for (k, v), (k2, v2) in zip(items, mapping.items()))


def _same(a, b):
    """Whether two key entries hold the same objects (items compared by identity)."""
    if isinstance(a, tuple) and isinstance(b, tuple) and a is not b:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a is b


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
    if rule is None:           # its source's own parameters (kept while they are its)
        return list(_derived(fn, ("params", keyword_only), lambda f: _names(f, kinds)))
    return _names(fn, kinds, rule)


def _names(fn, kinds, rule=None):
    try:
        signature = _rule_signature(rule) or \
            _signature(fn, follow_wrapped=rule is not None)  # source: its own
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
    return list(_derived(fn, "collecting", _read_collecting))


def _read_collecting(fn):
    try:
        parameters = _signature(fn, follow_wrapped=False).parameters.values()
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
    tails = None if kwargs else _derived(plain, "tails", _default_tails)
    if tails is not None:    # every parameter positional: the arguments, defaults after
        tail = tails.get(len(args))
        return None if tail is None else signature_of(list(args) + list(tail))
    try:
        bound = _signature(plain).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    values = []
    for name, param in _signature(plain).parameters.items():
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            break
        values.append(bound.arguments[name])
    return signature_of(values)


def _default_tails(plain):
    """For a function whose parameters are all positional (no `*args`, no keyword-only):
    {number of arguments given: the defaults filling the rest} for each number that
    binds; else None."""
    try:
        parameters = list(_signature(plain).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in parameters):
        return None
    return {n: tuple(p.default for p in parameters[n:]) for n in range(len(parameters) + 1)
            if all(p.default is not p.empty for p in parameters[n:])}


def _defaults(fn):
    try:
        return {name: p.default for name, p in _signature(fn).parameters.items()
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
