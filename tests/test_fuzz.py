"""Differential fuzzing: random programs, compiled under every policy and judged against
the primal and central finite differences (tests/fuzz/oracle.py).

Each program class (tests/fuzz/classes.py) must give, for every program, the primal's
value and gradient, or a TransformError before generated code runs. Each class runs a
fixed share of programs (the same on every run, so CI meets no new program) and a small
random share whose seed the session prints (tests/fuzz/ci.py for the knobs); a failure
is shrunk for at most THUNKGRAD_FUZZ_SHRINK_SECONDS and printed with its replay command
(python -m tests.fuzz.campaign --replay class:seed). Thousands of programs in parallel:
`make fuzz` (tests/fuzz/campaign.py). A failure found becomes a named case in
tests/corpus/fuzz_found.py and tests/fuzz/findings.py (see docs/fuzz_findings.md).
"""
import collections
import os

import pytest

from tests.fuzz import ci
from tests.fuzz.campaign import run_one
from tests.fuzz.classes import make_case, parse_classes
from tests.fuzz.oracle import judge
from tests.fuzz.shrink import shrink

SELECTED = parse_classes(os.environ.get("THUNKGRAD_FUZZ_CLASSES"))
SEED = ci.RANDOM_SEED                                   # (printed by tests/conftest.py)


@pytest.mark.parametrize("share", [s[0] for s in ci.shares()])
@pytest.mark.parametrize("cls", SELECTED)
def test_class_programs_match_the_primal(cls, share, record_property):
    _, first, count = next(s for s in ci.shares(cls) if s[0] == share)
    failures = []
    tally = collections.Counter()          # outcome -> count (summed by tests/conftest.py)
    for k in range(count):
        label, verdict, description = run_one(f"{cls}:{first + k}")
        tally[verdict.outcome] += 1
        if verdict.outcome in ("failed", "invalid"):
            failures.append((first + k, f"{verdict.outcome}: {verdict.kind}\n{verdict.detail}"
                                        f"\n{description}"))
    record_property("fuzz_tally", (cls, dict(tally)))
    counts = ", ".join(f"{n} {o}" for o, n in sorted(tally.items()))
    assert not failures, (f"{len(failures)} of {count} {cls} programs failed ({share} share, "
                          f"seed {first}; {counts}):\n\n" + "\n\n".join(
                              text for _, text in failures[:3]) + _shrunk(cls, failures[0][0]))


def _shrunk(cls, seed):
    """The first failure, shrunk for at most ci.SHRINK_SECONDS."""
    try:
        small = shrink(make_case(cls, seed), seconds=ci.SHRINK_SECONDS)
    except Exception as exc:  # noqa: BLE001  (the report must not hide the failure)
        return f"\n\n(shrinking failed: {type(exc).__name__}: {exc})"
    verdict = judge(small)
    return (f"\n\nshrunk in at most {ci.SHRINK_SECONDS:.0f} s:\n{small.describe()}\n"
            f"{verdict.outcome}: {verdict.kind}")
