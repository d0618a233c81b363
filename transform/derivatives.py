"""Derivatives of derivative functions: grad(grad(f)), a call of grad(f) inside code
being differentiated (either mode), jvp/vjp/hvp/hessian of grad(f), at any order.

    d2 = grad(grad(f))(1.3)                 f''(1.3)
    def loss(w): return f(w) + lam * np.sum(grad(f)(w) ** 2)      grad(loss) works

A function grad or value_and_grad returns carries a `Derivative`: (kind, fn, wrt,
policy), fn a function compiled from source (the user's, or generated forward-mode
code, docs/forward.md "Higher derivatives"). Everything is reverse mode over forward
mode's generated code, which both modes compile again at the next order:
- its reverse rule (a call inside differentiated code): the VJP of args -> grad_W fn
  with cotangent v is the gradient over every argument of <J_fn(args), v on W>, taken
  by vjp of fn's `_jvp` with the cotangent (0, 1) (hvp's route; value_and_grad's output
  cotangent (c, v) gives (c, 1));
- its tangent (forward mode, jvp): along t, grad_W of fn_tan(t, args) = <J_fn, t>, where
  fn_tan is forward mode's "tangent" variant: itself a derivative function, grad(fn_tan);
- grad(D, wrt) for D = grad_W fn with W a scalar is grad(fn_unit, wrt), fn_unit the
  "unit" variant (the tangent 1 on W, unit_tangent refusing a non-scalar W): again a
  plain generated function, so the next order repeats all of this one level up.
"""
import dataclasses

import numpy as np

from runtime import Rule, unthunk
from runtime.forward import zero_tangent

from .errors import TransformError
from . import forward_api
from .forward.calls import provide_tangents
from .forward_api import _compiled
from .forward_arguments import _like
from .public.field_reads import located_fields
from .generated_calls import refuse_helpers
from .public.checks import DERIVATIVE, SPEC
from .public.parameters import _bound_args, _defaults, _full_signature, _params, _wrt_names

PROVIDED = {}     # grad, value_and_grad, vjp: transform/api.py's (it imports this module)
RULE = "thunkgrad_rule"              # its reverse rule (runtime.registry.lookup reads it)


@dataclasses.dataclass(frozen=True)
class Derivative:
    kind: str            # "grad" or "value_and_grad"
    fn: object           # the function differentiated, compiled from source
    names: tuple         # the parameters differentiated (wrt)
    single: bool         # wrt was one parameter: the gradient is not a tuple
    policy: str
    has_aux: bool = False    # fn returns (value, aux): (gradient, aux) is returned


def attach(wrapper, kind, fn, names, single, policy, has_aux=False):
    """Make `wrapper` (what grad/value_and_grad returned) differentiable again."""
    spec = Derivative(kind, fn, tuple(names), single, policy, has_aux)
    setattr(wrapper, SPEC, spec)
    setattr(wrapper, RULE, Rule(wrapper, "custom", custom=_reverse_rule(wrapper, spec),
                                name=f"{kind}({getattr(fn, '__qualname__', 'f')})"))
    return wrapper


def spec_of(fn):
    """fn's Derivative, or None (fn is no derivative function, or one of another kind)."""
    return getattr(fn, "__dict__", {}).get(SPEC)


def derivative_of(fn):
    """The function a derivative function (grad, hessian, ...) differentiates, or None."""
    return getattr(fn, "__dict__", {}).get(DERIVATIVE)


# ---- reverse mode: the VJP of a derivative function ---------------------------------

def _reverse_rule(wrapper, spec):
    def derivative_rrule(*args, **kwargs):
        out = wrapper(*args, **kwargs)
        return out, lambda g: vjp_of(spec, args, kwargs, unthunk(g))
    rules = {}

    def narrowed(wanted):
        """The rule of wrapper for a caller reading the cotangents at positions
        `wanted` alone (api._forward: vjp, grad and jacrev of grad(f) with respect to
        some of its arguments): the others are not computed (None). A Rule like the
        registered one (its refusal of complex arguments, its array cotangents)."""
        wanted = tuple(wanted)
        if wanted not in rules:
            def rrule(*args, **kwargs):
                out = wrapper(*args, **kwargs)
                return out, lambda g: vjp_of(spec, args, kwargs, unthunk(g), wanted)
            rrule.__qualname__ = rrule.__name__ = f"{spec.kind}_rrule"
            rules[wanted] = Rule(wrapper, "custom", custom=rrule,
                                 name=f"{spec.kind}({getattr(spec.fn, '__qualname__', 'f')})")
        return rules[wanted]
    derivative_rrule.__qualname__ = derivative_rrule.__name__ = f"{spec.kind}_rrule"
    derivative_rrule.thunkgrad_narrowed = narrowed
    return derivative_rrule


