"""jvp: forward mode's public face (transform/forward/ is its compiler).

    out, out_dot = jvp(f, (x, y), (x_dot, y_dot))      f(x, y) and its directional
                                                       derivative along (x_dot, y_dot)

`tangents` has one entry per differentiated argument (`wrt` as in vjp; default every
positional argument), each shaped like its argument: an array's, a float for a float,
the same tuples, lists and dicts for a container. A float32 argument's tangent is
computed in float32. A complex argument's tangent is complex (JAX's convention: the
output's tangent is d/dh f(z + h t) at h = 0, h real); a real argument's must be real.
Code reaching complex values is compiled with the terms known right for them only
(transform/forward/complex_terms.py).
"""
import dataclasses
import inspect
import types

import numpy as np

import runtime.forward as forward_runtime
from runtime import callees, registry
from runtime.complex_safety import any_complex
from runtime.jvp import NoJvp
from runtime.forward import zero_tangent
from runtime.operators import user_class

from .analysis.accumulation import POLICIES
from .emit import tracebacks
from .errors import TransformError, at_definition, callee_words
from .forward.calls import provide
from .forward.methods import user_method
from .forward_arguments import _like, _tangents, primals_tuple
from .public.field_reads import located_fields
from .forward_closures import OWN, is_value, lowered
from .forward_pipeline import compile_forward, refuse_generator
from .frontend.constructors import constructor_of
from .frontend.limits import within_limits
from .frontend.varargs import named_callee
from .generated_calls import forward_by_source
from .lowering.records import object_builder, record_rule
from .public import cache
from .public.aux import copied_arrays
from .public.boundary import _check_inputs, refuse_inplace_args, unbindable
from .public.checks import check_target, refuse_async, returned_at
from .public.recursion_room import run_deeper
from .public.sourced import check_arity, with_source
from .public.vectorize_values import refuse_forward
from .public.parameters import (_collecting, _defaults, _full_signature, _method_parts,
                                _params, _unwrap, _wrt_names)


# jvp of a derivative function grad(f): transform/derivatives.py fills this in (it
# imports this module; grad & co., which make derivative functions, import it)
DERIVATIVES = {}


def jvp(fn, primals, tangents, *, wrt=None, policy=None):
    """(fn(*primals), the tangent of its output along `tangents`); see the module text."""
    return prepared_jvp(fn, primals, wrt, policy)(tangents)


def prepared_jvp(fn, primals, wrt=None, policy=None, entry="jvp"):
    """tangents -> jvp(fn, primals, tangents, wrt=wrt, policy=policy), fn and the primals
    checked once, the rule compiled at the first call and kept (per complex-ness of the
    values): jacfwd's columns (entry: the API its messages name). apply(tangents,
    value=False) may leave the value out (None) where it costs a call of its own (a
    derivative function's)."""
    fn = check_target(fn, "jvp")
    primals = primals_tuple(primals, "jvp")
    if DERIVATIVES and DERIVATIVES["is_derivative"](fn):      # jvp of grad(f)
        return DERIVATIVES["prepared"](fn, primals, wrt)
    fn = with_source(fn)                  # np.sin: a generated function calling it
    if policy is not None and policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    if getattr(fn, "__self__", None) is not None:       # a bound method: its function,
        func, receiver, wrt = _method_parts(fn, tuple(range(len(primals)))   # the object
                                            if wrt is None else wrt)          # held fixed
        if not receiver:
            raise at_definition(func, "jvp of a bound method is not supported yet",
                                hint="pass a function taking the object's arrays")
        return prepared_jvp(func, receiver + tuple(primals), wrt, policy, entry)
    plain, _ = _unwrap(fn)
    if _collecting(plain):
        raise at_definition(plain, f"forward mode (jvp, jacfwd): {plain.__name__} takes "
                            "*args or **kwargs", hint="name the parameters, or use vjp",
                            mark="*")
    refuse_generator(plain, "jvp")
    primals = tuple(primals)
    check_arity(plain, "jvp", len(primals))          # np.sum(x, 0): name the axis
    params = _params(plain)
    if wrt is None:
        wrt = tuple(range(min(len(primals), len(params))))
    names, _ = _wrt_names(plain, wrt if isinstance(wrt, (tuple, list)) else (wrt,))
    values = {**_defaults(plain), **dict(zip(params, primals))}   # (a default
    return _Prepared(plain, names, primals, values, entry)


