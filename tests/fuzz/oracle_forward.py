"""The forward_mode class's oracle (issue 20): jvp and hvp of another class's programs.

    jvp(f, args, t)   value = the primal's; tangent = central differences of f along t
                      (every argument moved at once, float64); for a scalar output also
                      <grad, t>, grad the compiled reverse gradient (when not refused)
    hvp(f, args, (v,), wrt=k), scalar outputs, each argument k (float64 programs), by
                      hvp's default route (auto since session 38) and by
                      route="forward_over_reverse":
                      central differences of the compiled reverse gradient along v, and
                      <v, H v> against the second difference of f along v (independent
                      of the compiler); skipped where two step sizes disagree (a kink)

Outcomes as oracle.py's: refused is a TransformError before generated code runs (jvp's, or
hvp's for a scalar output; forward over reverse refusing where the default route
passed is noted, not failed); a wrong value, tangent or product, a crash, a
TransformError from generated code or an internal compiler error fails.
"""
import traceback

import numpy as np

import transform
from transform import TransformError
from tests.fd import close

from .oracle import (FLOAT32_ATOL, FLOAT32_RTOL, Verdict, _copies, _failed, _in_float64,
                     _inside_generated, _shared_augmented, judge_module, unjudgeable)
from .runner import ATOL, RTOL

H_JVP, H_HVP, H_SECOND = 1e-6, 1e-5, 1e-4
FR = "forward_over_reverse"


def judge_forward(case):
    return judge_module(case, _forward_call)


def _forward_call(case, f, args, phase):
    def primal(*given):
        return f(*_copies(given))
    if case.raises or case.data or case.options:
        return Verdict("skipped", "raises or takes *args" if not case.raises else "raises")
    try:
        with np.errstate(all="ignore"):
            out = primal(*args)
    except Exception as exc:  # noqa: BLE001
        return Verdict("invalid", "primal raises", f"{type(exc).__name__}: {exc}")
    unfit = unjudgeable(case, primal, args, out, phase)
    if unfit:
        return unfit
    reference = _in_float64(args)
    rng = np.random.default_rng(case.seed + 7)
    tangents = [_direction(rng, a) for a in args]
    verdict = _judge_jvp(case, f, primal, args, reference, tangents, out)
    if verdict.outcome != "passed" or np.ndim(out) != 0 or _float32(case):
        return verdict
    judged = "hvp judged"
    for k in range(len(args)):
        verdict = _judge_hvp(case, f, primal, args, reference, k, tangents[k])
        if verdict.outcome == "refused":     # (jvp passed: counted apart, campaign notes)
            return Verdict("passed", "hvp refused", verdict.detail)
        if verdict.outcome != "passed":
            return verdict
        verdict = _judge_hvp(case, f, primal, args, reference, k, tangents[k], FR)
        if verdict.outcome == "refused":     # the default route's judged: go on
            judged = "hvp judged (forward over reverse refused)"
        elif verdict.outcome != "passed":
            return verdict
    return Verdict("passed", judged)


def _direction(rng, a):
    if isinstance(a, np.ndarray):
        return rng.standard_normal(a.shape).astype(a.dtype)
    return float(rng.standard_normal())


def _float32(case):
    return any(kind.startswith("t32:") for _, kind in case.params)


def _tolerances(case):
    return (FLOAT32_RTOL, FLOAT32_ATOL) if _float32(case) else (RTOL, ATOL)


def _refusal(exc, what):
    if _inside_generated(exc) and _resolved_late(exc) and \
            "internal compiler error" not in str(exc):
        # a call forward mode resolves when it runs (call_jvp: a class, a callable value,
        # a helper compiled then: a generator function's `yield`), at the user's line
        return Verdict("refused", "refused late", f"{what}: when it ran: "
                       f"{str(exc).splitlines()[0]}")
    if _inside_generated(exc):
        return _failed("TransformError inside generated code", what, exc)
    if "internal compiler error" in str(exc):
        return _failed("internal compiler error", what, exc)
    return Verdict("refused", "refused", f"{what}: {str(exc).splitlines()[0]}")


def _resolved_late(exc):
    # call_jvp, or container_method: a `.sum()`/`.get()` the source does not resolve, run
    # as a dict's, list's or tuple's method and refused at the user's line for another
    # receiver (session 33 (jvps); compile-time refused before); or a refusal the
    # compiler made at the user's line for generated code to raise when it runs
    # (forward/refusals.refusal_when_run: `.copy()` of a user object, forward_mode:36792)
    return getattr(exc, "when_run", False) or any(frame.name in ("call_jvp", "container_method")
               for frame in traceback.extract_tb(exc.__traceback__))


