"""What `grad(f, lowering="numba")` and `value_and_grad(f, lowering="numba")` run per call:
the plain lowering's function (public/plain_gradient.py) jitted with `numba.njit`, its
runtime helpers given numba overloads (runtime/numba_helpers.py), one jitted function per
compiled plain function, compiled by numba on its first call with those argument types.

The policy (README, "A compiled backend: numba"):
- numba not installed: `grad(f, lowering="numba")` raises ImportError saying how to
  install it (`pip install thunkgrad[numba]`), never a silent slow path.
- numba cannot compile a function (an untyped global, a helper without an overload for
  these types, a construct numba has not got): the plain lowering runs in Python instead,
  the same function un-jitted, with one warning (NumbaFallbackWarning) naming numba's
  reason in two lines; it is not tried again for those argument types.
- a value numba would compute with differently from Python and NumPy: the plain lowering
  in Python for that call, with one warning naming it. Those are an argument that is an
  array of another dtype than float64 (numba promotes float32 with a Python float to
  float64, NumPy keeps float32), a 0-d array, an int of magnitude 2 ** 21 or more, or
  anything not a float or an int (a list, a tuple, an object); an int of that size read
  from a global or a closure; integer arithmetic in the compiled code that could outgrow
  64 bits (numba's ints wrap, Python's grow: runtime/numba_integers.py, scanned after
  each compilation); on the first jitted call for each argument kinds, values that differ
  from the plain lowering's in Python (whose scalar types numba's results then take).
- a compiled helper meeting values its overload does not cover (two shapes that differ
  where it assumed them equal): it raises `Uncompiled` and that call runs in Python; so
  does a call whose jitted code raised anything else (numba raises ZeroDivisionError
  for a float divided by 0.0 where NumPy's float64 gives inf): Python's answer, a value
  or its error at the user's line, is the one returned.
- a function calling the `math` module runs in Python (numba returns nan where
  `math.log(-1.0)` raises).
"""
import threading
import warnings

import numpy as np

from .gradient_function import GradientFunction
from .plain_gradient import PlainGradient

SMALL_INT = 2 ** 21      # runtime.numba_integers.SMALL_INT: two such factors fit 64 bits

INSTALL = "pip install thunkgrad[numba]"
_LOCK = threading.Lock()


class NumbaFallbackWarning(RuntimeWarning):
    """lowering="numba" ran the plain lowering in Python instead (the message says why)."""


def numba_helpers():
    """runtime.numba_helpers (importing numba), or ImportError saying how to install it."""
    try:
        import numba  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"lowering='numba' needs numba, which is not installed: {INSTALL} "
                          "(or lowering='plain': the same function, not jitted)") from exc
    from runtime import numba_helpers as helpers
    return helpers


class NumbaGradient(PlainGradient):
    """PlainGradient whose plain function runs jitted where numba compiles it."""

    def __init__(self, fn, wrt, policy):
        numba_helpers()                  # not installed: said now, at grad(...)
        super().__init__(fn, wrt, policy)

    def run(self, rule, args, kwargs):
        helpers = numba_helpers()
        jitted = _jitted(rule, helpers)
        kinds = argument_kinds(args, kwargs)
        why = next((f"an argument numba would compute with differently: {kind}"
                    for kind in kinds if isinstance(kind, str)), None) or jitted.unfit()
        if why is None and kinds not in jitted.refused:
            count = len(jitted.function.overloads)
            try:
                result = jitted.function(1.0, *args, **kwargs)
                jitted.compiled.add(kinds)
                why = jitted.integer_growth() or self._checked(rule, args, kwargs, kinds,
                                                               jitted, result)
                if why is None:
                    return _typed(result, jitted.types[kinds])
            except helpers.Uncompiled:
                why = "a compiled helper met shapes it does not cover"
            except Exception as exc:    # noqa: BLE001 - numba's refusal, or a run's error
                why = _failure(exc, helpers, kinds in jitted.compiled or
                               len(jitted.function.overloads) > count)
            if not why.startswith(("a compiled helper", "numba's code raised")):
                jitted.refused.add(kinds)
        if why is not None and why not in jitted.warned:
            jitted.warned.add(why)
            self._warn(why)
        return super().run(rule, args, kwargs)

    def _checked(self, rule, args, kwargs, kinds, jitted, result):
        """On the first jitted call for these argument kinds, the plain lowering's own
        answer too: the types to give numba's results (numba returns a float where NumPy
        gives np.float64), and why not to jit where numba's values differ beyond rounding."""
        if kinds in jitted.types:
            return None
        value, cotangents = super().run(rule, args, kwargs)
        if not _close((value, *cotangents), (result[0], *result[1])):
            return "numba's values differ from Python's on the first call"
        jitted.types[kinds] = (type(value), tuple(type(c) for c in cotangents))
        return None

    def _warn(self, why):
        name = getattr(self.fn, "__qualname__", repr(self.fn))
        warnings.warn(f"lowering='numba': the gradient of {name} runs the plain lowering in "
                      f"Python (the same values, not jitted): {why}",
                      NumbaFallbackWarning, stacklevel=5)