def vjp_of(spec, args, kwargs, g, wanted=None):
    """One cotangent per positional argument (None where none flows, or at a position
    not in `wanted`, when given) of the derivative function's output cotangent `g`:
    reverse mode over fn's generated `_jvp`."""
    vjp = PROVIDED["vjp"]
    seed, aux, g = _parts(spec, g)
    params = _params(spec.fn)
    positions = tuple(k for k, a in enumerate(args[:len(params)]) if carries(a) and
                      (wanted is None or k in wanted))
    if g is None and aux is None or not positions:
        return (None,) * len(args)
    values = {**_defaults(spec.fn), **_bound_args(params, args, kwargs)}
    given = (None,) * len(spec.names) if g is None else (g,) if spec.single else tuple(g)
    rule = _compiled(spec.fn, spec.names, _full_signature(spec.fn, args, kwargs))
    refuse_helpers(spec.fn, rule.rrule, "a derivative of grad")
    tangents = {rule.tangent_params[n]: _direction(n, values[n], t)
                for n, t in zip(spec.names, given)}
    pair, pullback = vjp(rule.rrule, *args, wrt=positions, policy=spec.policy,
                         **kwargs, **tangents)
    cots = pullback(_seeded(spec, pair, seed, aux))
    found = dict(zip(positions, cots))
    return tuple(found.get(k) for k in range(len(args)))


def _parts(spec, g):
    """(the value's cotangent, aux's, the gradient's) from the output's cotangent g:
    value_and_grad's ((value, aux), gradient) or (value, gradient), grad's (gradient,
    aux) or gradient."""
    g = unthunk(g)
    seed = aux = None
    if spec.kind == "value_and_grad":
        seed, g = (g if isinstance(g, (tuple, list)) else (None, None))
        seed = unthunk(seed)
        if spec.has_aux:
            seed, aux = (seed if isinstance(seed, (tuple, list)) else (None, None))
    elif spec.has_aux:
        g, aux = (g if isinstance(g, (tuple, list)) else (None, None))
    g = unthunk(g) if spec.single else None if g is None else [unthunk(t) for t in g]
    return unthunk(seed), unthunk(aux), g


def _seeded(spec, pair, seed, aux):
    """The cotangent of the pair function's ((value[, aux]), (value_dot[, aux_dot])):
    1 on value_dot (<grad f, v> along the gradient's cotangent v)."""
    if not spec.has_aux:
        return (zero_tangent(pair[0]) if seed is None else seed, _one(pair[1]))
    (value, aux_value), (value_dot, aux_dot) = pair
    return ((zero_tangent(value) if seed is None else seed,
             zero_tangent(aux_value) if aux is None else aux),
            (_one(value_dot), zero_tangent(aux_dot)))


def _direction(name, value, t):
    return zero_tangent(value) if t is None else _like(name, value, t)


def _one(tangent):
    return np.ones_like(tangent) if isinstance(tangent, np.ndarray) else 1.0


def carries(value):
    """Whether an argument can carry a derivative (floats, float arrays, containers or
    records holding one)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (float, np.floating)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f"
    if isinstance(value, (tuple, list)):
        return any(carries(v) for v in value)
    if isinstance(value, dict):
        return any(carries(v) for v in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(carries(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


# ---- forward mode: the tangent of a derivative function ------------------------------

def tangent_function(fn, names):
    """The derivative function whose value at (tangents of `names`..., args...) is the
    tangent of derivative function `fn` at args along them: grad_W (or value_and_grad)
    of fn's "tangent" variant `<name>_tan(t..., args...)`."""
    spec = spec_of(fn)
    cache = fn.__dict__.setdefault("thunkgrad_tangent_functions", {})
    compiled = _compiled(spec.fn, tuple(names), None, "tangent")
    if cache.get(names, (None,))[0] is not compiled:    # a new rule: fn's code, a global
        _check_generated(spec.fn, compiled.rrule)       # or a cell it read has changed
        make = PROVIDED[spec.kind]
        cache[names] = compiled, make(compiled.rrule, policy=spec.policy,
                                      wrt=spec.names[0] if spec.single else spec.names,
                                      has_aux=spec.has_aux)
    return cache[names][1]


def provide(**public):
    PROVIDED.update(public)


def jvp_of(fn, primals, tangents, wrt):
    """(fn(*primals), its tangent) for derivative function fn (public jvp)."""
    return prepared_jvp_of(fn, primals, wrt)(tangents)


