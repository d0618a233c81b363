"""What the public entries hand back is the caller's own: no result array is another
result (or shares its memory), none shares memory with an argument or a cotangent the
caller passed, none is read-only, and none is a buffer a later call reuses. Each test
writes into one result and checks that the others, the arguments and a later call's
results are unchanged (the values against central finite differences)."""
import collections
import dataclasses
import importlib.util

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_vjp
from transform.api import grad, value_and_grad, vjp
from transform.forward_api import jvp
from transform.hessians import hessian, hvp
from transform.jacobians import jacfwd, jacrev

LOWERINGS = ["gast", "plain"] + (["numba"] if importlib.util.find_spec("numba") else [])
C = np.array([2.0, -1.0, 0.5])


def _arrays(tree):
    """The arrays in tree (tuples, lists, dicts, dataclasses), in order."""
    if isinstance(tree, np.ndarray):
        return [tree]
    if dataclasses.is_dataclass(tree):
        tree = [getattr(tree, f.name) for f in dataclasses.fields(tree)]
    if isinstance(tree, dict):
        tree = list(tree.values())
    if isinstance(tree, (tuple, list)):
        return [a for part in tree for a in _arrays(part)]
    return []


def assert_owned(results, inputs):
    """Every result array writeable, sharing memory with no other result and no input;
    writing into each leaves every other result and every input unchanged."""
    got, given = _arrays(results), _arrays(inputs)
    before = [a.copy() for a in got + given]
    for k, a in enumerate(got):
        assert a.flags.writeable, f"result {k} is read-only"
        for j, b in enumerate(got[:k]):
            assert not np.shares_memory(a, b), f"results {j} and {k} share memory"
        for j, b in enumerate(given):
            assert not np.shares_memory(a, b), f"result {k} shares memory with input {j}"
    for k, a in enumerate(got):
        a += 100.0
        for j, (b, old) in enumerate(zip(got + given, before)):
            if j != k:
                np.testing.assert_array_equal(b, old)
        a[...] = before[k]


def _views():
    base = np.arange(12.0).reshape(4, 3) / 7 + 0.5
    return base, base[0], base[1]


@pytest.mark.parametrize("lowering", LOWERINGS)
@pytest.mark.parametrize("f", [lambda x, y: np.sum(x + y),
                               lambda x, y: np.sum(np.copy(x) + y),
                               lambda x, y: np.sum(np.asarray(x) - y)])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_grad_two_arguments(f, lowering):
    base, x, y = _views()
    g = grad(f, (0, 1), lowering=lowering)
    first = g(x, y)
    assert_owned(first, base)
    for k in range(2):
        assert_close(first[k], numerical_grad(f, (x, y), k))
    second = g(x, y)
    assert_owned((first, second), base)
    value, third = value_and_grad(f, (0, 1), lowering=lowering)(x, y)
    assert_owned((first, second, third), base)


@dataclasses.dataclass
class Pair:
    w: np.ndarray
    b: np.ndarray


Named = collections.namedtuple("Named", "w b")


@pytest.mark.parametrize("lowering", LOWERINGS)
@pytest.mark.parametrize("make", [lambda w, b: {"w": w, "b": b}, lambda w, b: [w, b],
                                  lambda w, b: (w, b), lambda w, b: Named(w, b), Pair])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_grad_containers(make, lowering):
    if make is Pair and lowering != "gast":
        pytest.skip("the plain lowering refuses objects")
    base, w, b = _views()
    params = make(w, b)
    read = (lambda p: np.sum(p.w + p.b)) if make is Pair or make(w, b).__class__ is Named \
        else (lambda p: np.sum(p["w"] + p["b"])) if isinstance(params, dict) \
        else (lambda p: np.sum(p[0] + p[1]))
    got = grad(read, lowering=lowering)(params)
    assert_owned(got, base)
    for leaf in _arrays(got):
        assert_close(leaf, np.ones(3))


def test_grad_of_readonly_and_broadcast_arguments():
    x = np.linspace(0.5, 1.5, 3)
    x.flags.writeable = False
    wide = np.broadcast_to(C, (2, 3))
    f = lambda x, y: np.sum(x * x) + np.sum(y)   # noqa: E731
    got = grad(f, (0, 1))(x, wide)
    assert_owned(got, (x, C))
    assert_close(got[0], numerical_grad(f, (x, np.array(wide)), 0))


