"""Session 38, items 2 and 4: a frozen dataclass with a `__post_init__` that writes no
attribute is built (against central differences, tests/fd.py); the constructors the
compiler does not read are refused saying which construct, at its line, and what to do
(they said only "no derivative rule" for the class)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.noticed38 import programs as P
from tests.red2.check import fd_hessian
from tests.red37 import programs_ctors as K
from transform import TransformError, grad, hvp, jvp

X = np.array([0.3, -0.7, 1.1])
V = np.array([0.8, -0.3, 0.6])


def test_frozen_dataclass_with_checking_post_init():
    f = P.frozen_box
    assert_close(grad(f)(X), numerical_grad(f, (X,), 0))
    assert_close(jvp(f, (X,), (V,))[1], numerical_jvp(f, [X], 0, V))
    for route in ("forward_over_reverse", "reverse_over_forward"):
        assert_close(hvp(f, (X,), (V,), route=route), fd_hessian(f, (X,), 0) @ V,
                     rtol=1e-4, atol=1e-5)


def test_frozen_dataclass_post_init_still_raises():
    with pytest.raises(ValueError, match="an empty box"):
        grad(P.frozen_box_inverted)(X)


CASES = [
    # (function, argument, what the message names)
    (P.frozen_writes, X, ["sets an attribute of `self`, which a frozen dataclass"]),
    # (P.orbit_energy, P.kinetic_energy: computed since session 39, tests/noticed39)
    (K.attribute_before_super, X, ["`self.s = s` (programs_ctors.py:168) runs before "
                                   "`super().__init__(w)` (programs_ctors.py:169)",
                                   "call the base's `__init__` first"]),
    (K.class_attribute_in_init, X, ["reads `self.SCALE` in `Defaults.__init__` before"]),
    (K.kwargs_into_super, (0.5 * np.ones((3, 2)), np.ones((4, 3))),
     ["`super().__init__(**kw)` (programs_ctors.py:121) passes `*args` or `**kwargs`"]),
]


@pytest.mark.parametrize("f, x, said", CASES, ids=[c[0].__name__ for c in CASES])
def test_refusal_says_which_construct(f, x, said):
    args = x if isinstance(x, tuple) else (x,)
    for run in (lambda: grad(f)(*args), lambda: jvp(f, args, (args[0],), wrt=0)):
        with pytest.raises(TransformError) as info:
            run()
        text = str(info.value)
        assert "a class whose construction the compiler does not read" in text
        for part in said:
            assert part in text, text
