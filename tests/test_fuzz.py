"""Differential fuzzing: random programs, compiled under every policy and judged against
the primal and central finite differences (tests/fuzz/oracle.py).

Each program class (tests/fuzz/classes.py) must give, for every program, the primal's
value and gradient, or a TransformError before generated code runs. `pytest
tests/test_fuzz.py` runs THUNKGRAD_FUZZ_EXAMPLES programs (default 200) shared among the
classes in THUNKGRAD_FUZZ_CLASSES (default: classes.ENABLED, the ones found clean; "all",
or a comma-separated list); THUNKGRAD_FUZZ_SEED=<n> replays a run. The "grammar" class
runs through Hypothesis, which shrinks a failure and prints @reproduce_failure; the other
classes print each failing case with its replay command (python -m tests.fuzz.campaign
--replay class:seed). Thousands of programs in parallel: `make fuzz` (tests/fuzz/campaign.py).
A failure found becomes a named case in tests/corpus/fuzz_found.py (grammar programs) or
tests/fuzz/findings.py (the other classes; see docs/fuzz_findings.md).
"""
import collections
import os
import random

import pytest
from hypothesis import HealthCheck, assume, given, note, seed, settings

from tests.fuzz.campaign import run_one
from tests.fuzz.classes import parse_classes
from tests.fuzz.grammar import programs
from tests.fuzz.oracle import judge
from tests.fuzz.program import Case

EXAMPLES = int(os.environ.get("THUNKGRAD_FUZZ_EXAMPLES", 200))
SEED = int(os.environ.get("THUNKGRAD_FUZZ_SEED", random.SystemRandom().randrange(2 ** 32)))
SELECTED = parse_classes(os.environ.get("THUNKGRAD_FUZZ_CLASSES"))
PER_CLASS = max(1, EXAMPLES // len(SELECTED))
TALLY = collections.defaultdict(collections.Counter)   # class -> outcome -> count
                                                       # (printed by tests/conftest.py)


@pytest.mark.skipif("grammar" not in SELECTED, reason="grammar class not selected")
@seed(SEED)
@settings(max_examples=PER_CLASS, deadline=None, derandomize=False, database=None,
          print_blob=True, report_multiple_bugs=False,
          suppress_health_check=list(HealthCheck))
@given(programs())
def test_compiled_gradients_match_finite_differences(program):
    case = Case("grammar", SEED, program.source(), program.params, program.length,
                input_seed=program.seed, probe_source=program.source(instrument=True))
    note(f"THUNKGRAD_FUZZ_SEED={SEED}; inputs: Program.inputs() with seed {program.seed}: "
         f"{case.inputs()!r}")
    note("generated program:\n" + case.source)
    verdict = judge(case)
    TALLY["grammar"][verdict.outcome] += 1
    assume(verdict.outcome != "skipped")
    if verdict.outcome in ("failed", "invalid"):
        # One failure type raised from one line: Hypothesis then shrinks towards the
        # simplest failing program instead of chasing each generated file as its own bug.
        raise AssertionError(f"{verdict.kind}\n{verdict.detail}")


@pytest.mark.parametrize("cls", [c for c in SELECTED if c != "grammar"])
def test_class_programs_match_the_primal(cls):
    failures = []
    for k in range(PER_CLASS):
        label, verdict, description = run_one(f"{cls}:{SEED + k}")
        TALLY[cls][verdict.outcome] += 1
        if verdict.outcome in ("failed", "invalid"):
            failures.append(f"{verdict.outcome}: {verdict.kind}\n{verdict.detail}\n"
                            f"{description}")
    counts = ", ".join(f"{n} {o}" for o, n in sorted(TALLY[cls].items()))
    assert not failures, (f"{len(failures)} of {PER_CLASS} {cls} programs failed "
                          f"(THUNKGRAD_FUZZ_SEED={SEED}; {counts}):\n\n"
                          + "\n\n".join(failures[:3]))
