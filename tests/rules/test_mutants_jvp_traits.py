"""Behaviour the session-31 mutation run (docs/testing.md, jvp31) left unpinned: the
complex_ok trait on the lines of np.linalg.solve, np.vdot, np.tensordot, np.sum and
scipy.special.softmax (declared without it, a complex value would be refused). Each rule
takes complex arguments and gives docs/complex.md's cotangents, against complex central
differences (tests/rules/complex_checks.py)."""
import numpy as np
import pytest

from tests.rules.checks import rand
from tests.rules.complex_checks import check_complex_rule


def _complex(*shape, seed):
    return rand(*shape, seed=seed) + 1j * rand(*shape, seed=seed + 50)


A = _complex(3, 3, seed=1) + 3 * np.eye(3)
CASES = [(np.linalg.solve, [A, _complex(3, 2, seed=2)], {}, (0, 1)),
         (np.vdot, [_complex(4, seed=3), _complex(4, seed=4)], {}, (0, 1)),
         (np.tensordot, [_complex(2, 3, seed=5), _complex(3, 4, seed=6)], {"axes": 1}, (0, 1)),
         (np.sum, [_complex(3, 4, seed=7)], {"axis": 1}, (0,))]


@pytest.mark.parametrize("fn, args, kwargs, argnums", CASES,
                         ids=lambda c: getattr(c, "__name__", ""))
def test_a_complex_ok_rule_takes_complex_values(fn, args, kwargs, argnums):
    check_complex_rule(fn, args, kwargs, argnums=argnums)


def test_softmax_takes_complex_values():
    sc = pytest.importorskip("scipy.special")
    check_complex_rule(sc.softmax, [_complex(2, 3, seed=8)], {"axis": 1})
