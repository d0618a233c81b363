"""Differential fuzzing: random programs (tests/fuzz/grammar.py), compiled under every
policy and checked against finite differences with transform.testing.check_grads.

`pytest tests/test_fuzz.py` runs THUNKGRAD_FUZZ_EXAMPLES programs (default 200; `make
fuzz` runs 3000). THUNKGRAD_FUZZ_SEED=<n> replays a run. A failure prints the seed, the
generated source and Hypothesis' @reproduce_failure blob; minimise it and add it to
tests/corpus/fuzz_found.py.
"""
import hashlib
import importlib.util
import os
import random
import sys
import tempfile

import numpy as np
from hypothesis import HealthCheck, assume, given, note, seed, settings

from tests.fuzz.grammar import programs
from transform.testing import check_grads

EXAMPLES = int(os.environ.get("THUNKGRAD_FUZZ_EXAMPLES", 200))
SEED = int(os.environ.get("THUNKGRAD_FUZZ_SEED", random.SystemRandom().randrange(2 ** 32)))
POLICIES = ("loop", "eager", "flat", "nested")
MODULE_DIR = tempfile.mkdtemp(prefix="thunkgrad_fuzz_")
# Finite differences in float64 of values up to LIMIT: keep tolerances a little looser than
# check_grads' defaults so rounding never fails a correct gradient.
LIMIT, MARGIN = 1e3, 1e-3
RTOL, ATOL = 1e-4, 1e-6


def load(source):
    """Write `source` to a module file and import it (inspect.getsource must work).

    The module name is a hash of the source, so replaying a failing example raises from
    the same generated file and line (Hypothesis treats a moved failure as flaky).
    """
    name = "thunkgrad_fuzz_" + hashlib.sha1(source.encode()).hexdigest()[:16]
    path = os.path.join(MODULE_DIR, name + ".py")
    with open(path, "w") as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def well_conditioned(program, args):
    """Finite, moderate output, and no branch condition within reach of finite differences."""
    probe = load(program.source(instrument=True))
    with np.errstate(all="ignore"):
        out = np.asarray(probe.f(*args), dtype=float)
    margins = probe.MARGINS
    sys.modules.pop(probe.__name__, None)
    return bool(np.all(np.isfinite(out)) and np.all(np.abs(out) < LIMIT)
                and min(margins, default=1.0) > MARGIN)


@seed(SEED)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=False, database=None,
          print_blob=True, suppress_health_check=list(HealthCheck))
@given(programs())
def test_compiled_gradients_match_finite_differences(program):
    args = program.inputs()
    note(f"THUNKGRAD_FUZZ_SEED={SEED}; inputs: Program.inputs() with seed {program.seed}: "
         f"{args!r}")
    note("generated program:\n" + program.source())
    assume(well_conditioned(program, args))
    module = load(program.source())
    try:
        check_grads(module.f, *args, policies=POLICIES, rtol=RTOL, atol=ATOL)
    finally:
        sys.modules.pop(module.__name__, None)
