"""A helper or property read as an integer made from sizes runs as a checked copy
(runtime/integer_reads.py): a user object's own `.sum()` that adds to a differentiated
attribute is never run with its derivative dropped (session 40: it was, silently)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import grad

X = np.array([0.7, 1.3])


class _Counter:
    def __init__(self, w):
        self.w = w
        self.acc = 0.0

    def sum(self):
        self.acc = self.acc + self.w * 3.0
        return 2


class _Holder:
    def __init__(self, counter, sizes):
        self.counter = counter
        self.sizes = sizes


def _count(o):
    return int(o.sum()) + 0


def _held_count(h):
    return int(h.counter.sum()) + 0


def _held_size(h):
    return len(h.sizes) + h.sizes.shape[0] - 1


def counted(x):
    o = _Counter(x[0])
    n = _count(o)
    return o.acc * x[1] + n


def held(x, h):
    n = _held_count(h)
    return h.counter.acc * x[1] + n * x[0]


def sized(x, h):
    return np.sum(x[:_held_size(h)] ** 2) * np.sum(h.sizes)


def _held(x):
    return _Holder(_Counter(x[0]), np.array([1.0, 2.0]))


def test_a_local_user_objects_own_sum_is_not_dropped():
    assert numerical_grad(counted, [X], 0)[0] != 0      # .sum() adds to acc: 3 x[1]
    with pytest.raises(TypeError, match="own `sum`"):
        grad(counted)(X)


def test_a_user_object_reached_by_an_attribute_is_refused_when_it_runs():
    h = _held(X)
    assert numerical_grad(lambda x: held(x, _held(x)), [X], 0)[0] != X[1] * 0
    with pytest.raises(TypeError, match="integer made from sizes.*_Counter"):
        grad(held)(X, h)
    assert h.counter.acc == 0.0         # the checked copy refused before the .sum()


def test_array_attributes_of_a_user_object_stay_integers():
    h = _held(X)
    want = numerical_grad(lambda x: sized(x, h), [X], 0)
    assert np.all(want != 0)
    assert_close(grad(sized)(X, h), want, 1e-6, 1e-8, "sized")


def _positives(c):
    return int((c > 0).sum())


def counted_positives(x):
    return np.sum(x[:_positives(x)] ** 2) * (_positives(x) + 1)


def test_a_count_of_a_mask_is_an_integer():
    want = numerical_grad(counted_positives, [X], 0)
    assert np.all(want != 0)
    assert_close(grad(counted_positives)(X), want, 1e-6, 1e-8, "count")


class _Sneaky:
    def __init__(self, w):
        self.w, self.acc = w, 0.0

    def __gt__(self, other):
        self.acc = self.acc + self.w
        return np.array([True, False])


def _sneaky_count(h):
    return int((h.counter > 0).sum())


def test_a_user_objects_comparison_is_refused_when_it_runs():
    h = _Holder(_Sneaky(X[0]), None)
    with pytest.raises(TypeError, match="integer made from sizes.*_Sneaky"):
        grad(lambda x, h: x[1] * _sneaky_count(h))(X, h)
    assert h.counter.acc == 0.0


_STALE = '''import numpy as np


class Holder:
    def __init__(self, sizes):
        self.sizes = sizes


def size_of(h):
    return len(h.sizes) + 0


def f(x, h):
    return np.sum(x[:size_of(h)] ** 2)
'''


def test_a_helper_edited_after_import_is_refused(tmp_path):
    """The checked copy is built from the helper's source: a file edited after import
    gave the edited helper's integer (grad [1, 2, 0] against [1, 2, 4], silently)."""
    import importlib.util
    import os
    import time
    path = tmp_path / "stale_integer_helper.py"
    path.write_text(_STALE)
    spec = importlib.util.spec_from_file_location("stale_integer_helper", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path.write_text(_STALE.replace("len(h.sizes) + 0", "len(h.sizes) - 1"))
    later = time.time() + 5
    os.utime(path, (later, later))
    with pytest.raises(TypeError, match="size_of's source, which is not the code that runs"):
        grad(module.f)(np.array([0.5, 1.0, 2.0]), module.Holder(np.ones(3)))
