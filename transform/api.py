"""The public API: differentiable, grad, value_and_grad, vjp, adjoint_source."""
import functools
import sys

import numpy as np

from runtime import Thunk, callees, registry, unthunk  # noqa: F401  (Thunk: in __all__)
from runtime.contexts import close_since, open_count
from .public.parameters import (_bound_args, _keyword_only, _method_parts, _params,  # noqa: F401
                                _collecting, _defaults, _full_signature, _rule_for, _unwrap,
                                _wrt_names, positional_filler)
from .public.checks import (check_cotangent, check_target, mark_derivative, not_scalar,
                            refuse_positions_without_rule)
from .errors import TransformError
from .frontend.limits import within_limits
from .analysis.accumulation import POLICIES
from .public import cache
from .emit import tracebacks
from .public.run_time_rules import (CalleeRule, MethodRule, callee_rule,  # noqa: F401
                                    compile_with)
from .pipeline import compile_function
from .analysis.shapes import signature_of
from .public.closure_calls import closure_call
from .public.complex_args import real_checked
from .public.aux import copied_arrays, split_aux, value_pullback
from .public.unshared import owned
from .public.sourced import with_source
from .public.field_reads import located_fields
from .public.memory_limit import limited, unlimited
from .public.recursion_room import call_raised, run_deeper, too_deep, too_deep_policy
from .public.boundary import (_check_inputs, _check_values, _is_scalar, _seed,  # noqa: F401
                              materialise, named_for_user, refuse_inplace_args,
                              unbindable)
from .public import gradient_function
from . import derivatives, forward_reverse, jvp_calls, spread_jvp  # noqa: F401  (jvp's rules)
from .public.plain_gradient import check_lowering
from .public.numba_gradient import gradient_for
from .public import plain_gradient, plain_split_calls

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


def compiled(fn, wrt_names, policy, explain=False, consumed=True, signature=None, varied=None,
             materialised=False, dense=()):
    """The cached compiled rule of `fn` for (wrt, policy).

    consumed=True is what grad, value_and_grad and vjp run (they force every
    cotangent); consumed=False is the rule other compiled code calls, whose
    cotangents stay Thunks until forced. signature: the argument shapes
    (`signature_of`) to specialise to; after MAX_SPECIALISATIONS of them a
    function gets its general rule. varied, materialised, dense: see
    pipeline.compile_function.
    """
    key = (wrt_names, policy, explain, consumed, signature, varied, materialised, dense)
    rule = cache.rule_for(fn, key, lambda: _compile(fn, *key))
    if rule is None:                     # specialisations used up: the general rule
        return compiled(fn, wrt_names, policy, explain, consumed, varied=varied,
                        materialised=materialised, dense=dense)
    return rule


compile_with(compiled)               # the rules compiled code calls compile through this cache
MAX_SPECIALISATIONS = cache.MAX_SPECIALISATIONS


def compiled_plain(fn, wrt_names, policy, signature=None):
    """The cached plain-lowering function of `fn` (public/plain_gradient.py)."""
    key = (wrt_names, policy, "plain", True, signature, None, False, ())
    build = lambda: _compile(fn, wrt_names, policy, False, True, signature,  # noqa: E731
                             lowering="plain")
    rule = cache.rule_for(fn, key, build)
    return compiled_plain(fn, wrt_names, policy) if rule is None else rule


def compiled_split(fn, wrt_names, policy, varied=None, signature=None):
    """The cached (forward, backward) halves of `fn`'s plain function, for a plain caller
    (reverse/plain_split.py, public/plain_split_calls.py), each under its own key, both
    from one compilation (lowering "plain/split"); None if the cache gives none."""
    made = []

    def build(k):
        if not made:
            made.extend(_compile(fn, wrt_names, policy, False, False, signature, varied,
                                 lowering="plain/split"))
        return made[k]
    halves = [cache.rule_for(fn, (wrt_names, policy, part, False, signature, varied, False,
                                  ()), lambda k=k: build(k))
              for k, part in enumerate(("plain/forward", "plain/backward"))]
    if None in halves:
        return None
    return tuple(made) if made else tuple(halves)   # (a pair of one compilation)


def _compile(fn, wrt_names, policy, explain, consumed, signature=None, varied=None,
             materialised=False, dense=(), lowering="gast"):
    """compile_function, with any compiler failure reported as a TransformError."""
    active = cache.compiling()
    outermost = fn not in active
    active.add(fn)
    try:
        with cache.COMPILE_LOCK:
            return within_limits(fn, lambda: compile_function(
                fn, wrt_names, policy, explain, consumed, signature, varied, materialised,
                dense, lowering))
    except (TransformError, TypeError, ValueError):
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
            active.discard(fn)


