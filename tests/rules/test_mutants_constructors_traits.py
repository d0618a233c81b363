"""Behaviour the mutation run (docs/testing.md, session 29 mutA) found unpinned in
runtime/rules/constructors.py's traits: the constructors carry complex values
(complex_ok: declared without it, a complex value was refused); np.array, np.copy,
np.full, np.full_like and np.linspace return fresh arrays (a write into the result
while the input is read later is fine, and `+=` on it with another name for it is
refused at compile time); np.float64 / np.float32 of an array of that type, and
np.asarray, np.asanyarray, np.ascontiguousarray, np.asfortranarray of a fitting array,
return the array itself (view: writing the argument while the result is read later is
refused)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand
from tests.safety.alias_matrix import build
from transform import TransformError, grad

X, Y = rand(3, seed=21), rand(3, seed=22)


def as_arrays(x, y):
    z = x + 1j * y
    a, b, c = np.asarray(z), np.asanyarray(z), np.ascontiguousarray(z)
    d, e = np.asfortranarray(z), np.copy(z)
    return np.sum(np.abs(a * b + c * d - e * z * (0.5 - 1j)) ** 2)


def array_of_entries(x, y):
    z = x + 1j * y
    m = np.array([z[0], z[1] * z[2], 2.0])
    return np.sum(np.real(m * m) + np.imag(m))


def filled(x, y):
    z = x + 1j * y
    h = np.full(3, z[0] * z[1])
    k = np.full_like(z, z[2])
    return np.sum(np.real(h * k * (1 - 2j)) + np.abs(h - k * z) ** 2)


def spaced(x, y):
    z = x + 1j * y
    lin = np.linspace(z[0], z[1], 4) * (2 - 1j)
    geo = np.geomspace(z[0] + 2, z[1] + 2, 3)
    log = np.logspace(z[1], z[2], 3, base=1.5)
    return np.sum(np.abs(lin) ** 2) + np.sum(np.real(geo * (1 + 1j))) + np.sum(np.imag(log))


def cast(x, y):
    z = x + 1j * y
    return np.sum(np.abs(np.astype(z, np.complex128) * z.astype(np.complex128)) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [as_arrays, array_of_entries, filled, spaced, cast],
                         ids=lambda f: f.__name__)
def test_constructors_carry_complex_values(fn, policy):
    check_grad(fn, [X.copy(), Y.copy()], wrt=(0, 1), policy=policy)


FRESH = build({
    "array": "def f(x, w):\n    a = np.array(x)\n    a[0] = w\n    return np.sum(a * x)\n",
    "copy": "def f(x, w):\n    a = np.copy(x)\n    a[0] = w\n    return np.sum(a * x)\n",
    "full": "def f(x, w):\n    a = np.full(3, x[1])\n    a[0] = w\n    return np.sum(a * x)\n",
    "linspace": "def f(x, w):\n    a = np.linspace(x[0], x[1], 3)\n    a[0] = w\n"
                "    return np.sum(a * x)\n",
    "full_like": "def f(x, w):\n    a = np.full_like(x, x[1])\n    a[0] = w\n"
                 "    return np.sum(a * x)\n",
})


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", sorted(FRESH))
def test_writing_a_fresh_result_while_the_input_is_read(name, policy):
    check_grad(FRESH[name], [X.copy(), 0.7], wrt=(0, 1), policy=policy)


FLOAT_VIEWS = build({
    name: f"def f(x, w):\n    a = np.array(x, dtype=np.{name})\n    v = np.{name}(a)\n"
          f"    a[0] = w\n    return np.sum(v * v) + np.sum(a)\n"
    for name in ("float64", "float32")})


MAKERS = {"array": "np.array(x)", "copy": "np.copy(x)", "full": "np.full(3, x[1])",
          "full_like": "np.full_like(x, x[1])", "linspace": "np.linspace(x[0], x[1], 3)"}
FRESH_ALIASED = build({
    name: f"def f(x, w):\n    a = {make}\n    b = a\n    a += w\n    return np.sum(b * x)\n"
    for name, make in MAKERS.items()})


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", sorted(FRESH_ALIASED))
def test_augmenting_an_aliased_fresh_array_is_refused_at_compile_time(name, policy):
    """The result is known to be an array, so `a += w` updates it in place: with `b`
    another name for it, the compiler refuses at the user's line (a value not known to
    be an array is only caught when the code runs, with a TypeError)."""
    with pytest.raises(TransformError, match="`a`"):
        grad(FRESH_ALIASED[name], wrt=(0, 1), policy=policy)(X.copy(), 0.7)


AS_VIEWS = build({
    name: f"def f(x, w):\n    a = np.array(x)\n    v = np.{name}(a)\n"
          f"    a[0] = w\n    return np.sum(v * v) + np.sum(a)\n"
    for name in ("asarray", "asanyarray", "ascontiguousarray", "asfortranarray")})


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", sorted(AS_VIEWS))
def test_writing_the_argument_of_an_as_array_is_refused(name, policy):
    a = np.ones(2)
    assert getattr(np, name)(a) is a                 # NumPy: the array itself
    with pytest.raises(TransformError, match="`a`"):
        grad(AS_VIEWS[name], wrt=(0, 1), policy=policy)(X.copy(), 0.7)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", sorted(FLOAT_VIEWS))
def test_a_float_type_of_its_own_array_is_that_array(name, policy):
    a = np.ones(2, dtype=name)
    assert getattr(np, name)(a) is a                 # NumPy: the array itself
    with pytest.raises(TransformError, match="`a`"):
        grad(FLOAT_VIEWS[name], wrt=(0, 1), policy=policy)(X.copy(), 0.7)
