"""Session 39, item 5: an np.vectorize passed to a helper and called there. grad compiled
NumPy's own vectorize.__call__ and refused inside NumPy's source; now the call runs the
loop np.vectorize runs (runtime/vectorize_source.py), as a call the source shows does,
against central differences. Forward mode refuses np.vectorize (held in a value or not)
at the user's line, naming it."""
import math

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import TransformError, grad, jvp, vjp

X = np.array([0.3, -0.5, 1.2])
T = np.array([0.7, -0.2, 1.1])


def _piece(x, a):
    return math.sin(x) * a if x > 0 else x * a


VF = np.vectorize(_piece)
TYPED = np.vectorize(_piece, otypes=[float])


def apply(fn, x, a):
    return fn(x, a)


def through_helper(x):
    return np.sum(apply(VF, x, 2.0) ** 2)


def made_inside(x):
    g = np.vectorize(lambda t: t * t + np.sin(t))
    return np.sum(apply(lambda u, a: g(u) * a, x, 3.0))


def typed_through_helper(x):
    return np.sum(apply(TYPED, x, 2.0))


@pytest.mark.parametrize("f", [through_helper, made_inside])
def test_vectorize_value_grad(f):
    assert_close(grad(f)(X), numerical_grad(f, (X,), 0))
    _, pullback = vjp(f, X)
    assert_close(pullback(1.0)[0], numerical_grad(f, (X,), 0))


def test_unsupported_form_refused_at_the_call():
    with pytest.raises(TransformError, match="np.vectorize held in a value is not supp"):
        grad(typed_through_helper)(X)


def test_forward_mode_refuses_naming_vectorize():
    with pytest.raises(TransformError, match="made by np.vectorize") as info:
        jvp(through_helper, (X,), (np.ones(3),))
    assert "test_vectorize_values.py" in str(info.value)


def test_forward_mode_through_a_closure_calling_one():
    """(called in a lambda that closes over it: computed, against differences)"""
    got = jvp(made_inside, (X,), (T,))[1]
    assert_close(got, numerical_jvp(made_inside, [X], 0, T))
