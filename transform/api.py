"""The public API: differentiable, grad, value_and_grad, vjp, adjoint_source."""
import functools
import inspect
import numbers
import weakref

import numpy as np

import runtime
from runtime import Thunk, registry, unthunk
from .errors import TransformError
from .loop_pass import POLICIES
from .dispatch import COMPILING, CalleeRule, MethodRule, callee_rule  # noqa: F401
from .pipeline import compile_function
from .shapes import shape_key
from .values import (_check_inputs, _check_values, _is_scalar, _seed, _unaliased,
                     materialise, refuse_inplace_args)

_CACHE = weakref.WeakKeyDictionary()


def differentiable(fn=None, *, policy="loop"):
    """Mark a function for differentiation; calling it still computes the primal."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    if fn is None:
        return functools.partial(differentiable, policy=policy)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    wrapper.thunkgrad_policy = policy
    return wrapper


def _unwrap(fn):
    """(the plain function, its default policy)."""
    policy = getattr(fn, "thunkgrad_policy", None)
    while policy is not None and hasattr(fn, "__wrapped__") and \
            getattr(fn, "thunkgrad_policy", None) is not None:
        fn = fn.__wrapped__
    return fn, policy or "loop"


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
    _reject_varargs(fn)
    params = _params(fn)
    single = not isinstance(wrt, (tuple, list))
    items = [wrt] if single else list(wrt)
    names = []
    for item in items:
        if isinstance(item, numbers.Integral) and not isinstance(item, bool):
            if not -len(params) <= item < len(params):
                raise TypeError(f"wrt={item} is out of range: {fn.__name__}() takes "
                                f"{len(params)} positional parameters")
            names.append(params[item])
        elif isinstance(item, str):
            if item not in params:
                raise TypeError(f"{fn.__name__}() has no parameter named {item!r}")
            names.append(item)
        else:
            raise TypeError(f"wrt must be a parameter index or name, not {item!r}")
    return tuple(names), single


def _reject_varargs(fn):
    """`def f(*xs)`: say so with the compiler's own error, not a confusing wrt error."""
    try:
        signature = inspect.signature(fn, follow_wrapped=runtime.lookup(fn) is not None)
        kinds = {p.kind for p in signature.parameters.values()}
    except (TypeError, ValueError):
        return
    if kinds & {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD} \
            and _rule_for(fn) is None and getattr(fn, "__code__", None) is not None:
        from .check import check_function
        from .parse import parse_function
        check_function(parse_function(fn))


def compiled(fn, wrt_names, policy, explain=False, consumed=True, signature=None, varied=None):
    """The cached compiled rule of `fn` for (wrt, policy).

    consumed=True is what grad, value_and_grad and vjp run (they force every
    cotangent); consumed=False is the rule other compiled code calls, whose
    cotangents stay Thunks until forced. signature: the argument shapes
    (`signature_of`) to specialise to; after MAX_SPECIALISATIONS of them a
    function gets its general rule. varied: see pipeline.compile_function.
    """
    key = (wrt_names, policy, explain, consumed, signature, varied)
    per_fn = _CACHE.setdefault(fn, {})
    found = per_fn.get(key)
    if found is not None and found.guards.hold():
        return found
    if found is None and signature is not None and \
            sum(k[:4] == key[:4] and k[4] is not None for k in per_fn) >= MAX_SPECIALISATIONS:
        return compiled(fn, wrt_names, policy, explain, consumed, varied=varied)
    per_fn.pop(key, None)                # stale: a name or rule it relied on changed
    per_fn[key] = _compile(fn, wrt_names, policy, explain, consumed, signature, varied)
    return per_fn[key]


MAX_SPECIALISATIONS = 8


def signature_of(args):
    """What positional arguments say about shapes (`shapes.shape_key`), or None."""
    ndarray = np.ndarray                                   # arrays first: no call
    signature = tuple([a.shape if type(a) is ndarray else shape_key(a) for a in args])
    return None if signature.count(None) == len(signature) else signature