class _Prepared:
    """jvp of a plain function at fixed primals: apply(tangents) per direction."""

    def __init__(self, plain, names, primals, values, entry):
        self.plain, self.names, self.primals, self.values = plain, names, primals, values
        self.entry = entry
        # compiled at the first call (complex or not: the primals', fixed here; a
        # tangent is complex only where its primal is, _like checks)
        self.rule = None

    def __call__(self, tangents, value=True):
        plain, names, primals = self.plain, self.names, self.primals
        tangents = _tangents(names, tangents)
        with located_fields(plain, self.values.items()):
            given = {n: _like(n, self.values.get(n), t) for n, t in zip(names, tangents)}
        rule = self.rule
        if rule is None:
            _check_inputs(_params(plain, keyword_only=True), names, primals, {},
                          complex_ok=True)
            rule = _compiled(plain, names, _full_signature(plain, primals, {}),
                             complex_values=holds_complex((primals, given)))
            if rule.inplace_args:           # (holds_complex: a default left out)
                refuse_inplace_args(rule, _params(plain), primals, {})
            self.rule = rule
        call = lambda: rule.rrule(*primals, **{rule.tangent_params[n]: t  # noqa: E731
                                               for n, t in given.items()})
        try:
            try:
                out, out_dot = call()
            except RecursionError as exc:    # deep user recursion: room, or a clear error
                out, out_dot = run_deeper(call, plain, exc)
        except Exception as exc:         # a frame in generated code: say the user's line
            named = unbindable(plain, primals, {}, exc)
            if named is not exc:
                raise named from None
            tracebacks.annotate(exc)
            raise
        _refuse_no_number(plain, out, self.entry)
        return copied_arrays(out), copied_arrays(out_dot)


def _refuse_no_number(plain, out, entry):
    """jvp gives the output's tangent: a float's, an array's or a container's of them.
    None (no return) and a string have none (jvp gave (None, None), ('loss', None))."""
    if out is None or isinstance(out, (str, bytes)):
        what = "None (no return value)" if out is None else f"a {type(out).__name__}"
        raise TypeError(f"{entry}: {plain.__name__}(){returned_at(plain)} returned {what}; "
                        "forward mode needs a float, an array, or a tuple, list or dict "
                        "of them: return the value to differentiate")


def call_jvp(fn, tangents, /, *args, **kwargs):
    """(fn(*args, **kwargs), its tangent) for a call in generated forward-mode code:
    `tangents` is {parameter name or position: tangent} for the arguments that carry
    one (positions for a function called as a value: `f(x)`, f a parameter)."""
    if is_value(fn) or OWN in tangents:     # a closure record's or partial's function
        plain = lowered(fn, tangents, args, kwargs)         # (forward_closures.py)
        if not plain.tangents:
            tangents = {}
        else:
            fn, tangents, args, kwargs = plain.fn, plain.tangents, plain.args, plain.kwargs
    if not tangents:
        out = fn(*args, **kwargs)
        return out, zero_tangent(out)
    complex_in = holds_complex((args, kwargs, tangents))
    rule = registry.lookup(fn)     # np.tanh as a value, x.item(), a frozen distribution's
    if DERIVATIVES and DERIVATIVES["is_derivative"](fn):     # grad(f) passed as a value
        out = DERIVATIVES["call"](fn, tangents, args, kwargs)
    elif isinstance(fn, type) and record_rule(fn) is not None:   # `type(self)(q, p)`
        out = _record_call(fn, tangents, args, kwargs)
    elif rule is not None and rule.kind == "template":     # np.tanh passed as a value
        out = _frule(rule, tangents, args, kwargs)
    else:           # (one frame per call of a user function: deep recursion has room)
        fn, tangents, args = bound_call(fn, tangents, args) or (fn, tangents, args)
        rule, given = _user_rule(fn, tangents, complex_in, args, kwargs)
        out = rule.rrule(*args, **kwargs, **given)
    if not complex_in and holds_complex(out):   # into code that may be compiled for reals
        raise _made_complex(fn)
    return out


def call_jvp_keywords(fn, tangents, keywords, /, *args):
    """call_jvp(fn, tangents, *args, **keywords): generated code passes the keywords as
    one dict when one of them carries a tangent, so that reverse mode over the code
    (hvp) gives them cotangents (a custom rule's pullback answers by position)."""
    return call_jvp(fn, tangents, *args, **keywords)


