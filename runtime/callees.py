"""Differentiating a user function that a rule receives as a value (odeint's `func`).

runtime never imports transform: the compiler hands its `vjp` over here when it is
imported (transform/api.py), as it hands run-time rules its compile entry point."""
_VJP = []
_CLOSURE_VJP = []
_BODY_RULE = []
_JVP = []


def provide_jvp(call_jvp):
    """Called once by transform.forward_api with its call_jvp(fn, {position: tangent},
    *args): forward mode's run-time call of a user function."""
    _JVP[:] = [call_jvp]


def function_jvp(fn, tangents, /, *args, **kwargs):
    """(fn(*args, **kwargs), its tangent) for {position: tangent} (the arguments that
    carry one), by forward mode: the tangents of odeint's and np.piecewise's functions."""
    if not _JVP:
        raise TypeError("forward mode through a function passed to a rule needs "
                        "thunkgrad's forward mode (import transform.forward_api)")
    return _JVP[0](fn, tangents, *args, **kwargs)


def provide(vjp, closure_vjp=None, body_rule=None):
    """Called once by transform.api with its vjp(fn, *args, wrt=...), its
    closure_vjp(closure, *args, wrt=...) for closure records (runtime/closures.py) and
    body_rule(fn, wrt), a function's rule as a loop body calls it."""
    _VJP[:] = [vjp]
    _CLOSURE_VJP[:] = [closure_vjp] if closure_vjp is not None else []
    _BODY_RULE[:] = [body_rule] if body_rule is not None else []


def loop_body_rule(fn, wrt, dense=()):
    """fn's compiled rule as a loop body calls it (a checkpointed loop's step): called
    as rule(*args) -> (output, pullback), pullback(g) gives one cotangent per argument,
    computed (no Thunks); wrt: the positions carrying a derivative; dense: the positions
    of fn's returned tuple whose entries of g the caller promises are values, not None
    (its backward sweep then checks none of them)."""
    if not _BODY_RULE:
        raise TypeError("a checkpointed loop needs thunkgrad's compiler (import transform)")
    return _BODY_RULE[0](fn, tuple(wrt), tuple(dense))


def function_vjp(fn, wrt, /, *args, **kwargs):
    """(fn(*args, **kwargs), pullback) with cotangents for the positions in `wrt`
    (keyword arguments are not differentiated)."""
    if not _VJP:
        raise TypeError("differentiating a function passed to a rule needs thunkgrad's "
                        "compiler (import transform)")
    return _VJP[0](fn, wrt, *args, **kwargs)


def value_vjp(fn, wrt, /, *args, **kwargs):
    """(fn(*args, **kwargs), pullback) where pullback(g) gives fn's own cotangent first
    (a closure record's: the cotangents of the values it read; None for a plain
    function), then those of the positions in `wrt` (values, not thunks)."""
    from .closures import Closure
    if not isinstance(fn, Closure):
        out, pullback = function_vjp(fn, wrt, *args, **kwargs)
        return out, lambda g: (None,) + tuple(pullback(g))
    if not _CLOSURE_VJP:
        raise TypeError("differentiating a closure passed to a rule needs thunkgrad's "
                        "compiler (import transform)")
    return _CLOSURE_VJP[0](fn, wrt, *args, **kwargs)


def tangent_vjp(fn, tangents, g, /, *args, **kwargs):
    """Reverse mode over forward mode's call of fn (call_jvp's rule, transform/
    forward_reverse.py), the tangent output weighted by g: (fn's own cotangent, the
    tangents' {key: cotangent}, the arguments' cotangents by position). np.piecewise's
    second derivatives (runtime/rules/piecewise_second.py)."""
    from .registry import lookup
    from .thunks import unthunk
    if not _JVP or lookup(_JVP[0]) is None:
        raise TypeError("reverse mode over forward mode through a function passed to a "
                        "rule needs thunkgrad's compiler (import transform)")
    _, pullback = lookup(_JVP[0]).rrule(fn, tangents, *args, **kwargs)
    own, t_cots, *cots = pullback((None, g))
    return unthunk(own), {k: unthunk(c) for k, c in (t_cots or {}).items()}, \
        [unthunk(c) for c in cots]
