"""The hvp_routes class's oracle: hvp on each of its routes, for another class's programs.

    hvp(f, args, (v,), wrt=k, route=r), scalar float64 programs, each argument k, each
    route r of ROUTES ("forward_over_reverse", "auto", hvp's default since session 38,
    and "reverse_over_forward", the default before): judged as oracle_forward._judge_hvp
    judges hvp (central differences of the compiled reverse gradient along v, <v, H v>
    against the second difference of f), and each route's H v against reverse over
    forward's where both ran (they must agree whichever is right: the finite differences
    cannot judge a kinky or reverse-refused program)

Outcomes: failed when a route gives a wrong product, crashes, or raises a TransformError
from generated code or an internal compiler error; else passed, its kind the outcome of
each route ("fr refused, auto passed, rf passed"; campaign prints these counts);
refused when every route refused; skipped for non-scalar, float32 or unjudgeable ones.
"""
import numpy as np

from .oracle import Verdict, _copies, _in_float64, unjudgeable
from .oracle_forward import _direction, _float32, _judge_hvp
from tests.fd import close

ROUTES = (("fr", "forward_over_reverse"), ("auto", "auto"), ("rf", "reverse_over_forward"))
_RANK = {"passed": 0, "refused": 1, "failed": 2}


def judge_routes(case):
    from .oracle import judge_module
    return judge_module(case, _routes_call)


def _routes_call(case, f, args, phase):
    def primal(*given):
        return f(*_copies(given))
    if case.raises or case.data or case.options:
        return Verdict("skipped", "raises or takes *args")
    try:
        with np.errstate(all="ignore"):
            out = primal(*args)
    except Exception as exc:  # noqa: BLE001
        return Verdict("invalid", "primal raises", f"{type(exc).__name__}: {exc}")
    if np.ndim(out) != 0 or _float32(case) or not isinstance(
            np.asarray(out).dtype.type(0), np.floating):
        return Verdict("skipped", "not a float64 scalar output")
    unfit = unjudgeable(case, primal, args, out, phase)
    if unfit:
        return unfit
    reference = _in_float64(args)
    rng = np.random.default_rng(case.seed + 11)
    outcomes, refusal = {short: "passed" for short, _ in ROUTES}, ""
    for k in range(len(args)):
        v = _direction(rng, args[k])
        verdicts = {short: _judge_hvp(case, f, primal, args, reference, k, v, route=route)
                    for short, route in ROUTES}
        failed = _failure(verdicts) or _disagreement(verdicts, k)
        if failed:
            return failed
        for short, verdict in verdicts.items():
            if _RANK[verdict.outcome] > _RANK[outcomes[short]]:
                outcomes[short] = verdict.outcome
            refusal = refusal or (verdict.detail if verdict.outcome == "refused" else "")
    if all(o == "refused" for o in outcomes.values()):
        return Verdict("refused", "refused", f"every route: {refusal}")
    return Verdict("passed", ", ".join(f"{s} {o}" for s, o in outcomes.items()))


def _failure(verdicts):
    for short, verdict in verdicts.items():
        if verdict.outcome not in ("passed", "refused"):
            return Verdict(verdict.outcome, f"{short}: {verdict.kind}",
                           f"route {short}: {verdict.detail}")
    return None


def _disagreement(verdicts, k):
    """Routes that ran must give the same H v (to differences' tolerance)."""
    ran = {s: v.value for s, v in verdicts.items() if v.outcome == "passed"}
    if "rf" not in ran:
        return None
    for short, value in ran.items():
        if short != "rf" and not close(value, ran["rf"], 1e-6, 1e-8):
            return Verdict("failed", f"{short}: hvp differs from reverse over forward's",
                           f"hvp wrt={k}: route {short} {value!r}, reverse over forward "
                           f"{ran['rf']!r}")
    return None
