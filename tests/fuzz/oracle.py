"""The fuzzer's oracle: what a compiled program must do, and the verdict when it does not.

    judge(case) -> Verdict(outcome, kind, detail)

f is called with the case's inputs (differentiated), then Case.data and Case.options (f's
*args and **kwargs, not differentiated); outcome is one of
    passed    value = the primal's, gradient = central finite differences of the primal,
              under every policy, and no argument changed
    refused   transform.TransformError raised before generated code ran (no traceback
              frame in a file named "<thunkgrad ...>"); also the run-time check of a
              shared `c += v` whose array-ness only shows when it runs (a TypeError naming
              the user's line, before the write; see _shared_augmented)
    skipped   the program is not smooth enough for finite differences to judge it
              (runner._smooth_enough; branch margins for grammar.py programs) or its
              value is not finite and moderate
    failed    anything else: a crash, a TransformError from inside generated code or
              saying "internal compiler error" (issue 16: never for user code), a wrong
              value, a wrong gradient, a mutated argument
    invalid   the primal itself raises (a generator bug, not a compiler bug)
`kind` names the failure's shape for grouping (e.g. "crash UnboundLocalError",
"wrong gradient"); globals a case rebinds are changed between two judged calls.
"""
import contextlib
import sys
import traceback
from dataclasses import dataclass

import numpy as np

import transform
from transform import TransformError
from transform.public import cache

from .checkpoint_reference import against_reference, checkpoint_refusal, compiled_by_driver
from .runner import ATOL, LIMIT, MARGIN, POLICIES, RTOL, _smooth_enough, load
from tests.fd import close, numerical_grad

FLOAT32_RTOL, FLOAT32_ATOL = 1e-3, 1e-5     # float32 has 24 bits: about 6e-8 per rounding


@dataclass
class Verdict:
    outcome: str
    kind: str = ""
    detail: str = ""


def judge(case):
    if case.oracle == "forward":
        from .oracle_forward import judge_forward
        return judge_forward(case)
    if case.oracle == "hvp_routes":
        from .oracle_routes import judge_routes
        return judge_routes(case)
    if case.oracle == "numba_lowering":
        from .oracle_numba import judge_numba
        verdict = judge_numba(case)
    elif case.oracle == "plain_lowering":
        from .oracle_plain import judge_plain
        verdict = judge_plain(case)
    else:
        verdict = _judge(case)
    if case.must_refuse and verdict.outcome == "passed":
        return Verdict("failed", "not refused", f"{case.must_refuse} was not refused")
    return verdict


def _judge(case):
    return judge_module(case, _judge_call)


def judge_module(case, judge_call):
    """Import the case's module and judge its f with judge_call(case, f, args, phase),
    once and again after each statement of Case.rebinds (run in the module): the first
    verdict other than passed, else the last."""
    try:
        module = load(case.source)
    except Exception as exc:  # noqa: BLE001  (a generated module that does not import)
        return Verdict("invalid", "module raises", f"{type(exc).__name__}: {exc}")
    try:
        verdict = Verdict("passed")
        for phase, statement in enumerate([None, *case.rebinds]):
            if statement is not None:
                exec(statement, module.__dict__)        # noqa: S102  (generated, printed)
            verdict = judge_call(case, module.f, case.inputs(), phase)
            if verdict.outcome != "passed":
                if phase:
                    verdict.detail = f"after `{statement}`: {verdict.detail}"
                return verdict
        return verdict
    finally:
        sys.modules.pop(module.__name__, None)


def _judge_call(case, f, args, phase, lowering=None, policies=POLICIES):
    """The verdict on f at args under `policies` (lowering: value_and_grad's option;
    "plain" judges scalar outputs only, the plain lowering offering no vjp)."""
    def primal(*given):
        return f(*_copies(given), *case.data, **case.options)
    try:
        with np.errstate(all="ignore"):
            out = primal(*args)
    except Exception as exc:  # noqa: BLE001
        if case.raises == type(exc).__name__:
            return _judge_raising(case, f, args, exc, lowering, policies)
        return Verdict("invalid", "primal raises", f"{type(exc).__name__}: {exc}")
    if case.raises:
        return Verdict("invalid", "primal does not raise", f"{case.raises} expected")
    unfit = unjudgeable(case, primal, args, out, phase)
    if unfit:
        return unfit
    if lowering in ("plain", "numba") and np.ndim(out) != 0:
        return Verdict("skipped", "not a scalar output (lowering='plain' offers no vjp)")
    reference = _in_float64(args)
    weights = None if np.ndim(out) == 0 else \
        np.random.default_rng(0).normal(size=np.shape(out))
    expected = _finite_differences(primal, reference, weights)
    verdicts = []
    if "general_rule" in case.productions:  # the rule without argument shapes, first
        with general_rules():               # (a specialised rule compiled is found again)
            verdicts = [_judge_policy(case, f, args, policy, out, weights, expected, lowering)
                        for policy in policies]
    verdicts += [_judge_policy(case, f, args, policy, out, weights, expected, lowering)
                 for policy in policies]
    for outcome in ("failed", "refused"):
        found = [v for v in verdicts if v.outcome == outcome]
        if found:
            return found[0]
    kinds = sorted({v.kind for v in verdicts if v.kind})    # (checkpointed: how close)
    return Verdict("passed", kinds[-1] if kinds else "")


