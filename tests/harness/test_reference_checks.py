"""The harness (tests/gradcheck.py, tests/trees.py) rejects every kind of wrong answer a
product could give: a wrong number of gradients, a gradient of the wrong structure,
type, shape or dtype with the right values, a wrong primal value from vjp, an argument
changed behind the caller's back. Each test gives check_grad / check_vjp a deliberately
wrong `grad` or `vjp` (monkeypatched into tests.gradcheck) or calls the structural
checks directly; the mutation run of the reference (tools/mutate.py reference) found
each of these unpinned."""
import collections
import dataclasses

import numpy as np
import pytest

from tests import gradcheck
from tests.gradcheck import assert_like, assert_tree_close, check_function, check_grad, \
    check_vjp, readonly
from tests.trees import float_leaves, with_leaf

X = np.array([0.3, -1.2, 2.0])
Point = collections.namedtuple("Point", "x y")


def weighted(x, y):
    return np.sum(x * y)


def cube_sum(x):
    return np.sum(x ** 3)


def scaled(x):
    return 2.0 * x


def fake_grad(result):
    """A stand-in for transform.grad whose gradient is `result(*args)`."""
    return lambda f, wrt=None, policy=None: (lambda *args, **kw: result(*args))


def fake_vjp(out_of, cots_of):
    def vjp(f, *args, wrt=None, policy=None, **kw):
        return out_of(*args), (lambda cot: cots_of(cot, *args))
    return vjp


# ---- the number of gradients --------------------------------------------------------
def test_check_grad_rejects_too_few_gradients(monkeypatch):
    """Asked for two, given one (right) gradient: the missing one is an error."""
    monkeypatch.setattr(gradcheck, "grad", fake_grad(lambda x, y: (np.array(y),)))
    with pytest.raises(AssertionError):
        check_grad(weighted, [X, X + 1.0], wrt=(0, 1))


def test_check_vjp_rejects_too_few_cotangents(monkeypatch):
    monkeypatch.setattr(gradcheck, "vjp", fake_vjp(lambda x, y: x * y,
                                                   lambda c, x, y: (np.asarray(c * y),)))
    with pytest.raises(AssertionError):
        check_vjp(lambda x, y: x * y, [X, X + 1.0], wrt=(0, 1))


# ---- vjp's primal value ---------------------------------------------------------------
@pytest.mark.parametrize("error", [1e-9, 10.0], ids=["slightly", "far"])
def test_check_vjp_rejects_a_wrong_value(monkeypatch, error):
    """The value must match the function's to 1e-12 (relative): off by 1e-9 relative, or
    by more than the value itself, is reported even with right cotangents."""
    monkeypatch.setattr(gradcheck, "vjp", fake_vjp(
        lambda x: 2.0 * x * (1 + error) + error, lambda c, x: (np.asarray(2.0 * c),)))
    with pytest.raises(AssertionError, match="vjp's value"):
        check_vjp(scaled, [X])


# ---- gradients shaped like their arguments ----------------------------------------------
@pytest.mark.parametrize("wrong", [
    lambda x: (3 * x ** 2).astype(np.float32),          # right values, float32
    lambda x: list(3 * x ** 2),                           # right values, a list
    lambda x: (3 * x ** 2)[None],                         # right values, an extra axis
], ids=["dtype", "list", "shape"])
def test_check_grad_rejects_a_gradient_unlike_its_array_argument(monkeypatch, wrong):
    monkeypatch.setattr(gradcheck, "grad", fake_grad(wrong))
    with pytest.raises(AssertionError):
        check_grad(cube_sum, [X], wrt=0)


def pair_loss(p):
    return p[0] ** 2 * p[1]


@pytest.mark.parametrize("wrong", [
    lambda p: [2 * p[0] * p[1], p[0] ** 2],              # a list for a tuple
    lambda p: (2 * p[0] * p[1], np.float32(p[0] ** 2)),  # a NumPy float32 for a float
], ids=["list", "number"])
def test_check_grad_rejects_a_container_gradient_of_another_structure(monkeypatch, wrong):
    monkeypatch.setattr(gradcheck, "grad", fake_grad(wrong))
    with pytest.raises(AssertionError):
        check_grad(pair_loss, [(1.5, -2.0)], wrt=0)


# ---- assert_like directly ------------------------------------------------------------
@dataclasses.dataclass
class Params:
    w: np.ndarray
    b: float