def _close(expected, got):
    """Each of numba's results as Python's but for rounding (numba sums np.sum in order,
    NumPy pairwise), of the same shape; None as None."""
    for e, g in zip(expected, got):
        if (e is None) != (g is None) or np.shape(e) != np.shape(g):
            return False
        if e is not None and not np.allclose(g, e, rtol=1e-9, atol=1e-12 * (
                1 + float(np.max(np.abs(e), initial=0.0))), equal_nan=True):
            return False
    return len(expected) == len(got)


def _typed(result, types):
    """numba's (value, cotangents) with the scalar types the plain lowering gave."""
    value, cotangents = result
    kinds, kind_of = types[1], types[0]
    return (_as(value, kind_of), tuple(_as(c, k) for c, k in zip(cotangents, kinds)))


def _as(value, kind):
    if kind in (float, np.float64) and type(value) in (float, np.float64):
        return kind(value)
    return value


def _failure(exc, helpers, compiled):
    """Why a jitted call failed: numba refusing to compile (not compiled for these types,
    or one of its errors), or the compiled code raising (Python's answer is taken then:
    a value, or its error at the user's line)."""
    if isinstance(exc, helpers.COMPILE_ERRORS) or not compiled:
        return f"numba could not compile it:\n  {helpers.reason(exc)}"
    return f"numba's code raised {type(exc).__name__}"


def _jitted(rule, helpers):
    """rule.rrule jitted (helpers.Jitted, kept on the function: it lives as long as the
    rule), made again where a global or closure value it reads is no longer the one numba
    froze into it (numba compiles on the first call)."""
    found = getattr(rule.rrule, "thunkgrad_numba", None)
    if found is None or not found.current():
        with _LOCK:
            found = rule.rrule.thunkgrad_numba = helpers.Jitted(rule.rrule)
    return found


def argument_kinds(args, kwargs):
    """Per argument, its kind as numba types it (a key of Jitted.refused), or a string saying
    why numba would compute with it differently from Python and NumPy."""
    return tuple(_kind(v) for v in args) + tuple((k, _kind(v)) if not isinstance(
        _kind(v), str) else _kind(v) for k, v in sorted(kwargs.items()))


def _kind(value):
    kind = type(value)
    if kind is float or kind is np.float64:
        return kind
    if kind is np.ndarray:
        if value.dtype != np.float64:
            return f"an array of {value.dtype} (numba's promotion differs from NumPy's)"
        if value.ndim == 0:
            return "a 0-d array (numba makes a float of what NumPy keeps an array)"
        return (value.ndim, value.flags.c_contiguous, value.flags.writeable)
    if isinstance(value, np.integer) and kind is not np.int64:
        return (f"a {kind.__name__} (NumPy computes it in {value.dtype.itemsize * 8} bits, "
                "numba in 64; pass an int)")
    if (kind is int or kind is np.int64) and abs(int(value)) < SMALL_INT:
        return kind
    if kind is int or isinstance(value, np.integer):
        return (f"the integer {value!r} (numba computes in 64 bits what Python does "
                "unbounded; pass a float)")
    return f"a {kind.__name__} (only floats, small ints and float64 arrays are jitted)"


__all__ = ["NumbaGradient", "NumbaFallbackWarning", "numba_helpers", "INSTALL"]


def gradient_for(plain, wrt, policy, has_aux, lowering):
    """The gradient computation of grad and value_and_grad for this lowering."""
    if lowering in ("plain", "numba"):
        return (PlainGradient if lowering == "plain" else NumbaGradient)(plain, wrt, policy)
    return GradientFunction(plain, wrt, policy, has_aux)