def _forward(fn, policy, wrt_names, args, kwargs):
    """(output, pullback giving cotangents for wrt_names, positions)."""
    plain, default_policy = _unwrap(fn)
    policy = policy or default_policy
    rule = _rule_for(plain)
    params = _params(plain)
    if rule is not None:
        positions = [params.index(w) if w in params else int(w) for w in wrt_names]
        if any(k >= len(args) for k in positions):
            raise TypeError(f"wrt={max(positions)} is out of range: "
                            f"{getattr(plain, '__name__', 'fn')}() got {len(args)} "
                            "positional arguments")
        refuse_positions_without_rule(rule, positions)
        narrowed = getattr(rule.custom, "thunkgrad_narrowed", None)   # grad(f)'s rule:
        rrule = rule.rrule if narrowed is None else narrowed(positions).rrule  # these alone
        out, pb = rrule(*args, **kwargs)
        return out, lambda g: tuple(pb(g)[k] for k in positions)
    if not callable(plain) or getattr(plain, "__code__", None) is None:
        raise TransformError(f"{plain!r} has no derivative rule and no Python source",
                             hint="register a rule with transform.rrule")
    _check_inputs(_params(plain, keyword_only=True), wrt_names, args, kwargs)
    rule = compiled(plain, wrt_names, policy, signature=_full_signature(plain, args, kwargs))
    if rule.inplace_args:
        refuse_inplace_args(rule, params, args, kwargs)
    real_checked(rule, args, kwargs)        # a complex argument not differentiated
    mark = open_count()
    try:
        return rule.rrule(*args, **kwargs)
    except TransformError as exc:     # from a rule compiled on the way (a method call):
        close_since(mark, exc)
        if unlimited(plain) is not None:            # memory_limit's marks: run unmarked
            return _forward(unlimited(plain), policy, wrt_names, args, kwargs)
        if exc.filename is None and plain.__module__.split(".")[0] in ("runtime", "transform"):
            raise        # a rule's tangent compiled again: its caller's frames locate it
        raise tracebacks.at_user_line(exc).with_traceback(None) from None  # (at the user's line)
    except BaseException as exc:      # `with` blocks left by it: __exit__ runs
        close_since(mark, exc)
        if isinstance(exc, TypeError) and named_for_user(exc, rule.rrule, plain) is not exc:
            raise named_for_user(exc, rule.rrule, plain) from None
        raise


def _gradients(fn, wrt, policy, args, kwargs, has_aux):
    plain, default_policy = _unwrap(fn)
    names, single = _wrt_names(plain, wrt)
    out, pullback = _forward(fn, policy, names, args, kwargs)
    if has_aux:                            # ((value, aux), gradient)
        (out, aux), pullback = split_aux(plain, out), value_pullback(pullback, out)
    if not _is_scalar(out):
        raise not_scalar(plain, out)
    cotangents = _materialised(pullback, _seed(out), policy or default_policy)
    values = _bound_args(_params(plain), args, kwargs)
    defaults = _defaults(plain)            # wrt a parameter left at its default
    with located_fields(plain, [(n, values.get(n, defaults.get(n))) for n in names]):
        grads = owned(tuple(materialise(c, values[n] if n in values else defaults[n])
                            for c, n in zip(cotangents, names)), (args, kwargs, defaults))
    return ((out, aux) if has_aux else out), grads[0] if single else grads


def _materialised(pullback, seed, policy):
    """Run the pullback and force what it returns; a too-deep thunk chain (the nested
    policy's failure) becomes an error that names the policy."""
    try:
        return [c if type(c) is np.ndarray else unthunk(c) for c in pullback(unthunk(seed))]
    except RecursionError:
        raise RecursionError(too_deep_policy(policy)) from None


def grad(fn, wrt=0, *, has_aux=False, policy=None, memory_limit=None, lowering="gast"):
    """A function returning the gradient of scalar `fn` with respect to `wrt`.
    For a bound method `obj.f`, wrt counts f's explicit arguments; obj is fixed.
    has_aux=True: fn returns (value, aux), and the function returns (gradient, aux).
    memory_limit (bytes, or "2GB"): fn's outermost loops checkpointed to fit in it.
    lowering="plain": one function with no closures (docs/ir.md, "Second lowering");
    lowering="numba": that function jitted by numba (an optional install; README)."""
    fn, plain, receiver, wrt, policy, compute = _prepared(
        fn, "grad", wrt, has_aux, policy, memory_limit, lowering)
    pick = (lambda r: (r[1], r[0][1])) if has_aux else (lambda r: r[1])  # noqa: E731

    @functools.wraps(fn)
    def gradient(*args, **kwargs):
        try:
            try:
                return pick(compute(receiver + args, kwargs))
            except RecursionError as exc:     # deep user recursion: room, or a clear error
                return pick(run_deeper(lambda: compute(receiver + args, kwargs), plain, exc))
        except Exception as exc:     # a frame in generated code: say the user's line
            raise _said(exc, plain, receiver + args, kwargs)
    return _marked(gradient, fn, "grad", plain, wrt, policy, receiver, has_aux)