class Plain:
    def __init__(self):
        self.w = np.ones(2)
        self.b = 0.5


LIKE = [
    (1.5, 0.0), (np.float64(1.5), 2.0), (np.float64(1.5), np.float64(2.0)),
    (X, np.zeros(3)), (np.arange(3), None), ((1.0, X), (0.0, np.zeros(3))),
    ([1.0, 2.0], [0.0, 0.0]), ({"a": 1.0, "b": X}, {"a": 0.0, "b": np.zeros(3)}),
    (Params(X, 1.0), Params(np.zeros(3), 0.0)), (Plain(), {"w": np.zeros(2)}),
]
UNLIKE = [
    (1.5, np.float64(0.0)), (1.5, np.array(0.0)), (np.float64(1.5), np.array([2.0])),
    (X, [0.0, 0.0, 0.0]), (X, np.zeros(4)), (X, np.zeros(3, dtype=np.float32)),
    ((1.0, X), [0.0, np.zeros(3)]), ((1.0, X), (0.0,)), ((1.0, X), (0.0, np.zeros(2))),
    ([1.0, 2.0], (0.0, 0.0)), ({"a": 1.0}, [0.0]), ({"a": 1.0, "b": 2.0}, {"b": 0.0, "a": 0.0}),
    ({"a": 1.0}, {"a": np.float32(0.0)}), ({"a": 1.0}, collections.OrderedDict(a=0.0)), (Params(X, 1.0), {"w": np.zeros(3), "b": 0.0}),
    (Params(X, 1.0), Params(np.zeros(2), 0.0)), (Plain(), Params(np.zeros(2), 0.0)),
    (Plain(), {"w": np.zeros(3)}),
]


@pytest.mark.parametrize("x, g", LIKE)
def test_assert_like_accepts_a_gradient_of_the_same_structure(x, g):
    assert_like(g, x)


@pytest.mark.parametrize("x, g", UNLIKE)
def test_assert_like_rejects_a_gradient_of_another_structure(x, g):
    with pytest.raises(AssertionError):
        assert_like(g, x)


def test_assert_tree_close_uses_the_default_tolerances():
    assert_tree_close({"a": 1.0}, {("a",): 1.0 + 1e-9}, {"a": 2.0})
    with pytest.raises(AssertionError, match="gradient at"):
        assert_tree_close({"a": 1.0}, {("a",): 1.001}, {"a": 2.0})
    with pytest.raises(AssertionError, match="gradient at"):
        assert_tree_close({"a": 0.0}, {("a",): 5e-7}, {"a": 2.0})


# ---- plain objects: a gradient dict by attribute, possibly missing some ---------------------
class Model:
    def __init__(self, w, pair, unused):
        self.w, self.pair, self.unused = w, pair, unused


def model_loss(m):
    return np.sum(m.w ** 2) * m.pair[1]


def test_a_plain_object_gradient_may_leave_out_an_attribute(monkeypatch):
    """A dict by attribute without `unused` means zero there; `pair` is nested (a
    path of two keys)."""
    monkeypatch.setattr(gradcheck, "grad", fake_grad(lambda m: {
        "w": 2 * m.w * m.pair[1], "pair": (0.0, float(np.sum(m.w ** 2)))}))
    check_grad(model_loss, [Model(X.copy(), (1.0, 3.0), 2.5)], wrt=0)


def test_a_plain_object_gradient_with_a_wrong_nested_entry_fails(monkeypatch):
    monkeypatch.setattr(gradcheck, "grad", fake_grad(lambda m: {
        "w": 2 * m.w * m.pair[1], "pair": (0.0, 1.0 + float(np.sum(m.w ** 2)))}))
    with pytest.raises(AssertionError, match="gradient at"):
        check_grad(model_loss, [Model(X.copy(), (1.0, 3.0), 2.5)], wrt=0)


def test_a_plain_object_gradient_missing_a_used_attribute_fails(monkeypatch):
    monkeypatch.setattr(gradcheck, "grad", fake_grad(lambda m: {
        "pair": (0.0, float(np.sum(m.w ** 2)))}))
    with pytest.raises(AssertionError, match="gradient at"):
        check_grad(model_loss, [Model(X.copy(), (1.0, 3.0), 2.5)], wrt=0)