def _compile(fn, wrt_names, policy, explain, consumed, signature=None, varied=None):
    """compile_function, with any compiler failure reported as a TransformError."""
    outermost = fn not in COMPILING
    COMPILING.add(fn)
    try:
        return compile_function(fn, wrt_names, policy, explain, consumed, signature, varied)
    except (TransformError, TypeError, ValueError, RecursionError):
        raise
    except Exception as exc:                 # a compiler bug: say so, keep the cause
        name = getattr(fn, "__qualname__", repr(fn))
        raise TransformError(
            f"internal compiler error while differentiating {name}: "
            f"{type(exc).__name__}: {exc}",
            filename=getattr(getattr(fn, "__code__", None), "co_filename", None),
            line=getattr(getattr(fn, "__code__", None), "co_firstlineno", None),
            hint="please report this with the function's source; meanwhile register a "
                 "rule for it with transform.rrule") from exc
    finally:
        if outermost:
            COMPILING.discard(fn)


def _rule_for(fn):
    rule = runtime.lookup(fn)
    if rule is not None and rule.kind != "nondiff":
        return rule
    return None


def _forward(fn, policy, wrt_names, args, kwargs):
    """(output, pullback giving cotangents for wrt_names, positions)."""
    plain, default_policy = _unwrap(fn)
    policy = policy or default_policy
    rule = _rule_for(plain)
    params = _params(plain)
    if rule is not None:
        out, pb = rule.rrule(*args, **kwargs)
        positions = [params.index(w) if w in params else int(w) for w in wrt_names]
        return out, lambda g: tuple(pb(g)[k] for k in positions)
    if not callable(plain) or getattr(plain, "__code__", None) is None:
        raise TransformError(f"{plain!r} has no derivative rule and no Python source",
                             hint="register a rule with transform.rrule")
    _check_inputs(params, wrt_names, args, kwargs)
    signature = None if kwargs else signature_of(args)
    rule = compiled(plain, wrt_names, policy, signature=signature)
    if rule.inplace_args:
        refuse_inplace_args(rule, params, args, kwargs)
    try:
        return rule.rrule(*args, **kwargs)
    except TransformError as exc:     # from a rule compiled on the way (a method call):
        raise exc.with_traceback(None) from None     # not from inside generated code


def _bound_args(params, args, kwargs):
    values = dict(zip(params, args))
    values.update({k: v for k, v in kwargs.items() if k in params})
    return values


def _too_deep(policy):
    why = {"nested": "each accumulation wrapped the previous thunk",
           "flat": "each iteration's cotangent is a thunk that forces the previous "
                   "iteration's"}.get(policy, "thunks were forced from inside thunks")
    return (f"thunk chain too deep under policy={policy!r}: {why}. Use policy='loop' "
            "(the default), which materialises contributions inside loop bodies.")


def _gradients(fn, wrt, policy, args, kwargs):
    plain, default_policy = _unwrap(fn)
    names, single = _wrt_names(plain, wrt)
    out, pullback = _forward(fn, policy, names, args, kwargs)
    if not _is_scalar(out):
        raise TypeError(f"grad needs a scalar output, but {plain.__name__}() returned "
                        f"{type(out).__name__} of shape {np.shape(out)}; use vjp for "
                        "non-scalar outputs")
    cotangents = _materialised(pullback, _seed(out), policy or default_policy)
    values = _bound_args(_params(plain), args, kwargs)
    grads = tuple(materialise(c, values[n]) for c, n in zip(cotangents, names))
    return out, grads[0] if single else grads


def _materialised(pullback, seed, policy):
    """Run the pullback and force what it returns; a too-deep thunk chain (the nested
    policy's failure) becomes an error that names the policy."""
    try:
        return [c if type(c) is np.ndarray else unthunk(c) for c in pullback(unthunk(seed))]
    except RecursionError:
        raise RecursionError(_too_deep(policy)) from None


def grad(fn, wrt=0, *, policy=None):
    """A function returning the gradient of scalar `fn` with respect to `wrt`.
    For a bound method `obj.f`, wrt counts f's explicit arguments; obj is fixed."""
    plain, receiver, wrt = _method_parts(fn, wrt)
    compute = _GradientFunction(plain, wrt, policy)

    @functools.wraps(fn)
    def gradient(*args, **kwargs):
        return compute(receiver + args, kwargs)[1]
    return gradient