def value_and_grad(fn, wrt=0, *, has_aux=False, policy=None, memory_limit=None,
                   lowering="gast"):
    """A function returning (fn(...), gradient); a bound method as in grad.
    has_aux=True: fn returns (value, aux), and the function returns ((value, aux), gradient).
    memory_limit, lowering: as grad's."""
    fn, plain, receiver, wrt, policy, compute = _prepared(
        fn, "value_and_grad", wrt, has_aux, policy, memory_limit, lowering)

    @functools.wraps(fn)
    def value_and_gradient(*args, **kwargs):
        try:
            try:
                return compute(receiver + args, kwargs)
            except RecursionError as exc:
                return run_deeper(lambda: compute(receiver + args, kwargs), plain, exc)
        except Exception as exc:     # a frame in generated code: say the user's line
            raise _said(exc, plain, receiver + args, kwargs)
    return _marked(value_and_gradient, fn, "value_and_grad", plain, wrt, policy, receiver,
                   has_aux)


def _prepared(fn, entry, wrt, has_aux, policy, memory_limit, lowering):
    """grad's and value_and_grad's setup: (fn, plain, receiver, wrt, policy, compute), the
    compute following a derivative function's current unit (derivatives.current)."""
    fn = check_target(fn, entry)
    check_lowering(lowering, policy, has_aux, memory_limit)
    given, (fn, policy) = fn, _again(fn, entry, policy)
    plain, receiver, wrt = _method_parts(fn, wrt)
    plain, policy = limited(plain, memory_limit, policy)
    compute = derivatives.current(given, entry, fn, gradient_for(
        plain, wrt, policy, has_aux, lowering), lambda unit: gradient_for(
        limited(unit, memory_limit, policy)[0], wrt, policy, has_aux, lowering))
    return fn, plain, receiver, wrt, policy, compute


def _said(exc, plain, args, kwargs):
    """exc as the user sees it: arguments not fitting the user's function named so (not
    as a generated function's), else annotated with the user's line."""
    named = unbindable(_unwrap(plain)[0], args, kwargs, exc)
    if named is not exc:
        named.__suppress_context__ = True
        return named
    tracebacks.annotate(exc)
    return exc


def _again(fn, entry, policy):
    """(what to differentiate, the policy) for fn: a derivative function grad(f) of a
    scalar argument is differentiated as its generated "unit" function (derivatives.py)."""
    spec = derivatives.spec_of(fn)
    unit = derivatives.as_function(fn, entry)
    return unit, policy or (spec.policy if unit is not fn else None)


def _marked(wrapper, fn, kind, plain, wrt, policy, refused, has_aux=False):
    """mark_derivative, with the record and reverse rule that let it be differentiated
    again (not for a bound method: refused then)."""
    mark_derivative(wrapper, fn)
    inner, default_policy = _unwrap(plain)
    inner = with_source(inner, strict=False)     # np.sin: differentiated as a call of it
    if refused or getattr(inner, "__code__", None) is None or _rule_for(inner) is not None:
        return wrapper
    try:
        names, single = _wrt_names(inner, wrt)
    except (TypeError, TransformError):         # said when the wrapper is called
        return wrapper
    return derivatives.attach(wrapper, kind, inner, names, single, policy or default_policy,
                              has_aux)


def vjp(fn, *args, wrt=None, policy=None, has_aux=False, memory_limit=None, **kwargs):
    """(output, pullback); pullback(cotangent) gives one cotangent per differentiated arg.
    For a bound method `obj.f`, wrt counts f's explicit arguments; obj is fixed.
    has_aux=True: fn returns (output, aux), and vjp returns (output, pullback, aux)."""
    return _vjp(fn, args, kwargs, wrt, policy, has_aux, memory_limit)


def _function_vjp(fn, wrt, /, *args, **kwargs):
    """vjp for rules differentiating a function value (runtime/callees.py): its keywords
    all fn's own, a `wrt` or `policy` among them too."""
    return _vjp(fn, args, kwargs, wrt, None, False, None)


