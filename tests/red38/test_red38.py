"""Session 37 red team (red38): realistic programs for the code merged in session 37:
the typed optimiser passes (outer-product accumulations `dW += np.outer(g, x)`, loops
with break, continue and while, slices of buffers accumulated in loops, dead saves),
dataclasses with __post_init__ under forward mode and hvp, np.piecewise's second order
(both routes), custom rules declared with `jvp=lambda ...`, and grad(f,
lowering="plain") (programs_*.py, cases.py). Each runs through grad, jvp, hvp by its
three routes, hessian (both routes), grad of grad, grad_plain, against central finite
differences in float64 (check.py; tests/fd.py never calls thunkgrad). Every check
matches or is refused with a TransformError; REFUSED lists the refusals. The whole
table (67 programs, 486 checks, ~11 s CPU) runs with THUNKGRAD_RED38_FULL=1 or as
`python -m tests.red38.table`; by default one check per program, rotating through its
checks. test_regressions.py holds what it found.
"""
import os

import pytest

from tests.red34.check import run_checked
from tests.red38.cases import all_cases
from tests.red38.check import CHECKS

CASES = all_cases()
# a piece of np.piecewise reading a differentiated value through its closure (`c * t`)
# has no forward rule: refused at the user's line (pass `c` in np.piecewise's args)
_FLOAT = ("grad", "jvp", "hvp", "hvp_fr", "hvp_auto", "gog")
REFUSED = {("piecewise_scaled", c) for c in _FLOAT if c != "grad"} | {
    # (a dataclass with a field(init=False) that __post_init__ sets from a method,
    # orbit_energy, is computed since session 39; a frozen dataclass whose
    # __post_init__ writes no attribute, box_penalty, passes since session 38)
    # (plain lowering: `buf.copy()` in a range loop, a `for` with `break`, a `while`, a
    # nested loop are taken since session 38: checked against differences)
    # (forward over reverse of a custom rule called with a constant keyword,
    # `leaky(X @ w, alpha=0.2)`, passes since session 38: tests/noticed38)
    # a row view `x = X[i]` written through `X[i] *= 2` after its use: refused
    ("alias_rows", c) for c in ("grad", "jvp", "hvp_fr")}
CHECKED = [(name, check) for name, case in CASES.items() for check in case[3]]
if not os.environ.get("THUNKGRAD_RED38_FULL"):
    CHECKED = [(name, case[3][k % len(case[3])]) for k, (name, case) in
               enumerate(CASES.items())]


@pytest.mark.parametrize("name, check", CHECKED, ids=[f"{n}-{c}" for n, c in CHECKED])
def test_against_finite_differences(name, check):
    run_checked("red38", CHECKS, CASES[name], name, check, (name, check) in REFUSED)


def test_refusal_list_names_cases():
    every = {(name, check) for name, case in CASES.items() for check in case[3]}
    assert REFUSED <= every
