"""A mutant of runtime/rules/shape.py (session 29, mutG): the declaration that
functions without a rule may return a view of their argument (np.require,
np.asarray_chkfinite, np.rollaxis, as_strided), dropped, let a write through such a
view into an array read afterwards go unseen: a silent wrong gradient (zero for the
value written). With it the compiler refuses at the write."""
import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

from tests.gradcheck import POLICIES
from transform import TransformError, grad


def through_require(x):
    m = np.zeros(3)
    v = np.require(m)
    v[1] = np.sin(x[0])
    return np.sum(m * x)


def through_asarray_chkfinite(x):
    m = np.zeros(3)
    v = np.asarray_chkfinite(m)
    v[1] = np.sin(x[0])
    return np.sum(m * x)


def through_rollaxis(x):
    m = np.zeros((3, 1))
    v = np.rollaxis(m, 1)
    v[0, 1] = np.sin(x[0])
    return np.sum(m[:, 0] * x)


def through_as_strided(x):
    m = np.zeros(3)
    v = as_strided(m, shape=(3,), strides=m.strides)
    v[1] = np.sin(x[0])
    return np.sum(m * x)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [through_require, through_asarray_chkfinite,
                                through_rollaxis, through_as_strided])
def test_write_through_a_view_made_without_a_rule_is_refused(fn, policy):
    x = np.array([0.3, 0.5, 0.7])
    assert fn(x) == pytest.approx(np.sin(0.3) * 0.5)
    with pytest.raises(TransformError, match="a view of `m`"):
        grad(fn, policy=policy)(x)
