"""Differential fuzzing: random programs (tests/fuzz/grammar.py), compiled under every
policy and checked against finite differences with transform.testing.check_grads.

`pytest tests/test_fuzz.py` runs THUNKGRAD_FUZZ_EXAMPLES programs (default 200; `make
fuzz` runs 3000); THUNKGRAD_FUZZ_SEED=<n> replays a run. A failure prints the seed, the
generated source and Hypothesis' @reproduce_failure blob. Minimise it further with
`python -m tests.fuzz.minimise <file holding the printed Program(...)>` and add it to
tests/corpus/fuzz_found.py.
"""
import os
import random
import traceback

from hypothesis import HealthCheck, assume, given, note, seed, settings

from tests.fuzz.grammar import programs
from tests.fuzz.runner import check, well_conditioned

EXAMPLES = int(os.environ.get("THUNKGRAD_FUZZ_EXAMPLES", 200))
SEED = int(os.environ.get("THUNKGRAD_FUZZ_SEED", random.SystemRandom().randrange(2 ** 32)))


@seed(SEED)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=False, database=None,
          print_blob=True, report_multiple_bugs=False,
          suppress_health_check=list(HealthCheck))
@given(programs())
def test_compiled_gradients_match_finite_differences(program):
    args = program.inputs()
    note(f"THUNKGRAD_FUZZ_SEED={SEED}; inputs: Program.inputs() with seed {program.seed}: "
         f"{args!r}")
    note("generated program:\n" + program.source())
    assume(well_conditioned(program, args))
    try:
        check(program, args)
    except Exception as exc:
        # One failure type raised from one line: Hypothesis then shrinks towards the
        # simplest failing program instead of chasing each generated file as its own bug.
        raise AssertionError("".join(traceback.format_exception(exc))) from None
