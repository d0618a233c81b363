"""Session 34 (carried): np.vectorize of a user function, called directly
(`np.vectorize(f)(x)`), through a local bound once (`v = np.vectorize(f); v(x)`), or as a
module-level `@np.vectorize` function of two arguments: written as the loop np.vectorize
runs (transform/frontend/vectorize_calls.py, runtime/vectorize_source.py), each call of f
differentiated; the result in the first result's dtype, as NumPy gives it (an int first
result truncates: no derivative there, as in the primal). Before, NumPy's own
vectorize.__call__ was compiled and refused at a line of NumPy's source."""
import numpy as np
import pytest

from tests.gradcheck import check_grad
from transform import TransformError, grad


def wave(t):
    return np.sin(t) * t


@np.vectorize
def hinge(t, s):
    return np.exp(-t * s) if t > s else t - s


def direct(w):
    def piece(t):
        return t * t if t > 0 else -t
    return np.sum(np.vectorize(piece)(w)) + np.sum(np.vectorize(wave)(np.outer(w, w)))


def through_a_local(w):
    k = w[0] * 2.0
    v = np.vectorize(lambda t: t * k + t ** 3)
    return np.sum(v(w) ** 2)


def decorated(w):
    return np.sum(hinge(w, 0.5) * w) + hinge(w[1], w[2]) + np.sum(hinge(w, w[:, None]))


def int_first(w):
    return np.sum(np.vectorize(lambda t: 1 if t > 0 else t)(w) * w)


W = np.array([0.3, -1.2, 2.0])


@pytest.mark.parametrize("fn", [direct, through_a_local, decorated, int_first])
def test_matches_finite_differences(fn):
    check_grad(fn, (W,))


def test_the_value_is_numpys():
    got = grad(int_first, wrt=0)(W)
    assert np.vectorize(lambda t: 1 if t > 0 else t)(W).dtype.kind == "i"
    np.testing.assert_allclose(got, np.vectorize(lambda t: 1 if t > 0 else t)(W))


def with_otypes(w):
    return np.sum(np.vectorize(wave, otypes=[float])(w))


def with_a_keyword(w):
    return np.sum(hinge(w, s=0.5))


@pytest.mark.parametrize("fn", [with_otypes, with_a_keyword])
def test_other_forms_are_refused_at_the_users_line(fn):
    with pytest.raises(TransformError, match=r"test_vectorize.py:\d+:\d+: .*np.vectorize"):
        grad(fn, wrt=0)(W)
