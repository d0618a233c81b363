"""The checkpointed_loops class's second check (gen_checkpointed.py): the marked program's
compiled value and gradient equal the unmarked program's (Case.reference_source), under
the same policy, bitwise where the operations run in the same order and within 1e-12
of the gradient's scale where they do not (chunks, the driver's sums of invariants'
cotangents). The first check, finite differences of the primal, is oracle.py's as for
every class. An unmarked program that reverse mode refuses or fails leaves the marked
one judged by finite differences alone (its own class reports it).

The driver's documented run-time refusals (runtime/checkpoint_rule.py and
runtime/checkpoint.py: a random generator reaching the loop, a step giving another value
when run again, global generators moved by the backward sweep, chunks of a non-range)
are `TypeError`s raised there, before any wrong value is returned: refusals.
"""
import sys
import traceback

import numpy as np

import transform

REL = 1e-12
_REFUSALS = ("random generator", "drew random numbers", "gave another value",
             "needs a range", "carries a function", "changes attributes")


def checkpoint_refusal(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].filename.replace("\\", "/").endswith(
        ("runtime/checkpoint_rule.py", "runtime/checkpoint.py",
         "runtime/checkpoint_objects.py")) and \
        any(r in str(exc) for r in _REFUSALS)


def compiled_by_driver(exc):
    """A TransformError raised compiling a step when the driver first runs it (the step is
    compiled then, README "Long loops in bounded memory"; e.g. a marked loop inside a
    marked loop refused): at the user's line, before any value is returned."""
    return any(fr.filename.replace("\\", "/").endswith("runtime/checkpoint_rule.py")
               for fr in traceback.extract_tb(exc.__traceback__))


def against_reference(case, policy, args, weights, value, grads):
    from .oracle import Verdict, _copies
    expected = _reference(case, policy, _copies(args), weights)
    if expected is None:
        return Verdict("passed")
    ref_value, ref_grads = expected
    names = [name for name, _ in case.params]
    if not _near(value, ref_value):
        return Verdict("failed", "checkpointed value differs",
                       f"{policy}: value {value!r}, unmarked {ref_value!r}")
    for name, got, want in zip(names, grads, ref_grads):
        if not _near(got, want):
            return Verdict("failed", "checkpointed gradient differs",
                           f"{policy}: d/d{name} = {got!r}, unmarked program's {want!r}")
    same = all(_bitwise(g, w) for g, w in zip(grads, ref_grads))
    return Verdict("passed", "bitwise to the unmarked" if same else "within 1e-12 of the unmarked")


def _bitwise(got, want):
    return got is None and want is None or got is not None and want is not None and \
        np.array_equal(np.asarray(got), np.asarray(want))


def _reference(case, policy, given, weights):
    from .runner import load
    module = load(case.reference_source)
    wrt = tuple(range(len(given)))
    try:
        with np.errstate(all="ignore"):
            if weights is None:
                return transform.value_and_grad(module.f, wrt=wrt, policy=policy)(*given)
            value, pullback = transform.vjp(module.f, *given, wrt=wrt, policy=policy)
            return value, pullback(weights)
    except Exception:  # noqa: BLE001  (judged by its own class; FD judged the marked one)
        return None
    finally:
        sys.modules.pop(module.__name__, None)


def _near(got, want):
    got = np.zeros(np.shape(want)) if got is None else np.asarray(got, dtype=float)
    want = np.zeros(np.shape(got)) if want is None else np.asarray(want, dtype=float)
    if got.shape != want.shape:
        return False
    if np.array_equal(got, want):
        return True
    scale = max(float(np.max(np.abs(want), initial=0.0)), 1e-3)
    return bool(np.all(np.abs(got - want) <= REL * scale))
