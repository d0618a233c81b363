"""Behaviour the mutation run (docs/testing.md, session 29 mutA) found unpinned in
runtime/rules/complex_helpers.py: the guards at z = 0 of abs, angle and sign (the
cotangent there is 0, and computing it divides by nothing that is 0, so a program run
under np.errstate(all="raise") does not stop); values of modulus exactly 1 (a guard
`== 0` read as `== 1` zeroes them); and a real list or tuple is not complex (its
cotangent stays real)."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad
from tests.rules.complex_checks import check_complex_rule

# every entry of modulus exactly 1 (squares of 0 and 1 are exact), and a generic one
UNIT = np.array([1j, -1j, 1 + 0j, 0.3 - 0.4j])
REAL_LISTS = [[0.5, -1.2, 0.3], (0.5, -1.2, 0.3)]
ZERO_AND_ONE = np.array([0j, 1j, 0.5 + 0.2j])


@pytest.mark.parametrize("fn", [np.abs, np.angle, np.sign])
def test_modulus_one_matches_finite_differences(fn):
    check_complex_rule(fn, [UNIT])


def unit_parts(a, b):
    z = a + 1j * b
    return np.sum(np.abs(z) * a) + np.sum(np.angle(z) * b) + np.sum(np.real(np.sign(z) * (1 + 2j)))


@pytest.mark.parametrize("policy", POLICIES)
def test_modulus_one_in_compiled_code(policy):
    check_grad(unit_parts, [np.real(UNIT).copy(), np.imag(UNIT).copy()], wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("fn", [np.abs, np.angle, np.sign])
def test_zero_gets_zero_without_a_floating_point_error(fn):
    out, pullback = runtime.lookup(fn).rrule(ZERO_AND_ONE)
    g = np.full(3, 0.7 - 0.4j) if np.iscomplexobj(out) else np.full(3, 0.7)
    with np.errstate(all="raise"):
        ct = runtime.unthunk(pullback(g)[0])
    assert ct[0] == 0 and np.all(np.isfinite(ct))
    assert ct[1] != 0


@pytest.mark.parametrize("x", REAL_LISTS, ids=["list", "tuple"])
@pytest.mark.parametrize("fn", [np.real, np.imag, np.abs, np.angle, np.sign])
def test_real_list_gets_a_real_cotangent(fn, x):
    check_complex_rule(fn, [x])
