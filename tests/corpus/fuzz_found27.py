"""Programs the session-27 fuzz classes (tests/fuzz/gen_complex.py, gen_closures.py,
gen_objects.py, gen_idioms.py) found wrong, minimised; each names the fuzz case it came
from. Fixed ones stay as regression tests (docs/testing.md, "The fuzzer")."""
import numpy as np

from .case import case, given

A = np.array([0.3, -1.2, 0.5])


# Fixed: np.array(x, dtype=complex)'s rule (unstack_vjp) gave a real x the complex cotangent
# itself, so under the loop policy `da += dt1` (da float64, dt1 complex128) crashed with
# UFuncTypeError when a second path also reached x (fuzz complex_values:270245). The
# cotangent of a real input is the real part (docs/complex.md), as astype's cast_back does.
@case(given(0.7, A))
def complex_array_of_real_with_a_second_path(x, a):
    v2 = np.array(a * 1.0, dtype=complex)
    v3 = a * x + 1j * np.cos(a)
    return np.sum(np.real(v2)) + np.sum(np.imag(v3))


@case(given(0.7, A))
def complex_array_of_real_scaled(x, a):
    # the fuzz program, with the conj product and a second path through astype
    v2 = np.array(a * x, dtype=complex) * (2 - 1j)
    v3 = (a * x).astype(np.complex128) + 1j * np.cos(a)
    return np.mean(np.real(np.conj(v2) * v2.imag)) + np.sum(np.real(v3) * np.imag(v3))


@case(given(0.7, 0.4))
def complex_array_of_real_scalars(x, s):
    z = np.array([x, s * x], dtype=complex) * (1 + 2j)
    return np.sum(np.imag(z) ** 2) + x * s


# Fixed: inside a method, `self.data` / `self.flat` of a user object built from
# differentiated values was refused as ndarray memory ("`.data` of a value being
# differentiated has no derivative"), though f's own `box.data` was accepted (fuzz
# user_objects, 20 of 60 programs with such names). The first parameter of a method or
# property getter of a module-level user class (no ndarray subclass) is now known to be the
# instance (transform/analysis/reasons.py, _own_self); an explicit `Box.first(array)` still
# stops, at run time, with "no derivative for the array attribute .flat".
class Buffer:
    def __init__(self, w, b):
        self.data = w * b
        self.flat = b

    def mean(self):
        return np.sum(self.data) * self.flat

    @property
    def total(self):
        return np.sum(self.data ** 2) + self.flat


@case(given(0.7, A))
def method_reads_attributes_named_like_array_memory(x, a):
    box = Buffer(a * x, np.tanh(x))
    return box.mean() + box.data[0] + box.total


# Fixed: a property returning a new object (`T` of a user class giving another instance)
# crashed at run time, "its getter gives another value when run again": the backward
# sweep runs the getter again and compared the two results with np.array_equal, false for
# two distinct instances (found writing programs for the user_objects class). They are
# now compared attribute by attribute (runtime/containers.py, _same_value).
class Linear:
    def __init__(self, W):
        self.W = W

    @property
    def T(self):
        return Linear(self.W.T)

    def dot(self, v):
        return self.W @ v


@case(given(0.7, np.array([[0.3, -1.2, 0.5], [1.1, 0.4, -0.6]])))
def property_returning_a_new_object(x, m):
    lin = Linear(m * x)
    return np.sum(lin.T.dot(np.ones(2)) ** 2)