def _judge_raising(case, f, args, expected, lowering=None, policies=POLICIES):
    """A program Python stops with `expected` (Case.raises, e.g. unpacking 3 values into
    2 names): under every policy the compiled code raises the same type and message."""
    for policy in policies:
        try:
            with np.errstate(all="ignore"):
                transform.value_and_grad(f, wrt=tuple(range(len(args))), policy=policy,
                                         **_lowered(lowering))(
                    *_copies(args), *case.data, **case.options)
        except TransformError as exc:
            return Verdict("refused", "refused", f"{policy}: {str(exc).splitlines()[0]}")
        except Exception as exc:  # noqa: BLE001
            if type(exc) is type(expected) and str(exc) == str(expected):
                continue
            return _failed(f"not Python's {type(expected).__name__}", policy, exc)
        return Verdict("failed", f"no {type(expected).__name__}",
                       f"{policy}: a gradient, where Python raises {expected!r}")
    return Verdict("passed")


@contextlib.contextmanager
def general_rules():
    """Every rule compiled meanwhile is the general one (no specialisations left)."""
    kept, cache.MAX_SPECIALISATIONS = cache.MAX_SPECIALISATIONS, 0
    try:
        yield
    finally:
        cache.MAX_SPECIALISATIONS = kept


def unjudgeable(case, primal, args, out, phase):
    """Verdict skipped when finite differences cannot judge the program at args (its
    value `out` not finite and moderate, a branch within their reach, too curved for
    them), else None."""
    values = np.asarray(out, dtype=float)
    if not (np.all(np.isfinite(values)) and np.all(np.abs(values) < LIMIT)):
        return Verdict("skipped", "not finite or too large")
    if phase == 0 and case.probe_source and not _margins_ok(case, args):
        return Verdict("skipped", "near a branch")
    if not _smooth_enough(primal, _in_float64(args)):
        return Verdict("skipped", "not smooth")
    return None


def _margins_ok(case, args):
    probe = load(case.probe_source)
    try:
        with np.errstate(all="ignore"):
            probe.f(*_copies(args))
        return min(probe.MARGINS, default=1.0) > MARGIN
    finally:
        sys.modules.pop(probe.__name__, None)


def _finite_differences(primal, args, weights):
    def scalar(*given):
        out = np.asarray(primal(*given), dtype=float)
        return np.sum(out) if weights is None else np.sum(out * weights)
    with np.errstate(all="ignore"):
        return [numerical_grad(scalar, list(args), k) for k in range(len(args))]


def _lowered(lowering):
    return {} if lowering is None else {"lowering": lowering}


def _judge_policy(case, f, args, policy, primal_out, weights, expected, lowering=None):
    given, kept = _copies(args), _copies(args)
    wrt = tuple(range(len(args)))
    try:
        with np.errstate(all="ignore"):
            if weights is None:
                value, grads = transform.value_and_grad(f, wrt=wrt, policy=policy,
                                                        **_lowered(lowering))(
                    *given, *case.data, **case.options)
            else:
                value, pullback = transform.vjp(f, *given, *case.data, wrt=wrt, policy=policy,
                                                **case.options)
                grads = pullback(weights)
    except TransformError as exc:
        if _inside_generated(exc) and compiled_by_driver(exc):
            return Verdict("refused", "refused late",
                           f"{policy}: refused compiling a checkpointed step: "
                           f"{str(exc).splitlines()[0]}")
        if _inside_generated(exc):
            return _failed("TransformError inside generated code", policy, exc)
        if "internal compiler error" in str(exc):     # a compiler bug, not a refusal
            return _failed("internal compiler error", policy, exc)
        return Verdict("refused", "refused", f"{policy}: {str(exc).splitlines()[0]}")
    except TypeError as exc:
        if checkpoint_refusal(exc):         # a checkpointed loop's, when the loop runs
            return Verdict("refused", "refused",
                           f"{policy}: refused when it ran: {str(exc).splitlines()[0]}")
        if _shared_augmented(exc):          # the one refusal that can only come late
            return Verdict("refused", "refused",
                           f"{policy}: refused when it ran: {str(exc).splitlines()[0]}")
        return _failed(f"crash {type(exc).__name__}", policy, exc)
    except Exception as exc:  # noqa: BLE001  (every crash is a finding)
        return _failed(f"crash {type(exc).__name__}", policy, exc)
    verdict = _compare(case, policy, given, kept, value, primal_out, grads, expected)
    if verdict.outcome == "passed" and case.reference_source:
        return against_reference(case, policy, args, weights, value, grads)
    return verdict


