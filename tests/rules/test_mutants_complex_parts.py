"""Behaviour the mutation run (docs/testing.md, mut27r) found unpinned in
runtime/rules/complex_parts.py: np.real and np.imag return views of their argument
(declared view): writing the argument while the part is read later is refused, as for
any view. Declared without the trait, the part was taken for a copy and the write
passed unseen. cmath.rect at r = 0 (the slope in r is the direction e^(i phi))."""
import cmath

import numpy as np
import pytest

import runtime

from tests.gradcheck import POLICIES
from tests.safety.alias_matrix import build
from transform import TransformError, grad

PARTS = build({
    "real of real": "def f(x, w):\n    a = np.array(x)\n    v = np.real(a)\n"
                    "    a[0] = w\n    return np.sum(v * v) + np.sum(a)\n",
    "real of complex": "def f(x, w):\n    z = x * (1 + 2j)\n    v = np.real(z)\n"
                       "    z[0] = w\n    return np.sum(v * v) + np.sum(np.abs(z))\n",
    "imag of complex": "def f(x, w):\n    z = x * (1 + 2j)\n    v = np.imag(z)\n"
                       "    z[0] = w\n    return np.sum(v * v) + np.sum(np.abs(z))\n",
})
X0 = np.array([0.5, -1.2, 0.3])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", list(PARTS))
def test_writing_the_argument_of_a_part_is_refused(name, policy):
    with pytest.raises(TransformError, match="`[az]`"):
        grad(PARTS[name], wrt=(0, 1), policy=policy)(X0.copy(), 0.7)


@pytest.mark.parametrize("phi", [0.0, 0.7, -2.1])
def test_rect_at_zero_radius_moves_along_its_direction(phi):
    """cmath.rect(r, phi) = r e^(i phi): at r = 0 the slope in r is Re(g e^(i phi))
    (the rule's other branch divides ans by r)."""
    g = 0.4 - 1.3j
    out, pullback = runtime.lookup(cmath.rect).rrule(0.0, phi)
    got_r, got_phi = (runtime.unthunk(c) for c in pullback(g))
    assert got_r == pytest.approx((g * cmath.exp(1j * phi)).real, abs=1e-15)
    assert got_phi == pytest.approx(0.0, abs=1e-15)


def test_abs_of_a_real_zero_has_slope_zero():
    x = np.array([-1.5, 0.0, 2.0])
    out, pullback = runtime.lookup(np.abs).rrule(x)
    ct = runtime.unthunk(pullback(np.array([0.5, 0.7, -0.3]))[0])
    assert np.array_equal(ct, [-0.5, 0.0, -0.3])
