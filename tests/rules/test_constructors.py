"""Array constructors and arrays filled from values (runtime/rules/constructors.py), each
rule against central differences with a random cotangent: the start, stop and base of
np.linspace / np.geomspace / np.logspace each get their own cotangent (a plain sum would
give start and stop the same one), and fill values collect every filled element's."""
import numpy as np
import pytest

from tests.rules.checks import case, check_float32, check_rule, rand

A = rand(2, 3)
ENDS = (rand(3, seed=1) + 2.0, rand(3, seed=2) + 4.0)

CONSTRUCTORS = [
    case(np.array, A), case(np.array, [1.5, -0.5, 2.0]), case(np.array, [A[0], A[1]]),
    case(np.array, A, ndmin=3), case(np.asarray, A), case(np.asanyarray, [0.5, 1.5]),
    case(np.ascontiguousarray, A), case(np.asfortranarray, A), case(np.copy, A),
    case(np.full, (2, 3), 1.5), case(np.full_like, A, 0.7),
]
SPACES = [
    case(np.linspace, 0.3, 1.7, 5), case(np.linspace, 0.3, 1.7, 5, endpoint=False),
    case(np.linspace, 0.3, 1.7, 1), case(np.linspace, *ENDS, 4, axis=1),
    case(np.linspace, *ENDS, 4, endpoint=False, axis=0),
    case(np.geomspace, 0.5, 3.0, 5), case(np.geomspace, -0.5, -3.0, 4, endpoint=False),
    case(np.geomspace, *ENDS, 3, axis=1),
    case(np.logspace, 0.2, 1.1, 5), case(np.logspace, 0.2, 1.1, 4, True, 2.5, id="base"),
    case(np.logspace, 0.2, 1.1, 4, endpoint=False, base=3.0),
    case(np.logspace, *ENDS, 3, axis=1, base=1.5),
]


@pytest.mark.parametrize("fn, args, kwargs", CONSTRUCTORS + SPACES)
def test_rule_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", SPACES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_linspace_retstep_gives_both_outputs_a_cotangent():
    check_rule(np.linspace, [0.3, 1.7, 6], {"retstep": True})