# ---- arguments: read-only, unchanged, only floats differentiated ---------------------------
def test_readonly_reaches_arrays_inside_tuples_lists_and_dicts():
    args = readonly([X, (X, [X]), {"a": X}, Point(X, 1.0)])
    assert not args[0].flags.writeable
    assert not args[1][0].flags.writeable and not args[1][1][0].flags.writeable
    assert not args[2]["a"].flags.writeable
    assert type(args[3]) is Point                # a namedtuple is passed as it is


def test_an_argument_changed_by_the_product_is_reported(monkeypatch):
    """A product that writes into the caller's array (after lifting the read-only flag)
    is caught by the comparison with the snapshot, by check_grad and check_vjp."""
    def sneaky(x):
        x.setflags(write=True)
        x[0] += 1.0
        return 3 * (x - np.eye(1, len(x))[0]) ** 2
    monkeypatch.setattr(gradcheck, "grad", fake_grad(sneaky))
    with pytest.raises(AssertionError):
        check_grad(cube_sum, [X], wrt=0)

    def sneaky_pullback(c, x):
        x.setflags(write=True)
        x[0] += 1.0
        return (np.asarray(2.0 * c),)
    monkeypatch.setattr(gradcheck, "vjp", fake_vjp(lambda x: 2.0 * x, sneaky_pullback))
    with pytest.raises(AssertionError):
        check_vjp(scaled, [X])


def test_an_argument_changed_and_locked_again_is_reported(monkeypatch):
    """The values are compared with the snapshot, not only the read-only flag."""
    def relocking(x):
        x.setflags(write=True)
        x[0] += 1.0
        x.setflags(write=False)
        return 3 * x ** 2           # right at the changed x, which the differences then use
    monkeypatch.setattr(gradcheck, "grad", fake_grad(relocking))
    with pytest.raises(AssertionError):
        check_grad(cube_sum, [X], wrt=0)


def test_an_argument_left_writable_by_the_product_is_reported(monkeypatch):
    def unlocking(x):
        x.setflags(write=True)
        return 3 * x ** 2
    monkeypatch.setattr(gradcheck, "grad", fake_grad(unlocking))
    with pytest.raises(AssertionError):
        check_grad(cube_sum, [X], wrt=0)


def scale_by(x, flag, counts):
    return np.sum(x ** 2) * (2.0 if flag else 1.0) + np.sum(counts)


def test_bools_and_integer_arrays_are_not_differentiated():
    """wrt=None differentiates the float arguments only (a bool is not a float)."""
    got = check_grad(scale_by, [X, True, np.array([1, 2])])
    assert len(got) == 1
    np.testing.assert_allclose(got[0], 4 * X, rtol=1e-12)


def test_a_namedtuple_argument_is_checked():
    check_grad(lambda p: p.x * p.y, [Point(1.5, -2.0)], wrt=0)


# ---- check_function: grad for a scalar output ---------------------------------------
def zero_d(x):
    return np.asarray(np.sum(x ** 3))


def single(x):
    return np.float32(np.sum(x ** 3))


@pytest.mark.parametrize("fn", [zero_d, single, cube_sum])
def test_check_function_checks_grad_for_a_scalar_output(monkeypatch, fn):
    """A 0-d array or NumPy scalar output is a scalar: grad is what is checked."""
    monkeypatch.setattr(gradcheck, "grad", fake_grad(lambda x: 3 * x ** 2 + 1.0))
    with pytest.raises(AssertionError, match="gradient"):
        check_function(fn, [X], wrt=0)


# ---- trees ---------------------------------------------------------------------------
def test_bools_are_not_float_leaves():
    tree = {"on": True, "np_on": np.bool_(False), "w": 1.5, "n": 3}
    assert [p for p, _ in float_leaves(tree)] == [("w",)]


def test_with_leaf_rebuilds_a_plain_object():
    m = Model(X.copy(), (1.0, 3.0), 2.5)
    out = with_leaf(m, ("pair", 1), 7.0)
    assert out.pair == (1.0, 7.0) and m.pair == (1.0, 3.0) and out.w is m.w


@dataclasses.dataclass(slots=True)
class Slotted:
    w: np.ndarray
    b: float


def test_a_dataclass_with_slots_has_its_fields_as_leaves():
    """No __dict__: the fields are read by dataclasses.fields, not vars()."""
    tree = Slotted(X, 1.5)
    assert [p for p, _ in float_leaves(tree)] == [("w",), ("b",)]
    assert with_leaf(tree, ("b",), 2.0).b == 2.0