def _user_rule(fn, tangents, complex_in, args, kwargs):
    """(the user function's compiled `_jvp`, its tangent keyword arguments), compiled
    apart for complex values."""
    refuse_forward(fn)                                # np.vectorize: not yet
    fn = named_callee(_constructor(fn), len(args))   # a class: its __init__; `*args`
    if not isinstance(fn, types.FunctionType) or not forward_by_source(fn) and \
            (fn.__module__ or "").split(".")[0] in ("runtime", "transform"):
        raise TransformError(f"forward mode (jvp, jacfwd): calling a {type(fn).__name__} "
                             f"value ({callee_words(fn)}) with arguments that carry a "
                             "derivative is not supported yet", hint="call a function "
                             "defined with def, or use vjp/jacrev")
    params = list(inspect.signature(fn).parameters)
    tangents = {params[k] if isinstance(k, int) else k: t for k, t in tangents.items()}
    names = tuple(tangents)
    rule = _compiled(fn, names, _full_signature(fn, args, kwargs), complex_values=complex_in)
    if rule.inplace_args:       # (a closure's template: its variables lead)
        lifted = list(fn.__code__.co_freevars) if getattr(fn, "thunkgrad_lifted", False) else []
        refuse_inplace_args(rule, lifted + _params(fn), args, kwargs)
    return rule, {rule.tangent_params[n]: t for n, t in tangents.items()}


def bound_call(fn, tangents, args):
    """For a bound method of a user object (`step = model.forward; step(x)`) or a user
    object with a Python `__call__` (`model(x)`) called as a value carrying no tangent
    itself: (the function, the tangents one place on, the receiver first); else None."""
    if isinstance(fn, type):            # a class: called to make an object (its own rule)
        return None
    if inspect.ismethod(fn):
        func, receiver = fn.__func__, fn.__self__
        if isinstance(receiver, type) or not user_class(type(receiver)):
            return None
        func = user_method(receiver, func.__name__, len(args) + 1) \
            if getattr(type(receiver), func.__name__, None) is func else None
    else:
        func, receiver = user_method(fn, "__call__", len(args) + 1), fn
    if func is None:
        return None
    shifted = {k + 1 if isinstance(k, int) else k: t for k, t in tangents.items()}
    return func, shifted, (receiver,) + tuple(args)


def _made_complex(fn):
    """A callee made a complex value from real ones: its caller may be compiled for real
    values (forward/complex_terms.py checks terms only where complex values may appear)."""
    code = getattr(fn, "__code__", None)
    return TransformError(
        f"forward mode (jvp, jacfwd): {getattr(fn, '__name__', fn)} returns a complex value "
        "made from real arguments; the code calling it is compiled for real values",
        filename=getattr(code, "co_filename", None),
        line=getattr(code, "co_firstlineno", None), hint="pass it complex arguments, "
        "return real values (np.real, np.imag) from it, or use vjp")


def holds_complex(value, depth=0):
    """Whether a value holds a complex number: containers, dataclass records and plain
    objects' attributes looked into (a few levels deep)."""
    if type(value) is np.ndarray:          # the common cases first
        return value.dtype.kind == "c"
    return any_complex((value,)) or _attributes_complex(value, depth)


