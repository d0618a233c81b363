"""User subclasses of list, tuple and dict with their own __getitem__ or __iter__
(session 30, mut30a: the mutant `and -> or` in refuse_own_subscript survived because
nothing indexed such a subclass). `x[i]` runs the class's code, which is not
differentiated: before, the entry's cotangent went to the stored entry (a silently wrong
gradient, off by the class's factor 2 here); now a TypeError names the class. A loop
over a subclass with its own __iter__ (it yields values of its making) is refused too;
one with only its own __getitem__ iterates its entries and is differentiated. NumPy's
own subclasses (np.matrix: a __getitem__ in Python) are still indexed."""
import warnings

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, rng
from transform import TransformError, grad


class ScaledList(list):
    def __getitem__(self, i):
        return 2.0 * list.__getitem__(self, i)


class ScaledTuple(tuple):
    def __getitem__(self, i):
        return 2.0 * tuple.__getitem__(self, i)


class ScaledDict(dict):
    def __getitem__(self, k):
        return 2.0 * dict.__getitem__(self, k)


class DoublingList(list):
    def __iter__(self):
        return iter([2.0 * v for v in list.__iter__(self)])


class DoublingTuple(tuple):
    def __iter__(self):
        return iter([2.0 * v for v in tuple.__iter__(self)])


def first_squared(d):
    return np.sum(d[0] ** 2)


def keyed_squared(d):
    return np.sum(d["a"] ** 2)


def indexed_in_a_loop(d):
    s = 0.0
    for i in range(2):
        s = s + np.sum(d[i] ** 2)
    return s


def keyed_in_a_loop(d):
    s = 0.0
    for k in ["a", "b"]:
        s = s + np.sum(d[k] ** 2)
    return s


def looped(d, y):
    s = 0.0
    for v in d:
        s = s + np.sum(v ** 2 * y)
    return s


def _pair():
    x = rng("mut30a.subclass").normal(size=3)
    return x, x + 1.0


CASES = [(first_squared, ScaledList), (first_squared, ScaledTuple),
         (indexed_in_a_loop, ScaledList), (indexed_in_a_loop, ScaledTuple)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, cls", CASES)
def test_indexing_a_sequence_subclass_with_its_own_getitem_is_refused(fn, cls, policy):
    with pytest.raises(TransformError, match=rf"`\[\.\.\.\]` on a {cls.__name__} runs the "
                                        "class's own __getitem__"):
        grad(fn, policy=policy)(cls(_pair()))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [keyed_squared, keyed_in_a_loop])
def test_indexing_a_dict_subclass_with_its_own_getitem_is_refused(fn, policy):
    a, b = _pair()
    with pytest.raises(TransformError, match=r"`\[\.\.\.\]` on a ScaledDict runs the class's own"):
        grad(fn, policy=policy)(ScaledDict(a=a, b=b))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("cls", [DoublingList, DoublingTuple])
def test_a_loop_over_a_subclass_with_its_own_iter_is_refused(cls, policy):
    """When only `y` is differentiated (the backward sweep read the stored entries, not
    the doubled values the loop saw: y's gradient was off by 4)."""
    a, b = _pair()
    with pytest.raises(TypeError, match=f"a loop over a {cls.__name__} runs the class's "
                                        "own __iter__"):
        grad(looped, wrt=(1,), policy=policy)(cls([a, b]), np.array([1.0, 3.0, 0.5]))


def unpacked(d):
    a, b = d
    return np.sum(a ** 2) + np.sum(b)


def builtin_sum(d):
    return np.sum(sum(d) ** 2)


def listed(d):
    return np.sum(list(d)[0] ** 2)


def stacked(d):
    return np.sum(np.stack(d) ** 2)


def in_a_dict(d):
    return looped(d["xs"], 2.0)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("cls", [DoublingList, DoublingTuple])
@pytest.mark.parametrize("fn", [looped, unpacked, builtin_sum, listed, stacked, in_a_dict])
def test_differentiating_a_subclass_with_its_own_iter_is_refused(fn, cls, policy):
    """Unpacking, sum, list(...) and np.stack see the doubled values too, and each gave
    the stored entries the cotangent of the doubled ones (a quarter of the gradient of
    `a ** 2`): the argument is refused, also inside a dict."""
    xs = cls(_pair())
    args = (xs, 2.0) if fn is looped else ({"xs": xs},) if fn is in_a_dict else (xs,)
    with pytest.raises(TypeError, match=f"it is a {cls.__name__}, whose class defines "
                                        "__iter__"):
        grad(fn, wrt=(0,), policy=policy)(*args)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("wrt", [(0,), (1,)])
def test_a_loop_over_a_subclass_with_only_its_own_getitem_walks_its_entries(wrt, policy):
    """`for v in d` runs list.__iter__ (the stored entries): differentiated, and the
    backward sweep must not slice d through the class's __getitem__."""
    (a, b), y = _pair(), np.array([1.0, 3.0, 0.5])
    (got,) = grad(looped, wrt=wrt, policy=policy)(ScaledList([a, b]), y)
    if wrt == (1,):
        assert_close(got, numerical_grad(lambda y: looped(ScaledList([a, b]), y), (y,), 0))
        return
    got = list(got)     # a ScaledList like d: its entries as stored, not through got[i]
    assert len(got) == 2    # (the harness's tree reference reads d[i]: by hand here)
    assert_close(got[0], numerical_grad(
        lambda a: looped(ScaledList([a, b]), y), (a.copy(),), 0))
    assert_close(got[1], numerical_grad(
        lambda b: looped(ScaledList([a, b]), y), (b.copy(),), 0))


def matrix_row(m, y):
    return np.sum(np.asarray(m[1]) * y)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
@pytest.mark.parametrize("policy", POLICIES)
def test_numpy_subclasses_with_a_python_getitem_are_still_indexed(policy):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    y = np.array([1.5, -0.5])
    got = grad(matrix_row, wrt=(0,), policy=policy)(m, y)
    got = got[0] if isinstance(got, tuple) else got
    assert_close(np.asarray(got), numerical_grad(
        lambda a: matrix_row(np.matrix(a), y), (np.asarray(m).copy(),), 0))
