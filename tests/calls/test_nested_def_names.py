"""A nested def bound to another name (`h = g`, `h = sq if c else cube`) is its closure
record: the generated code said `h = g` with no g defined (a NameError from generated
code in every mode: grad, jvp, hvp's three routes; session 40)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import grad, hvp, jvp

X, V = np.array([0.3, 0.7]), np.array([1.0, 0.5])


def renamed(x):
    def g(a):
        return a * a
    h = g
    return np.sum(h(x) * x)


def chosen(x):
    w = x * 2.0

    def sq(a):
        return a * w

    def cube(a):
        return a * a * a
    h = sq if x[0] > 0 else cube
    k = h
    return np.sum(k(x) + h(x * x))


@pytest.mark.parametrize("f", [renamed, chosen])
def test_against_differences(f):
    assert_close(grad(f)(X), numerical_grad(f, [X], 0))
    assert_close(jvp(f, (X,), (V,))[1], numerical_jvp(f, (X,), 0, V))
    for route in (None, "forward_over_reverse", "reverse_over_forward"):
        assert_close(hvp(f, (X,), (V,), route=route), numerical_jvp(grad(f), (X,), 0, V),
                     1e-5, 1e-7, str(route))


def rebound_to_sin(x):
    def g(a):
        return a * a
    y = g(x)
    g = np.sin
    return np.sum(y + g(x))


def rebound_to_mask(x):
    def step(a):
        return a * 2.0
    y = step(x)
    step = x > 0.5
    return np.sum(y * step)


@pytest.mark.parametrize("f", [rebound_to_sin, rebound_to_mask])
def test_a_nested_def_name_bound_again_is_refused(f):
    """g(x) after `g = np.sin` still ran the def: grad [1.2, 2.8] against differences
    [1.555, 2.165], a silent wrong gradient (session 40); `step * y` after `step = x >
    0.5` read the def's closure record (a TypeError from generated code)."""
    from transform.errors import TransformError
    assert np.any(numerical_grad(f, [X], 0) != 0)
    for run in (lambda: grad(f)(X), lambda: jvp(f, (X,), (V,)),
                lambda: hvp(f, (X,), (V,))):
        with pytest.raises(TransformError, match=r"test_nested_def_names.py:\d+:\d+: the "
                                                 r"nested function \w+\(\) is also bound"):
            run()