def test_grad_does_not_hand_back_a_closure_constant():
    f = lambda x: np.sum(x * C)            # noqa: E731
    x = np.ones(3)
    got = grad(f)(x)
    assert_owned(got, (x, C))
    got += 5.0
    assert_close(grad(f)(x), numerical_grad(f, (x,), 0))


@pytest.mark.parametrize("f", [lambda x, y: x.reshape(3, 1),
                               lambda x, y: x.reshape(1, 3).T,
                               lambda x, y: x + y,
                               lambda x, y: x[::1],
                               lambda x, y: -y])
def test_vjp_pullback_of_a_view_cotangent(f):
    base, x, y = _views()
    out, pullback = vjp(f, x, y)
    cot = (np.arange(8.0)[1:4] + 1.0).reshape(np.shape(out))      # a view
    first, second = pullback(cot), pullback(cot)
    assert_owned((out, first, second), (base, cot))
    for k in range(2):
        assert_close(first[k], numerical_vjp(f, (x, y), k, cot))


def test_vjp_pullback_of_a_tuple_cotangent():
    base, x, y = _views()
    out, pullback = vjp(lambda x, y: (x, y), x, y)
    cot = (np.arange(3.0) + 1.0, np.arange(8.0)[2:5])
    first, second = pullback(cot), pullback(cot)
    assert_owned((out, first, second), (base,) + cot)
    assert_close(first[0], cot[0])


@pytest.mark.parametrize("f", [lambda x, y: (x, x),
                               lambda x, y: x.reshape(3, 1),
                               lambda x, y: (x + y, y[::1])])
def test_jvp_outputs(f):
    base, x, y = _views()
    tangents = np.arange(8.0)[1:4], np.arange(8.0)[2:5]
    assert_owned(jvp(f, (x, y), tangents), (base,) + tangents)


@pytest.mark.parametrize("f", [lambda x, y: np.sum(x + y),
                               lambda x, y: np.sum(x * y * y)])
def test_jacobians_hessian_and_hvp(f):
    base, x, y = _views()
    tangents = np.arange(8.0)[1:4], np.arange(8.0)[2:5]
    assert_owned(jacrev(f, (0, 1))(x, y), base)
    assert_owned(jacfwd(f, (0, 1))(x, y), base)
    assert_owned(hessian(f, (0, 1))(x, y), base)
    assert_owned(hvp(f, (x, y), tangents, wrt=(0, 1)), (base,) + tangents)
    assert_owned(hvp(lambda x: 0.5 * np.sum(x * x), (x,), tangents[:1]), (base,) + tangents)


def test_grad_of_many_entries_sharing_one_cotangent():
    """Eight leaves (the address-range sweep, not pair by pair), all given the sum's
    cotangent."""
    keys = "abcdefgh"
    base = np.linspace(0.1, 2.4, 24).reshape(8, 3)
    params = {k: base[i] for i, k in enumerate(keys)}
    f = lambda p: np.sum(p["a"] + p["b"] + p["c"] + p["d"] + p["e"] + p["f"] + p["g"] + p["h"])  # noqa: E501,E731
    got = grad(f)(params)
    assert_owned(got, base)
    for k in keys:
        assert_close(got[k], np.ones(3))


@pytest.mark.parametrize("count", [2, 9])
def test_owned_sees_memory_shared_through_different_bases(count):
    """Two arrays over one buffer with different base objects (as numba's are), and one
    over a caller's buffer: pair by pair (2) and by the sweep (9)."""
    from transform.public.unshared import owned
    buffer = bytearray(np.arange(6.0).tobytes())
    mine = np.frombuffer(buffer)                     # the caller's (read-write) array
    results = [np.frombuffer(buffer)[:3], np.frombuffer(buffer)[2:5]] + \
        [np.full(2, float(k)) for k in range(count - 2)] + [np.broadcast_to(1.0, (3,))]
    got = owned(tuple(results), (np.ones(1), mine))
    assert_owned(got, mine)
    assert [a.tolist() for a in got] == [a.tolist() for a in results]
    fresh = tuple(np.full(2, float(k)) for k in range(count))
    assert owned(fresh, (mine,)) is fresh and all(a is b for a, b in zip(owned(fresh), fresh))
