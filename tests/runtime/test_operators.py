"""runtime/operators.py: which method Python calls for `a op b` on user objects, the
decision compiled code makes (tests/corpus/operators16.py checks the gradients).
Each expectation is checked against what Python itself calls."""
import numpy as np
import pytest

from runtime.operators import (AUGMENTED, FORWARD, PLAIN, REFLECTED, operator_side,
                               side_of_types)
from transform import grad

from . import foreign_helpers


class Calls:
    """Records which of its methods Python called."""

    def __init__(self):
        self.seen = []

    def __mul__(self, other):
        self.seen.append("__mul__")
        return self

    def __rmul__(self, other):
        self.seen.append("__rmul__")
        return self


class Sub(Calls):
    def __rmul__(self, other):
        self.seen.append("Sub.__rmul__")
        return self


class InheritsOnly(Calls):
    pass


class WithIadd(Calls):
    def __imul__(self, other):
        self.seen.append("__imul__")
        return self


class Plain:
    pass


def _python_calls(a, b, augmented=False):
    for obj in (a, b):
        if isinstance(obj, Calls):
            obj.seen = []
    if augmented:
        a *= b
    else:
        a * b
    seen = [s for obj in (a, b) if isinstance(obj, Calls) for s in obj.seen]
    return seen[0] if seen else None


_EXPECTED_NAME = {FORWARD: ("__mul__",), REFLECTED: ("__rmul__", "Sub.__rmul__"),
                  AUGMENTED: ("__imul__",)}


@pytest.mark.parametrize("a, b, augmented, side", [
    (Calls(), 2.0, False, FORWARD),
    (2.0, Calls(), False, REFLECTED),
    (3, Calls(), False, REFLECTED),
    (np.float64(2.0), Calls(), False, REFLECTED),
    (Calls(), Sub(), False, REFLECTED),         # a subclass's own reflected method first
    (Calls(), InheritsOnly(), False, FORWARD),  # the same method: the left one
    (Sub(), Calls(), False, FORWARD),
    (WithIadd(), 2.0, True, AUGMENTED),
    (Calls(), 2.0, True, FORWARD),              # no __imul__: as `a * b`
    (2.0, Calls(), True, REFLECTED),
])
def test_side_matches_python(a, b, augmented, side):
    assert side_of_types(type(a), type(b), "mul", augmented) == side
    assert _python_calls(a, b, augmented) in _EXPECTED_NAME[side]


def test_no_user_method_is_plain():
    assert side_of_types(float, np.ndarray, "mul", False) == PLAIN
    assert side_of_types(Plain, float, "mul", False) == PLAIN
    assert side_of_types(np.ndarray, None, "neg", False) == PLAIN
    assert side_of_types(Calls, None, "neg", False) == PLAIN       # no __neg__


def test_array_or_numpy_scalar_times_object_is_refused():
    # NumPy broadcasts the object into an array of objects: the class does not decide
    result = np.ones(2) * Calls()
    assert result.dtype == object
    assert side_of_types(np.ndarray, Calls, "mul", False) is None
    assert side_of_types(np.float32, Calls, "mul", False) is None
    with pytest.raises(TypeError, match=r"loss.py:3: `ndarray mul Calls`"):
        operator_side(np.ones(2), Calls(), "mul", False, "loss.py:3")


def test_operator_side_on_values():
    assert operator_side(Calls(), 2.0, "mul", False, "f.py:1") == FORWARD
    assert operator_side(2.0, Sub(), "mul", False, "f.py:1") == REFLECTED
    assert operator_side(np.ones(2), 2.0, "mul", False, "f.py:1") == PLAIN
    assert operator_side(Calls(), None, "neg", False, "f.py:1") == PLAIN


# ---- an object reaching arithmetic in a module that does not name its class -------------
class Product:
    """`+` multiplies: NumPy's sum rule would be a wrong gradient."""

    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return Product(self.v * other.v)

    def __matmul__(self, other):
        return np.sum(self.v * other.v)


def _through_foreign_add(x):
    return np.sum(foreign_helpers.combine(Product(x), Product(np.sin(x))).v)


def _through_foreign_matmul(x):
    return foreign_helpers.energy(Product(x), Product(x))


def _here(x):
    return np.sum((Product(x) + Product(np.sin(x))).v)


@pytest.mark.parametrize("fn", [_through_foreign_add, _through_foreign_matmul])
def test_arithmetic_on_an_object_elsewhere_is_refused_not_wrong(fn):
    """Before session 29 the first gave 1 + cos(x) (NumPy's sum rule), the second
    zeros; now the backward sweep refuses the object where arithmetic met it."""
    with pytest.raises(TypeError, match="import the class"):
        grad(fn)(np.array([0.5, 1.0]))


def test_the_same_operator_in_the_class_s_module_is_followed():
    x = np.array([0.5, 1.0])
    g = grad(_here)(x)
    np.testing.assert_allclose(g, np.sin(x) + x * np.cos(x), rtol=1e-12)
