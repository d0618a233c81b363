"""hvp forward over reverse with a differentiated value given to a keyword-only
parameter (session 37, frkw): the flat gradient's dispatched call (transform/
flat_dispatch.py) passes the keyword's tangent by name and places its cotangent's
tangent at the parameter's place, where it refused at run time before (so route "auto"
could not fall back). Also a custom rule (np.piecewise) given constant keywords.
Each H v against central differences of grad and against route="reverse_over_forward"."""
import numpy as np
import pytest

from tests.fd import assert_close
from transform import grad, hvp

X, T = np.array([0.3, 0.7, -0.4]), np.array([1.0, -0.5, 0.2])


def _weighted(x, *, y, scale=1.0):
    return np.sum(np.sin(x) * y) * scale


def _kwcall(fn, *args, scale=1.0):
    return scale * fn(*args)


class Model:
    def energy(self, h, *, w, bias=0.0):
        return np.sum(np.tanh(h * w) + bias * h)


def _piece(v, k=1.0, c=2.0):
    return np.sin(v) * k * v + c


def keyword_only_differentiated(x):
    return _weighted(np.cos(x), y=x ** 2, scale=x[1])


def keywords_in_another_order(x):
    return _weighted(np.cos(x), scale=x[1] * x[0], y=np.exp(x))


def keyword_only_through_a_dict(x):
    p = {"y": x * 2.0, "scale": np.sum(x)}
    return _weighted(x, **p)


def keyword_only_after_star_args(x):
    return _kwcall(np.dot, x ** 2, np.sin(x), scale=x[1]) + _kwcall(np.sum, x, scale=x[2])


def method_constant_keywords(x):
    return Model().energy(x ** 2, w=1.5, bias=0.25) * np.sum(x)


def closure_keyword_only(x):
    a = x[0]

    def inner(h, *, w):
        return np.sum(np.tanh(h * w) * a)
    return inner(x ** 2, w=np.cos(x))


def piecewise_with_keywords(x):
    return np.sum(np.piecewise(x, [x < 0], [_piece, lambda v, k=1.0, c=2.0: v ** 3 * c],
                               k=3.0, c=0.5))


CASES = [keyword_only_differentiated, keywords_in_another_order, keyword_only_through_a_dict,
         keyword_only_after_star_args, method_constant_keywords,
         closure_keyword_only, piecewise_with_keywords]


def _differences_of_grad(f, x, t, h=1e-5):
    g = grad(f)
    return (np.asarray(g(x + h * t)) - np.asarray(g(x - h * t))) / (2 * h)


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_forward_over_reverse(f):
    got = hvp(f, (X,), (T,), route="forward_over_reverse")
    assert_close(got, _differences_of_grad(f, X, T), 1e-5, 1e-7)
    assert_close(got, hvp(f, (X,), (T,), route="reverse_over_forward"), 1e-9, 1e-11)


def test_auto_takes_forward_over_reverse_keywords():
    f = keyword_only_differentiated
    assert_close(hvp(f, (X,), (T,), route="auto"), _differences_of_grad(f, X, T), 1e-5, 1e-7)


def _with_rest(x, **rest):
    return np.sum(np.sin(x) * rest["b"]) ** 2


def constant_keyword_into_kwargs(x):
    """A constant's (zero) tangent into `**kwargs`: dropped; a differentiated value there
    is refused before anything runs (reverse mode's own refusal)."""
    return _with_rest(x, b=1.5, c="label")


def test_a_constant_keyword_into_kwargs():
    f = constant_keyword_into_kwargs
    got = hvp(f, (X,), (T,), route="forward_over_reverse")
    assert_close(got, _differences_of_grad(f, X, T), 1e-5, 1e-7)
    assert_close(got, hvp(f, (X,), (T,), route="reverse_over_forward"), 1e-9, 1e-11)
