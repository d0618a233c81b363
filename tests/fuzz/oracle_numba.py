"""The numba_lowering class's oracle: another class's program through
`value_and_grad(f, lowering="numba")` (README, "A compiled backend: numba"), judged as the
plain_lowering class judges it (the value, each gradient against central differences and
against the default lowering's, under loop and eager). A fallback to the plain lowering
(a NumbaFallbackWarning) passes, its kind "fallback"; a difference fails."""
import warnings

from .oracle import FLOAT32_ATOL, FLOAT32_RTOL, Verdict, _judge_call, judge_module
from .oracle_plain import PLAIN_POLICIES


def judge_numba(case):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        verdict = judge_module(case, _numba_call)
    from transform.public.numba_gradient import NumbaFallbackWarning
    fell = any(issubclass(w.category, NumbaFallbackWarning) for w in said)
    if verdict.outcome == "passed":
        return Verdict("passed", "fallback" if fell else "jitted", verdict.detail)
    return verdict


def _numba_call(case, f, args, phase):
    verdict = _judge_call(case, f, args, phase, lowering="numba", policies=PLAIN_POLICIES)
    if verdict.outcome != "passed" or case.raises:     # (raising: judged as Python's error)
        return verdict
    import numpy as np
    import transform
    from .oracle import _copies
    wrt = tuple(range(len(args)))
    with np.errstate(all="ignore"):
        want = transform.value_and_grad(f, wrt)(*_copies(args), *case.data, **case.options)
        got = transform.value_and_grad(f, wrt, lowering="numba")(
            *_copies(args), *case.data, **case.options)
    for w, g in zip((want[0], *want[1]), (got[0], *got[1])):
        narrow = np.result_type(w) in (np.float32, np.complex64)   # two lowerings round
        rtol, atol = (FLOAT32_RTOL, FLOAT32_ATOL) if narrow else (1e-9, 1e-12)
        if np.shape(w) != np.shape(g) or not np.allclose(g, w, rtol=rtol, atol=atol,
                                                         equal_nan=True):
            return Verdict("failed", "numba differs from the default lowering", f"{w!r} {g!r}")
    return verdict