def value_and_grad(fn, wrt=0, *, policy=None):
    """A function returning (fn(...), gradient); a bound method as in grad."""
    plain, receiver, wrt = _method_parts(fn, wrt)
    compute = _GradientFunction(plain, wrt, policy)

    @functools.wraps(fn)
    def value_and_gradient(*args, **kwargs):
        return compute(receiver + args, kwargs)
    return value_and_gradient


class _GradientFunction:
    """grad's work per call; names, parameters and the compiled rule resolved once."""

    def __init__(self, fn, wrt, policy):
        self.fn, self.wrt, self.policy = fn, wrt, policy
        self.plain = None

    def _resolve(self):
        self.plain, default_policy = _unwrap(self.fn)
        self.policy = self.policy or default_policy
        self.names, self.single = _wrt_names(self.plain, self.wrt)
        self.params = _params(self.plain)
        self.positions = [self.params.index(n) for n in self.names if n in self.params]
        self.rule = None if _rule_for(self.plain) is None else True
        self.generation = registry.generation     # a rule registered later: resolve again
        self.compiled = {}                  # argument signature -> compiled rule
        # the fast path: compiled source, every wrt a positional parameter
        self.arity = None if self.rule or len(self.positions) != len(self.names) \
            else len(self.params)

    def __call__(self, args, kwargs):
        if self.plain is None or self.generation != registry.generation:
            self._resolve()
        if kwargs or len(args) != self.arity:
            return _gradients(self.fn, self.wrt, self.policy, args, kwargs)
        wrt_values = [args[k] for k in self.positions]
        _check_values(self.names, wrt_values)
        signature = signature_of(args)
        rule = self.compiled.get(signature)
        if rule is None or not rule.guards.hold():
            rule = compiled(self.plain, self.names, self.policy, signature=signature)
            if len(self.compiled) < 64:          # a function called with ever new shapes
                self.compiled[signature] = rule  # looks its rule up in the shared cache
        if rule.inplace_args:
            refuse_inplace_args(rule, self.params, args, {})
        try:
            out, pullback = rule.rrule(*args)
        except TransformError as exc:     # from a rule compiled on the way (a method call):
            raise exc.with_traceback(None) from None     # not from inside generated code
        if not _is_scalar(out):
            return _gradients(self.fn, self.wrt, self.policy, args, kwargs)
        cotangents = _materialised(pullback, _seed(out), self.policy)
        grads = tuple([materialise(c, v) for c, v in zip(cotangents, wrt_values)])
        return out, grads[0] if self.single else grads


def vjp(fn, *args, wrt=None, policy=None, **kwargs):
    """(output, pullback); pullback(cotangent) gives one cotangent per differentiated arg.
    For a bound method `obj.f`, wrt counts f's explicit arguments; obj is fixed."""
    if wrt is None:
        wrt = tuple(range(len(args)))
    fn, receiver, wrt = _method_parts(fn, wrt)
    args = receiver + args
    plain, default_policy = _unwrap(fn)
    params = _params(plain)
    names, single = _wrt_names(plain, wrt if isinstance(wrt, (tuple, list)) else (wrt,))
    out, pb = _forward(fn, policy, names, args, kwargs)
    values = _bound_args(params, args, kwargs)

    def pullback(cotangent):
        cots = _materialised(pb, cotangent, policy or default_policy)
        grads = [materialise(c, values[n]) for c, n in zip(cots, names)]
        return tuple(_unaliased(grads, cotangent))
    return out, pullback


def adjoint_source(fn, wrt=0, *, policy=None, explain=False, as_rule=False):
    """The generated source text of fn's adjoint: the code `grad` runs, or with
    as_rule=True the rule that other compiled code calls (cotangents deferred)."""
    plain, default_policy = _unwrap(fn)
    names, _ = _wrt_names(plain, wrt)
    return compiled(plain, names, policy or default_policy, explain,
                    consumed=not as_rule).source


__all__ = ["differentiable", "grad", "value_and_grad", "vjp", "adjoint_source", "compiled",
           "CalleeRule", "MethodRule", "callee_rule", "Thunk"]
