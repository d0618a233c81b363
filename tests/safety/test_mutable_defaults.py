"""A parameter whose default is a mutable object (session 32). Python writes into the
default itself, so a later call sees the write; the compiled function works on a copy.
So a write into such a parameter is refused at its line, naming the default and the
`=None` idiom, which works (the None default is kept by the copy on entry); reading a
mutable default, rebinding the name or copying it first works."""
import numpy as np
import pytest

from tests.containers.check import line_of
from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad

X = np.array([0.5, -1.2, 2.0])


def slice_store(x, buf=np.zeros(3)):
    buf[:] = x * 2.0
    return np.sum(buf * x)


def keyword_only_add(x, *, buf=np.zeros(3)):
    buf += x
    return np.sum(buf * x)


def positional_add(x, buf=np.zeros(3)):
    buf += x
    return np.sum(buf * x)


def list_append(x, hist=[]):
    hist.append(x)
    return np.sum(x * x)


def fill_method(x, buf=np.ones(3)):
    buf.fill(2.0)
    return np.sum(buf * x)


def dict_store(x, cache={}):
    cache["x"] = x
    return np.sum(x * x)


REFUSED = [(slice_store, "buf[:] = x * 2.0", "NumPy array", "np.zeros(...)"),
           (keyword_only_add, "buf += x", "NumPy array", "np.zeros(...)"),
           (positional_add, "buf += x", "NumPy array", "np.zeros(...)"),
           (list_append, "hist.append(x)", "list", "[]"),
           (fill_method, "buf.fill(2.0)", "NumPy array", "np.zeros(...)"),
           (dict_store, 'cache["x"] = x', "dict", "{}")]


@pytest.mark.parametrize("fn, line, what, new", REFUSED, ids=[r[0].__name__ for r in REFUSED])
def test_write_into_a_mutable_default_is_refused_at_its_line(fn, line, what, new):
    kept = [np.copy(d) if isinstance(d, np.ndarray) else type(d)(d)
            for d in (fn.__defaults__ or ()) + tuple((fn.__kwdefaults__ or {}).values())]
    with pytest.raises(TransformError) as caught:
        grad(fn)(X)
    text = str(caught.value)
    assert f":{line_of(fn, line)}:" in text
    assert f"its default is one {what} that every call shares" in text
    assert f"if {line.split('.')[0].split('[')[0].split()[0]} is None" in text and new in text
    now = (fn.__defaults__ or ()) + tuple((fn.__kwdefaults__ or {}).values())
    for before, after in zip(kept, now):
        assert np.array_equal(before, after) if isinstance(before, np.ndarray) \
            else before == after


def read_only(x, scale=np.array([1.0, 2.0, 3.0])):
    return np.sum(scale * x * x)


def none_default(x, buf=None):
    buf = np.zeros(3) if buf is None else buf
    buf[:] = x * 2.0
    buf[1] = buf[1] * x[0]
    return np.sum(buf * x)


def none_default_branch(x, out=None):
    if out is None:
        out = np.zeros_like(x)
    out[1:] = np.tanh(x[:-1])
    out += x
    return np.sum(out * out)


def copied_first(x, buf=np.zeros(3)):
    buf = buf.copy()
    buf[:2] = x[1:] * 2.0
    return np.sum(buf * x)


def rebound(x, buf=np.zeros(3)):
    buf = buf + x
    return np.sum(buf * x)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [read_only, none_default, none_default_branch, copied_first,
                                rebound], ids=lambda fn: fn.__name__)
def test_reads_the_none_idiom_and_copies_work(fn, policy):
    check_grad(fn, (X,), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [none_default, none_default_branch], ids=lambda fn: fn.__name__)
def test_the_none_idiom_given_an_array(fn, policy):
    given = np.array([1.0, -2.0, 0.5])
    check_grad(fn, (X, given), wrt=0, policy=policy)
    assert np.array_equal(given, [1.0, -2.0, 0.5])          # the caller's array is kept
