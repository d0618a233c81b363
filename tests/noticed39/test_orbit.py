"""Session 39, item 3: a dataclass with a `field(init=False)` that `__post_init__` sets by
calling a method (red38's Orbit), built inside the differentiated function: computed
(frontend/constructor_methods.py), against central differences (tests/fd.py); a method
writing self (or reading a cached_property of it), or one called after an attribute
set on some ways only, stays refused."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.noticed38 import programs as P38
from tests.noticed39 import programs as P
from tests.red2.check import fd_hessian
from tests.red38 import programs_hard as H
from transform import TransformError, grad, hvp, jvp

R, VEL = np.array([1.3, 0.7, 2.0]), np.array([0.4, -0.9, 1.2])
T = np.array([0.8, -0.3, 0.6])


def test_orbit_grad_jvp_hvp():
    f = P.orbit_energy
    for k in (0, 1):
        assert_close(grad(f, wrt=k)(R, VEL), numerical_grad(f, (R, VEL), k))
        assert_close(jvp(f, (R, VEL), (T,), wrt=k)[1], numerical_jvp(f, [R, VEL], k, T))
    assert_close(hvp(f, (R, VEL), (T,), wrt=1), fd_hessian(f, (R, VEL), 1) @ T,
                 rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("f", [P38.orbit_energy, P38.kinetic_energy, H.orbit_energy])
def test_earlier_orbits_compute(f):
    assert_close(grad(f)(1.3), numerical_grad(f, (1.3,), 0))
    assert_close(jvp(f, (1.3,), (1.0,))[1], numerical_jvp(f, [1.3], 0, 1.0))


@pytest.mark.parametrize("f, said", [
    (P.writer_energy, "calls the method `self.bump()` in `__post_init__`, which sets"),
    (P.branchy_energy, "Branchy is not a class the compiler can build"),
    (P.cached_in_post, "CachedInPost is not a class the compiler can build")])
def test_unsafe_method_calls_refused(f, said):
    for run in (lambda: grad(f)(1.3), lambda: jvp(f, (1.3,), (1.0,))):
        with pytest.raises(TransformError) as info:
            run()
        assert said in str(info.value), str(info.value)