def prepared_jvp_of(fn, primals, wrt):
    """tangents -> jvp_of(fn, primals, tangents, wrt), the names and values resolved
    once (jacfwd's columns); value=False leaves fn(*primals), a call of its own, out."""
    spec = spec_of(fn)
    primals = tuple(primals)
    if wrt is None:
        wrt = tuple(range(min(len(primals), len(_params(spec.fn)))))
    names, _ = _wrt_names(spec.fn, wrt if isinstance(wrt, (tuple, list)) else (wrt,))
    values = {**_defaults(spec.fn), **dict(zip(_params(spec.fn), primals))}

    def apply(tangents, value=True):
        if not isinstance(tangents, (tuple, list)) or len(tangents) != len(names):
            raise TypeError(f"jvp: tangents must be a tuple with one entry per "
                            f"differentiated argument ({', '.join(names)})")
        with located_fields(spec.fn, values.items()):
            given = [_like(n, values.get(n), t) for n, t in zip(names, tangents)]
        out = fn(*primals) if value else None
        return out, tangent_function(fn, names)(*given, *primals)
    return apply


def call_tangent(fn, tangents, args, kwargs):
    """(fn(*args, **kwargs), its tangent) for derivative function fn called as a value
    in forward-mode code (forward_api.call_jvp): `tangents` {position or name: tangent}."""
    spec = spec_of(fn)
    if spec is None:
        raise _not_supported(fn, "jvp")
    params = _params(spec.fn)
    named = {params[k] if isinstance(k, int) else k: t for k, t in tangents.items()}
    if any(params.index(n) >= len(args) for n in named if n in params) or \
            any(n not in params for n in named):
        raise TransformError("forward mode (jvp, jacfwd): a derivative function called as "
                             "a value with a differentiated argument passed by keyword",
                             hint="pass it by position")
    names = tuple(sorted(named, key=params.index))
    tangent = tangent_function(fn, names)
    return fn(*args, **kwargs), tangent(*[named[n] for n in names], *args, **kwargs)


# ---- grad of a derivative function -------------------------------------------------

def as_function(fn, entry):
    """fn, or for a derivative function with a scalar output the plain generated
    function with the same derivatives (grad, value_and_grad, hvp, hessian of it)."""
    if spec_of(fn) is None and derivative_of(fn) is None:
        return fn
    return unit_function(fn, entry)


def current(fn, entry, unit, compute, make):
    """grad's compute (of unit, as_function's fn), for a derivative function fn
    make(its unit function) when that is remade (fn's function's code, or a global or
    cell its rule read, changed): grad(grad(f)) differentiates f as it is now."""
    made = [unit, compute]
    if unit is fn or spec_of(fn) is None:
        return compute

    def compute(args, kwargs):
        latest = unit_function(fn, entry)
        if latest is not made[0]:
            made[:] = [latest, make(latest)]
        return made[1](args, kwargs)
    return compute


def unit_function(fn, entry):
    """The plain function whose derivatives are those of derivative function fn (its
    output a scalar): fn's "unit" variant `<name>_unit(args)` = <grad_W f, 1>; refused
    for a derivative whose output is no scalar."""
    spec = spec_of(fn)
    if spec is None:
        raise _not_supported(fn, entry)
    if spec.kind != "grad" or not spec.single or spec.has_aux:
        raise TypeError(f"{entry} needs a scalar output, but {_described(spec)} returns a "
                        "tuple; use vjp or jvp of it, or pick one entry in a function "
                        "of your own")
    cache = fn.__dict__.setdefault("thunkgrad_unit_function", [])
    compiled = _compiled(spec.fn, spec.names, None, "unit")
    if not cache or cache[0] is not compiled:       # a new rule (as tangent_function's)
        _check_generated(spec.fn, compiled.rrule)
        cache[:] = [compiled]
    return cache[0].rrule


def _check_generated(fn, generated):
    refuse_helpers(fn, generated, "a derivative of grad")


def _described(spec):
    name = getattr(spec.fn, "__qualname__", "f")
    return f"{spec.kind}({name}, wrt={spec.names if not spec.single else spec.names[0]!r})"


def _not_supported(fn, entry):
    """A derivative function other than grad's and value_and_grad's (hessian, jacfwd,
    a bound method's): refused at the differentiated function's def."""
    inner = derivative_of(fn)
    code = getattr(inner, "__code__", None)
    name = getattr(inner, "__qualname__", repr(inner))
    return TransformError(
        f"{entry} of this derivative of {name} is not supported: higher derivatives are "
        "taken of grad and value_and_grad (of a function, not a bound method)", filename=getattr(code, "co_filename", None),
        line=getattr(code, "co_firstlineno", None),
        hint="write the derivative as grad(f) of a function of your own")


provide_tangents(lambda fn, names: tangent_function(fn, names) if spec_of(fn) else None)
forward_api.DERIVATIVES.update(is_derivative=lambda fn: derivative_of(fn) is not None,
                               jvp=jvp_of, call=call_tangent,
                               prepared=prepared_jvp_of)
