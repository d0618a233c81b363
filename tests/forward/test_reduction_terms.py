"""Forward mode on rules whose JVP is declared REDUCTION (runtime/jvp.py): the VJP
template at a cotangent of ones against the tangent, summed along the rule's axis,
expanded inline; against central finite differences."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import jvp


def max_rows(x):
    return np.max(x, axis=0) * 2.0


def std_kept(x):
    return np.std(x, axis=1, keepdims=True) + x


def prod_all(x):
    return np.prod(x) + np.ptp(x)


def var_of_tanh(x):
    return np.var(np.tanh(x), axis=-1)


@pytest.mark.parametrize("fn", [max_rows, std_kept, prod_all, var_of_tanh])
def test_reduction_tangents_match_differences(fn):
    r = rng(321)
    x = r.normal(size=(3, 4))
    t = r.normal(size=(3, 4))
    out, tangent = jvp(fn, (x,), (t,))
    assert_close(out, fn(x))
    assert_close(tangent, numerical_jvp(fn, (x,), 0, t))