def _vjp(fn, args, kwargs, wrt, policy, has_aux, memory_limit):
    fn = check_target(fn, "vjp")
    if wrt is None:            # every positional argument a named parameter takes
        named = len(_params(_unwrap(fn)[0])) - (getattr(fn, "__self__", None) is not None)
        wrt = tuple(range(len(args) if _collecting(_unwrap(fn)[0]) == [] else
                          min(len(args), named)))
        wrt = wrt or (0,) * bool(args)   # all collected by *args: grad's refusal, not ()
    fn, receiver, wrt = _method_parts(fn, wrt)
    fn, policy = limited(fn, memory_limit, policy)
    args = receiver + args
    plain, default_policy = _unwrap(fn)
    params = _params(plain)
    names, single = _wrt_names(plain, wrt if isinstance(wrt, (tuple, list)) else (wrt,))
    deep = []                        # the forward needed a raised recursion limit
    try:
        try:
            out, pb = _forward(fn, policy, names, args, kwargs)
        except RecursionError as exc:    # deep user recursion: room, or a clear error
            out, pb = run_deeper(lambda: _forward(fn, policy, names, args, kwargs), plain, exc)
            deep.append(True)
    except Exception as exc:         # a frame in generated code: say the user's line
        tracebacks.annotate(exc)
        raise
    if has_aux:
        (out, aux), pb = split_aux(plain, out, copied=True), value_pullback(pb, out)
    values = {**_defaults(plain), **_bound_args(params, args, kwargs)}   # (wrt a default)

    def pullback(cotangent):
        cotangent = check_cotangent(cotangent, out, plain)
        run = lambda: _materialised(pb, cotangent, policy or default_policy)  # noqa: E731
        try:
            try:                      # a pullback runs once: no second try, a clear error
                cots = call_raised(run) if deep else run()
            except RecursionError as exc:
                raise too_deep(plain, exc, sys.getrecursionlimit()) from None
        except Exception as exc:
            tracebacks.annotate(exc)
            raise
        with located_fields(plain, [(n, values[n]) for n in names]):
            grads = [materialise(c, values[n]) for c, n in zip(cots, names)]
        return owned(tuple(grads), (cotangent, args, kwargs, values))
    # the caller gets copies of the output's arrays: the backward sweep may still read the
    # originals (tanh's output), so a write into what vjp returned must not reach it
    shown = copied_arrays(out)
    return (shown, pullback, aux) if has_aux else (shown, pullback)


def adjoint_source(fn, wrt=0, *, policy=None, explain=False, as_rule=False,
                   memory_limit=None, lowering="gast"):
    """The generated source text of fn's adjoint: the code `grad` runs, or with
    as_rule=True the rule that other compiled code calls (cotangents deferred);
    memory_limit as grad's (with explain: what it does with each loop); lowering as
    grad's (the plain lowering's function, unspecialised; lowering="numba" jits that same
    source, so it is refused here: ask for "plain")."""
    fn = check_target(fn, "adjoint_source")
    check_lowering(lowering, policy, False, memory_limit)
    if lowering == "numba":
        raise ValueError("adjoint_source(..., lowering='numba'): numba jits the plain "
                         "lowering's source unchanged; ask for lowering='plain'")
    fn, policy = limited(fn, memory_limit, policy)
    plain, default_policy = _unwrap(fn)
    names, _ = _wrt_names(plain, wrt)
    if lowering == "plain":
        return compiled_plain(plain, names, policy or default_policy).source
    return compiled(plain, names, policy or default_policy, explain,
                    consumed=not as_rule).source


def _closure_vjp(closure, wrt, /, *args, **kwargs):
    """(out, pullback) of a closure record called by a rule (np.piecewise's pieces):
    pullback(g) is (the record's cotangent, those of the `wrt` positions), as values."""
    varied = (0,) + tuple(1 + k for k in wrt)
    out, pullback = closure_call(closure, args, kwargs, "loop", varied, compiled)

    def values(g):
        cots = tuple(pullback(g))
        return (unthunk(cots[0]),) + tuple(unthunk(cots[1 + k]) if 1 + k < len(cots)
                                           else None for k in wrt)
    return out, values


gradient_function.provide(_gradients, compiled)
plain_gradient.provide(compiled_plain)
plain_split_calls.provide(compiled_split)  # a plain caller's compiled callees, split
forward_reverse.provide(_forward)        # call_jvp's reverse rule (hvp, grad of grad)
derivatives.provide(grad=grad, value_and_grad=value_and_grad, vjp=vjp)   # grad of grad   # grad's general path and compile cache

# rules differentiating a function value (odeint, np.piecewise) use these
callees.provide(_function_vjp, _closure_vjp,
                lambda fn, wrt, dense=(): callee_rule(fn, "loop", wrt, materialised=True,
                                                      dense=dense))

__all__ = ["differentiable", "grad", "value_and_grad", "vjp", "adjoint_source", "compiled",
           "CalleeRule", "MethodRule", "callee_rule", "Thunk"]