def _attributes_complex(value, depth):
    """Whether a complex number is in the attributes of a record or object in `value`
    (any_complex, false for value, looked into its tuples, lists and dicts already)."""
    if depth > 8 or type(value) is np.ndarray or type(value) is float:
        return False
    if type(value) in (tuple, list, dict):       # (the plain ones: no record)
        parts = value.values() if type(value) is dict else value
        return any(_attributes_complex(v, depth + 1) for v in parts)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(holds_complex(getattr(value, f.name, None), depth + 1)
                   for f in dataclasses.fields(value))    # (one being built: not all set)
    if isinstance(value, (list, tuple)):
        return any(_attributes_complex(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_attributes_complex(v, depth + 1) for v in value.values())
    if hasattr(value, "__dict__") and not isinstance(value, (type, types.FunctionType,
                                                             types.ModuleType)):
        return any(holds_complex(v, depth + 1) for v in vars(value).values())
    return False


call_jvp.thunkgrad_jvp_call = True   # reverse mode's alias analysis reads its result
provide(call_jvp, call_jvp_keywords)   # (transform/alias/jvp_calls.py)
callees.provide_jvp(call_jvp)         # odeint's and np.piecewise's functions' tangents


def _constructor(fn):
    """A class called with tangents: the function its __init__ is compiled as (reverse
    mode's, frontend/constructors.py; a dataclass with a __post_init__: the fields'
    stores then its code, the object built with every attribute, its tangent too, so
    runtime/forward.py attribute_tangent reads what __post_init__ set), or fn itself
    (refused below). A `@differentiable`
    helper: the function it wraps (its wrapper takes *args, **kwargs)."""
    if isinstance(fn, type) and record_rule(fn) is None:
        return constructor_of(fn, object_builder) or fn
    return _unwrap(fn)[0]


def _record_call(cls, tangents, args, kwargs):
    """A dataclass or NamedTuple that only stores its fields, called as a value: the
    record and its tangent, the record of its fields' tangents (zeros where none is
    given, defaults included)."""
    out = cls(*args, **kwargs)
    tangent = zero_tangent(out)
    names = list(getattr(cls, "_fields", ())) or \
        [f.name for f in dataclasses.fields(cls) if f.init]
    for k, t in tangents.items():
        name = names[k] if isinstance(k, int) else k
        if isinstance(tangent, tuple):
            tangent = tangent._replace(**{name: t})
        else:
            object.__setattr__(tangent, name, t)
    return out, tangent


def _frule(rule, tangents, args, kwargs):
    """A rule's function called as a value: its JVP terms evaluated (Rule.frule)."""
    given = [None] * len(args)
    for k, t in tangents.items():
        if not isinstance(k, int):
            raise TransformError(f"forward mode (jvp, jacfwd): {rule.name} called as a value "
                                 "with a tangent passed by name", hint="pass it by position")
        given[k] = t
    try:
        out, out_dot = rule.frule(given, *args, **kwargs)
    except NoJvp as exc:
        raise TransformError(f"forward mode (jvp, jacfwd): {exc}",
                             hint="compute this with vjp or jacrev") from None
    return out, zero_tangent(out) if out_dot is None else out_dot


def _getter_jvp(getter, obj, tangent):
    """(value, tangent) of `obj.prop` for a property's Python getter: its `_jvp` along
    the object's tangent (runtime/forward.attribute_tangent calls this)."""
    first = next(iter(inspect.signature(getter).parameters))
    return call_jvp(getter, {first: tangent}, obj)


forward_runtime.PROVIDED["getter_jvp"] = _getter_jvp


def jvp_source(fn, wrt=0):
    """The generated source of fn's `<name>_jvp` (what `thunkgrad dump --mode forward`
    prints): general, not specialised to argument shapes."""
    plain, _ = _unwrap(fn)
    refuse_async(plain, "jvp")
    refuse_generator(plain, "jvp")
    names, _ = _wrt_names(plain, wrt)
    return _compiled(plain, names, None).source


def _compiled(plain, names, signature, variant="pair", complex_values=False):
    """The cached `<name>_jvp` of `plain` for the tangents of `names` (variant: see
    forward_pipeline.compile_forward); complex_values: complex arguments or tangents
    (compiled apart, with only the terms right for complex values). A `@differentiable`
    wrapper's: the function it wraps."""
    plain = _unwrap(plain)[0]
    mode = ("forward" if variant == "pair" else "forward " + variant) + \
        (" complex" if complex_values else "")
    key = (names, mode, False, True, signature, None, False)
    rule = cache.rule_for(plain, key, lambda: _compile(plain, names, signature, variant,
                                                       complex_values))
    return rule if rule is not None else _compiled(plain, names, None, variant, complex_values)


def _compile(plain, names, signature, variant="pair", complex_values=False):
    if getattr(plain, "__code__", None) is None:
        raise _no_source(plain)
    try:
        with cache.COMPILE_LOCK:
            return within_limits(plain, lambda: compile_forward(
                plain, names, signature, variant, complex_values))
    except (TransformError, TypeError, ValueError):
        raise
    except Exception as exc:                 # a compiler bug: say so, keep the cause
        code = plain.__code__
        raise TransformError(
            f"internal compiler error in forward mode for {plain.__qualname__}: "
            f"{type(exc).__name__}: {exc}", filename=code.co_filename,
            line=code.co_firstlineno, hint="please report this with the function's "
            "source; meanwhile use vjp or jacrev") from exc


def _no_source(fn):
    return TransformError(f"{fn!r} has no derivative rule and no Python source for "
                          "forward mode to compile", hint="register a rule for it with "
                          "transform.rrule and its JVP, or call it inside a function of "
                          "your own")
