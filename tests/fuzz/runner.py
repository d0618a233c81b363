"""Running one generated Program: write it as a module, import it, check its gradients."""
import atexit
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile

import numpy as np

from tests.fd import directional
from tests.gradcheck import POLICIES, check_function
MODULE_DIR = tempfile.mkdtemp(prefix="thunkgrad_fuzz_")
if not os.environ.get("THUNKGRAD_FUZZ_KEEP"):      # set it to keep the generated modules
    atexit.register(shutil.rmtree, MODULE_DIR, ignore_errors=True)
# Finite differences in float64 of values up to LIMIT: tolerances a little looser than
# the harness's defaults, so rounding never fails a correct gradient; inputs closer than
# MARGIN to a branch threshold are skipped (finite differences would straddle the jump).
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
    try:
        with np.errstate(all="ignore"):
            out = np.asarray(probe.f(*args), dtype=float)
    finally:
        sys.modules.pop(probe.__name__, None)
    return bool(np.all(np.isfinite(out)) and np.all(np.abs(out) < LIMIT)
                and min(probe.MARGINS, default=1.0) > MARGIN) and _smooth_enough(probe.f, args)


def _smooth_enough(f, args):
    """Central differences agree at steps 2e-6 and 1e-6 along every coordinate (of up to
    16 per argument): their gap estimates the error of the reference's 1e-6 difference, which
    must stay far below the tolerance. Else the program is too curved (sin of 3e5, say)
    for finite differences to judge a gradient."""
    with np.errstate(all="ignore"):
        weights = np.random.default_rng(0).normal(
            size=np.shape(np.asarray(f(*args), dtype=float)))
        for k, a in enumerate(args):
            if not _is_float(a):
                continue
            for index in list(np.ndindex(np.shape(a)))[:16]:
                coarse, fine = (_slope(f, args, k, index, h, weights) for h in (2e-6, 1e-6))
                if not (np.isfinite(coarse) and np.isfinite(fine)
                        and abs(coarse - fine) <= 3e-5 * max(abs(fine), 1.0)):
                    return False
    return True


def _slope(f, args, k, index, h, weights):
    """d/dt sum(f(args with args[k][index] + t) * weights) by a central difference."""
    unit = 1.0 if isinstance(args[k], float) else np.zeros(np.shape(args[k]))
    if not isinstance(args[k], float):
        unit[index] = 1.0
    weighted = lambda *a: np.asarray(f(*a), dtype=float) * weights  # noqa: E731
    return directional(weighted, args, k, unit, eps=h)


def _is_float(a):
    return isinstance(a, float) or isinstance(a, np.ndarray) and a.dtype.kind == "f"


def check(program, args):
    """The program's entry point `f` against finite differences under every policy."""
    module = load(program.source())
    try:
        for policy in POLICIES:
            check_function(module.f, args, policy=policy, rtol=RTOL, atol=ATOL)
    finally:
        sys.modules.pop(module.__name__, None)
