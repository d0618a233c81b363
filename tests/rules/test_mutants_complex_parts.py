"""Behaviour the mutation run (docs/testing.md, mut27r) found unpinned in
runtime/rules/complex_parts.py: np.real and np.imag return views of their argument
(declared view): writing the argument while the part is read later is refused, as for
any view. Declared without the trait, the part was taken for a copy and the write
passed unseen."""
import numpy as np
import pytest

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
