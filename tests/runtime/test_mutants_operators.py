"""Mutants of runtime/operators.py that tests/runtime/test_operators.py and
tests/corpus/operators16.py let through (session 29, mutG): `c += v` on arrays where
the side is decided when the code runs (PLAIN and AUGMENTED told apart), and which
classes count as the user's (builtins, NumPy and SciPy types do
not: an object of theirs meeting a user object's reflected method is refused)."""
import numpy as np
import pytest

from runtime.operators import REFLECTED, side_of_types, user_class
from tests.gradcheck import POLICIES, check_function
from tests.optional_scipy import if_scipy, scipy_module

sparse = scipy_module("sparse")


class Other:
    pass


class Right:
    def __init__(self, v):
        self.v = v

    def __rmul__(self, other):
        return Right(self.v * 2.0)


def _add_into(a, b):
    c = a * 1.0
    c += b * b                  # c may be a user object here: operator_side decides
    return c


def _plain_values_through_augmented(x):
    return np.sum(_add_into(np.sin(x), x) * x)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("shape", [(), (3,)])
def test_augmented_operator_on_arrays_decided_at_run_time(policy, shape):
    """In a module with operator classes `c += v` on a helper's value is decided when
    it runs; arrays there are PLAIN (the arithmetic rule), not AUGMENTED (which would
    call ndarray.__iadd__: no source, refused)."""
    x = np.random.default_rng(29).normal(size=shape)
    check_function(_plain_values_through_augmented, (x,), policy=policy)


@pytest.mark.parametrize("cls", [int, float, list, tuple, dict, np.ndarray, np.float64,
                                 np.random.Generator] + if_scipy(
                                     getattr(sparse, "csr_matrix", None)))
def test_builtin_numpy_and_scipy_classes_are_not_the_user_s(cls):
    assert not user_class(cls)


@pytest.mark.parametrize("cls", [Other, Right])
def test_a_class_of_this_module_is_the_user_s(cls):
    assert user_class(cls)


@pytest.mark.parametrize("left", [list, np.random.Generator] + if_scipy(
    getattr(sparse, "csr_matrix", None)))
def test_a_library_object_times_a_user_object_is_refused(left):
    """Python asks the library type's `__mul__` first; what it does with an object it
    does not know is the library's (a list defers, a sparse matrix converts), which the
    compiler does not model: no side is decided (refused), unlike for a user class."""
    assert side_of_types(left, Right, "mul", False) is None
    assert side_of_types(Other, Right, "mul", False) == REFLECTED