def _compare(case, policy, given, kept, value, primal_out, grads, expected):
    names = [name for name, _ in case.params]
    for name, now, before in zip(names, given, kept):
        if not np.array_equal(now, before):
            return Verdict("failed", "mutated argument",
                           f"{policy}: argument {name} changed from {before!r} to {now!r}")
    if not close(value, primal_out, *value_tolerances(case)):
        return Verdict("failed", "wrong value",
                       f"{policy}: value {value!r}, primal {primal_out!r}")
    for name, got, want in zip(names, grads, expected):
        got = np.asarray(got, dtype=float) if got is not None else np.zeros_like(want)
        if not close(got, want, *tolerances(case)):
            return Verdict("failed", "wrong gradient",
                           f"{policy}: d/d{name} = {got!r}, finite differences {want!r}")
    return _unshared(policy, names, given, grads)


def _unshared(policy, names, given, grads):
    """Each gradient array is the caller's own: it shares no memory with another gradient
    or an argument (writing into one, as an optimiser does, changes nothing else)."""
    arrays = [(f"d/d{n}", g) for n, g in zip(names, grads) if isinstance(g, np.ndarray)]
    others = arrays + [(n, a) for n, a in zip(names, given) if isinstance(a, np.ndarray)]
    for k, (name, g) in enumerate(arrays):
        for other, a in others[k + 1:]:
            if g.size and a.size and np.shares_memory(g, a):
                return Verdict("failed", "aliased result",
                               f"{policy}: {name} shares memory with {other}")
    return Verdict("passed")


def tolerances(case):
    """(rtol, atol) of the gradient check: looser for a program with float32 arguments,
    whose compiled gradient rounds in float32 while the reference runs in float64."""
    if any(kind.startswith("t32:") for _, kind in case.params):
        return FLOAT32_RTOL, FLOAT32_ATOL
    return RTOL, ATOL


def value_tolerances(case):
    """(rtol, atol) of the value check: float32 rounding for a program with float32
    arguments. Generated code gives `h *= s` value semantics (`h = h * s`), which NumPy
    promotes to float64 where the in-place primal keeps h float32, so the compiled value
    may be the more precise one (tensors:722329; an open deviation, docs/fuzz_run.md)."""
    if any(kind.startswith("t32:") for _, kind in case.params):
        return FLOAT32_RTOL, FLOAT32_ATOL
    return 1e-7, 1e-9


def _shared_augmented(exc):
    """`c += v` where `c` turned out, when the code ran, to be an array another live name
    shares (runtime.not_shared_array): the compiler could not tell c's type, so the
    check runs with the code, before the write, naming the user's line. Counted as a
    refusal (documented in the README), not as a crash. So is `u.shape` of an object
    whose attribute may carry a derivative (runtime.attributes.array_metadata)."""
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].name in ("not_shared_array", "array_metadata")


def _inside_generated(exc):
    """Whether any frame of the traceback ran in a generated file ("<thunkgrad ...>")."""
    return any(frame.filename.startswith("<thunkgrad")
               for frame in traceback.extract_tb(exc.__traceback__))


def _failed(kind, policy, exc):
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f"{fr.filename}:{fr.lineno}: {fr.line}" for fr in reversed(frames)
                  if fr.filename.startswith("<thunkgrad")), "")
    message = str(exc).splitlines()[0] if str(exc) else ""
    return Verdict("failed", kind, f"{policy}: {type(exc).__name__}: {message[:300]}"
                   + (f"\n  at {where}" if where else ""))


def _in_float64(args):
    """The arguments with float32 arrays made float64: the reference differentiates the
    program in float64 throughout (a float32 store would round a 1e-6 step away)."""
    return [a.astype(np.float64) if isinstance(a, np.ndarray) and a.dtype == np.float32
            else a for a in args]


def _copies(args):
    return [np.array(a) if isinstance(a, np.ndarray) else a for a in args]
