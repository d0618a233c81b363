"""Loop adjoints are bound on every path: loop-carried and loop-local names, tuple-returning
helpers in loops, lists of arrays given to NumPy reductions.

Every program runs under every policy with 0, 1 and several iterations, through grad
(shape-specialised rules) and vjp, with float and array inputs, against central
finite differences. Before the fix these raised UnboundLocalError (or AttributeError
`.pop` on an array) from inside the generated code.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, check_vjp
from tests.safety import loop_programs, tuple_helpers
from transform import adjoint_source, grad, vjp

TRIPS = (0, 1, 4)
X_VALUES = {"float": 0.7, "vector": np.array([0.3, -0.6, 0.9]),
            "matrix": np.array([[0.2, -0.4], [0.5, 0.1]])}
NAMES = [f.__name__ for f in loop_programs.PROGRAMS]
HELPER_NAMES = [f.__name__ for f in tuple_helpers.PROGRAMS]


def _program(name):
    return getattr(loop_programs, name)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", TRIPS)
@pytest.mark.parametrize("kind", ["float", "vector"])
@pytest.mark.parametrize("name", NAMES)
def test_loop_program_grad(name, kind, n, policy):
    check_grad(_program(name), [X_VALUES[kind], n], wrt=[0], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", NAMES)
def test_loop_program_vjp(name, policy):
    check_vjp(_program(name), [X_VALUES["matrix"], 3], wrt=[0], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", NAMES)
def test_pullback_called_twice_gives_the_same(name, policy):
    """The backward sweep leaves the tape (and the lists on it) as it found them."""
    x = X_VALUES["vector"]
    _, pullback = vjp(_program(name), x, 3, wrt=0, policy=policy)
    first = pullback(1.0)
    np.testing.assert_array_equal(pullback(1.0), first)
    np.testing.assert_array_equal(pullback(1.0), first)


@pytest.mark.parametrize("name", NAMES)
def test_one_compiled_function_serves_every_shape(name):
    """grad specialises its rule to argument shapes: each shape gets a correct one."""
    f = _program(name)
    g = grad(f, wrt=0)
    for x in (X_VALUES["vector"], X_VALUES["float"], X_VALUES["matrix"], X_VALUES["vector"]):
        for n in (3, 0, 1):
            want = check_grad(f, [x, n], wrt=[0])[0]
            np.testing.assert_allclose(g(x, n), want, rtol=1e-12)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", TRIPS)
@pytest.mark.parametrize("name", HELPER_NAMES)
def test_tuple_helper_in_loop(name, n, policy):
    f = getattr(tuple_helpers, name)
    check_grad(f, [0.7, np.array([0.1, -0.2, 0.4]), n], wrt=[0, 1], policy=policy)
    check_vjp(f, [0.7, np.array([0.1, -0.2, 0.4]), n], wrt=[0, 1], policy=policy)


@pytest.mark.parametrize("name", HELPER_NAMES)
def test_tuple_helper_float32(name):
    """float32 inputs: the cotangents keep float32 and still match float64 differences."""
    f = getattr(tuple_helpers, name)
    x = np.array([0.1, -0.2, 0.4], dtype=np.float32)
    dw, dx = grad(f, wrt=(0, 1))(0.7, x, 3)
    assert dx.dtype == np.float32
    want = check_grad(f, [0.7, x.astype(np.float64), 3], wrt=[0, 1])
    np.testing.assert_allclose(dw, want[0], rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(dx, want[1], rtol=2e-3, atol=1e-4)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", NAMES + HELPER_NAMES)
def test_general_rule_compiles(name, policy):
    """adjoint_source shows the general (unspecialised) rule; it must build for each."""
    f = getattr(loop_programs, name, None) or getattr(tuple_helpers, name)
    assert "def pullback" in adjoint_source(f, wrt=0, policy=policy)
