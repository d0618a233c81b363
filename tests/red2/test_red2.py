"""Session 35 red team (red2): user objects' methods, closures, partials, spread calls and
generator methods mixed (programs.py, cases.py) through jvp, jacfwd, hvp, hessian and
grad of grad, each against central differences in float64 computed without thunkgrad
(check.py). Every case matches or is refused with a TransformError at the user's line
(in programs.py); REFUSED lists the refusals, and a refused case that starts to run must
then match the differences too."""
import os
import warnings

import numpy as np
import pytest

from tests.gradcheck import readonly, rng
from tests.red2 import programs as P
from tests.red2 import programs_more as M
from tests.red2.cases import cases
from tests.red2.check import CHECKS
from transform import TransformError

CASES = cases()
ALL = ("jvp", "jacfwd", "hvp", "hessian")
REFUSED = {
    # a generator defined inside the function (a nested def with yield): all modes
    *(("generator_helper_of_layers", c) for c in ALL),
    # a generator method's loop stopping early (break): consume it whole
    *(("generator_early_stop", c) for c in ALL),
    # lambdas in a loop reading the loop variable late (Python's late binding)
    *(("late_binding_loop", c) for c in ALL),
    # (a method changing a local object, returning self, its result unused (`a.add(v)`):
    # every mode since session 39, red40fix)
    # an attribute written twice on an object the function makes (`m.s = ...` after a
    # call of m): all modes, grad too
    *(("attribute_reassigned", c) for c in ALL),
    # a nested def calling itself: all modes (define it at module level)
    *(("recursive_closure", c) for c in ALL),
    # (`super().__call__(h)`: runs in every mode since session 36, frontend/super_calls.py)
    # (a partial binding a float to a keyword-only parameter: hvp and hessian run since
    # session 36, forward_reverse.keyword_rule gives keywords cotangents)
}
# (fixed in session 35 by red2: a method read as a value from an object that carries a
# tangent, `step = block.__call__`, `functools.partial(aff.energy)`, raised a TypeError in
# runtime/forward.py attribute_tangent; its tangent is now the receiver's)
CRASHES = set()
CHECKED = [(name, check) for name, case in CASES.items() for check in case[3]]


PARAMS = [pytest.param(n, c, id=f"{n}-{c}", marks=pytest.mark.xfail(
    strict=True, raises=TypeError, reason="bound method of a differentiated object read as a "
    "value: TypeError in attribute_tangent")) if (n, c) in CRASHES else
    pytest.param(n, c, id=f"{n}-{c}") for n, c in CHECKED]


@pytest.mark.parametrize("name, check", PARAMS)
def test_against_finite_differences(name, check):
    f, args, k, _ = CASES[name]
    args = readonly(args)                   # generated code never writes an argument
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if (name, check) in REFUSED:
            with pytest.raises(TransformError) as info:
                CHECKS[check](f, list(args), k, rng("red2", name, check))
            first = str(info.value).splitlines()[0]       # the user's line, in programs
            assert any(os.path.basename(m.__file__) + ":" in first for m in (P, M)), first
        else:
            CHECKS[check](f, list(args), k, rng("red2", name, check))


def test_refusal_list_names_cases():
    assert REFUSED | CRASHES <= set(CHECKED) and not REFUSED & CRASHES
