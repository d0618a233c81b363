"""What `grad` and `value_and_grad` run per call, with what can be resolved once.

The function's wrt names, parameters, filler and compiled rules by argument signature
are resolved on the first call and kept while nothing they came from changed: the rule
registry's generation and the function's `__defaults__` (a default assigned after the
first call is the one used, never the one seen first). A rule is used
while its guards hold (every name it resolved still denotes the same object).

Per call the checks stay: the wrt values are floats or float arrays (a float array or a
float scalar type is recognised without a call; anything else gets the full check), an
in-place write into a parameter's array is refused, a complex argument of a rule
compiled for real ones is refused (arrays and plain numbers are checked inline), and
`with` blocks opened by the rule are closed when it raises. A call that does not fit
(an unbound keyword, a non-scalar output) takes the general path, which says what is
wrong.
"""
import numpy as np

from runtime import registry
from runtime.contexts import close_since, open_count
from .aux import split_aux, value_pullback
from .boundary import _check_values, _is_scalar, _seed, materialise, refuse_inplace_args
from .complex_args import real_checked
from .field_reads import located_fields
from .parameters import _params, _rule_for, _unwrap, _wrt_names, positional_filler
from .memory_limit import synced, unlimited
from .recursion_room import too_deep_policy
from .unshared import owned
from ..analysis.shapes import signature_of
from ..emit import tracebacks
from ..errors import TransformError

_HOOKS = {}      # "general": the general path (fn, wrt, policy, args, kwargs, has_aux)
                 # -> (out, grads);
                 # "compiled": transform.api.compiled


def provide(general, compiled):
    """transform.api hands over its general path and its compile cache."""
    _HOOKS["general"], _HOOKS["compiled"] = general, compiled


# types of a float scalar: values of them pass _check_values as they are
_FLOAT_SCALARS = frozenset({float, np.float64, np.float32, np.float16})
# types that are never complex and hold no entries (a complex argument check passes them)
_REAL_PLAIN = frozenset({float, int, bool, type(None), np.float64, np.float32, np.float16,
                         np.int64, np.int32, np.bool_})
# the seed of a scalar output by its type (what _seed gives, made once)
SEEDS = {float: 1.0, np.float64: np.float64(1.0), np.float32: np.float32(1.0),
         np.float16: np.float16(1.0)}


def wrt_checked(names, values):
    """_check_values, with a float array or a float scalar recognised inline."""
    for value in values:
        kind = type(value)
        if kind is np.ndarray:
            if value.dtype.kind != "f":
                return _check_values(names, values)
        elif kind not in _FLOAT_SCALARS:
            return _check_values(names, values)


def plainly_real(args):
    """True when every argument is a non-complex ndarray or a plain real number (no
    complex check needed); False when some argument needs the full check."""
    for a in args:
        kind = type(a)
        if kind is np.ndarray:
            if a.dtype.kind == "c":
                return False
        elif kind not in _REAL_PLAIN:
            return False
    return True


class GradientFunction:
    """grad's work per call; names, parameters and the compiled rule resolved once.

    The resolved state is built whole, then published with one assignment: threads
    making the first calls at once each see either no state or a complete one."""

    def __init__(self, fn, wrt, policy, has_aux=False):
        self.fn, self.wrt, self.policy, self.has_aux = fn, wrt, policy, has_aux
        self.state = None

    def _resolve(self):
        plain, default_policy = _unwrap(self.fn)
        names, single = _wrt_names(plain, self.wrt)
        params = _params(plain)
        positions = [params.index(n) for n in names if n in params]
        # the fast path: compiled source, every wrt a positional parameter
        arity = None if _rule_for(plain) is not None or len(positions) != len(names) \
            else len(params)
        fill = positional_filler(plain) if arity is not None else None
        self.state = state = Resolved(plain, self.policy or default_policy, names, single,
                                      params, positions, arity, fill)
        return state

    def __call__(self, args, kwargs):
        state = self.state
        if state is not None and state.copy:
            synced(state.plain)             # the function's code replaced: the copy's too
        if state is None or state.generation != registry.generation or \
                getattr(state.plain, "__defaults__", None) is not state.defaults:
            state = self._resolve()     # a rule registered later, a default assigned
        if kwargs or len(args) != state.arity:
            filled = state.fill(args, kwargs) if state.fill is not None else None
            if filled is None:
                return self._general(args, kwargs)
            args, kwargs = filled, {}         # defaults and keywords as positions
        wrt_values = [args[k] for k in state.positions]
        wrt_checked(state.names, wrt_values)
        signature = signature_of(args)
        rule = state.compiled.get(signature)
        if rule is None or not rule.guards.hold():
            rule = state.rule(signature)
        if rule.inplace_args:
            refuse_inplace_args(rule, state.params, args, {})
        if rule.real_arguments and not plainly_real(args):
            real_checked(rule, args)          # a complex argument not differentiated
        out, pullback = _run(rule.rrule, args)
        aux = None
        if self.has_aux:                      # ((value, aux), gradient)
            (out, aux), pullback = split_aux(self.fn, out), value_pullback(pullback, out)
        seed = SEEDS.get(type(out))           # a float output (checked and seeded at once)
        if seed is None:
            if not _is_scalar(out):
                return self._general(args, kwargs)
            seed = _seed(out)
        with located_fields(state.plain, zip(state.names, wrt_values)):
            grads = owned(_gradients(pullback, seed, wrt_values, state), args)
        return ((out, aux) if self.has_aux else out), grads

    def _general(self, args, kwargs):
        return _HOOKS["general"](self.fn, self.wrt, self.policy, args, kwargs, self.has_aux)


def _run(rrule, args):
    """rrule(*args); `with` blocks it opened are closed when it raises."""
    mark = open_count()
    try:
        return rrule(*args)
    except TransformError as exc:     # from a rule compiled on the way (a method call):
        close_since(mark, exc)
        exc = tracebacks.at_user_line(exc)       # at the user's line, not generated code's
        raise exc.with_traceback(None) from None     # not from inside generated code
    except BaseException as exc:      # `with` blocks left by it: __exit__ runs
        close_since(mark, exc)
        raise


def _gradients(pullback, seed, wrt_values, state):
    """The pullback's cotangents, materialised like the wrt values (one, or a tuple)."""
    try:                                 # materialise forces what is still a Thunk
        cotangents = pullback(seed)
        if state.single:
            return materialise(cotangents[0], wrt_values[0])
        return tuple([materialise(c, v) for c, v in zip(cotangents, wrt_values)])
    except RecursionError:
        raise RecursionError(too_deep_policy(state.policy)) from None


class Resolved:
    """What a GradientFunction resolved, and its rules by argument signature."""

    def __init__(self, plain, policy, names, single, params, positions, arity, fill):
        self.plain, self.policy, self.names, self.single = plain, policy, names, single
        self.params, self.positions, self.arity = params, positions, arity
        self.generation = registry.generation
        self.defaults = getattr(plain, "__defaults__", None)   # what `fill` fills in
        self.compiled = {}                  # argument signature -> compiled rule
        self.fill = fill                    # (args, kwargs) -> every positional argument
        self.copy = unlimited(plain) is not None    # memory_limit's copy of a function

    def rule(self, signature):
        rule = self.compiled.get(signature)
        if rule is None or not rule.guards.hold():
            rule = _HOOKS["compiled"](self.plain, self.names, self.policy, signature=signature)
            if len(self.compiled) < 64:          # a function called with ever new shapes
                self.compiled[signature] = rule  # looks its rule up in the shared cache
        return rule