def _judge_jvp(case, f, primal, args, reference, tangents, out):
    try:
        with np.errstate(all="ignore"):
            value, tangent = transform.jvp(f, _copies(args), _copies(tangents))
    except TransformError as exc:
        return _refusal(exc, "jvp")
    except TypeError as exc:
        if _shared_augmented(exc):      # run-time `c += v` check at the user's line, as
            return Verdict("refused", "refused late",   # grad's and hvp's (forward_mode:
                           f"jvp: when it ran: {str(exc).splitlines()[0]}")  # 1579043235)
        return _failed(f"jvp crash {type(exc).__name__}", "jvp", exc)
    except Exception as exc:  # noqa: BLE001
        return _failed(f"jvp crash {type(exc).__name__}", "jvp", exc)
    rtol, atol = _tolerances(case)
    if not close(value, out, max(rtol, 1e-7), atol):
        return Verdict("failed", "jvp wrong value", f"jvp: value {value!r}, primal {out!r}")
    moved = [np.asarray(t, dtype=np.float64) if isinstance(t, np.ndarray) else t
             for t in tangents]
    want = _central(lambda h: primal(*_along(reference, moved, h)), H_JVP)
    if not close(np.asarray(tangent, dtype=float), want, rtol, atol):
        return Verdict("failed", "wrong jvp",
                       f"jvp: tangent {tangent!r}, finite differences {want!r}")
    if np.ndim(out) == 0:
        return _against_grad(case, f, args, tangents, tangent)
    return Verdict("passed")


def _against_grad(case, f, args, tangents, tangent):
    """<grad, t> of the compiled reverse gradient, when reverse mode compiles f."""
    try:
        with np.errstate(all="ignore"):
            grads = transform.grad(f, wrt=tuple(range(len(args))))(*_copies(args))
    except Exception:  # noqa: BLE001  (reverse mode's own verdicts are the other classes')
        return Verdict("passed")
    grads = grads if isinstance(grads, tuple) else (grads,)
    terms = [np.asarray(g, dtype=float) * np.asarray(t, dtype=float)
             for g, t in zip(grads, tangents) if g is not None]
    want = float(sum(np.sum(t) for t in terms))
    scale = 1.0 + float(sum(np.sum(np.abs(t)) for t in terms))
    rtol = FLOAT32_RTOL if _float32(case) else 1e-8
    if abs(float(tangent) - want) > rtol * scale:
        return Verdict("failed", "jvp is not <grad, t>",
                       f"jvp: tangent {float(tangent)!r}, <grad, t> {want!r}")
    return Verdict("passed")


def _judge_hvp(case, f, primal, args, reference, k, v, route=None):
    """hvp wrt argument k along v by `route` (None: hvp's default; FR: forward over
    reverse, its own code: session 37's wrong hvp came from it alone)."""
    what = f"hvp wrt={k}" + (f" route={route}" if route else "")
    try:
        with np.errstate(all="ignore"):
            hv = transform.hvp(f, _copies(args), (_copies([v])[0],), wrt=k, route=route)
    except TransformError as exc:
        return _refusal(exc, what)
    except TypeError as exc:
        if _shared_augmented(exc):      # run-time `c += v` check at the user's line (oracle.py)
            return Verdict("refused", "refused late", f"{what}: when it ran: "
                           f"{str(exc).splitlines()[0]}")
        return _failed(f"hvp crash {type(exc).__name__}", what, exc)
    except Exception as exc:  # noqa: BLE001
        return _failed(f"hvp crash {type(exc).__name__}", what, exc)
    hv = np.asarray(hv, dtype=float)
    if np.shape(hv) != np.shape(v):
        return Verdict("failed", "hvp shape", f"{what}: shape {np.shape(hv)}, "
                                              f"argument {np.shape(v)}")
    moved = [v if j == k else 0.0 * np.asarray(a, dtype=float) if isinstance(a, np.ndarray)
             else 0.0 for j, a in enumerate(reference)]
    second = [_central2(lambda h: primal(*_along(reference, moved, h)), step)
              for step in (H_SECOND, 2 * H_SECOND)]
    if abs(second[0] - second[1]) <= 1e-4 * (1.0 + abs(second[0])) and \
            abs(float(np.sum(hv * v)) - second[0]) > 1e-4 * (1.0 + abs(second[0])):
        return Verdict("failed", "wrong hvp", f"{what}: <v, Hv> = "
                       f"{float(np.sum(hv * v))!r}, second difference {second[0]!r}")
    verdict = _against_grad_differences(f, args, k, v, hv, what)
    verdict.value = hv
    return verdict


def _against_grad_differences(f, args, k, v, hv, what):
    """Central differences along v of the compiled reverse gradient of argument k."""
    def grad_at(h):
        moved = list(_copies(args))
        moved[k] = moved[k] + h * v
        return np.asarray(transform.grad(f, wrt=k)(*moved), dtype=float)
    try:
        with np.errstate(all="ignore"):
            wants = [_central(grad_at, step) for step in (H_HVP, 2 * H_HVP)]
    except Exception:  # noqa: BLE001  (reverse mode refuses f: the second difference judged)
        return Verdict("passed")
    if not close(wants[0], wants[1], 1e-4, 1e-6):       # too curved to judge
        return Verdict("passed")
    if not close(hv, wants[0], RTOL, ATOL):
        return Verdict("failed", "wrong hvp", f"{what}: {hv!r}, differences of "
                                              f"grad along v {wants[0]!r}")
    return Verdict("passed")


def _along(args, tangents, h):
    return [a + h * t for a, t in zip(args, tangents)]


def _central(at, h):
    with np.errstate(all="ignore"):
        return (np.asarray(at(h), dtype=float) - np.asarray(at(-h), dtype=float)) / (2 * h)


def _central2(at, h):
    with np.errstate(all="ignore"):
        return float((at(h) - 2 * at(0.0) + at(-h)) / (h * h))
