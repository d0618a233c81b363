"""Jacobians of Jacobians and of Hessians (transform/nested_jacobians.py): every pairing of
jacfwd and jacrev, over one argument or two, against central differences of the inner
Jacobian (itself checked against differences in test_jacfwd.py and
test_hvp.py); a function calling a helper (forward mode over the call's tangent); and
the nestings still refused, at f's def."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hessian, jacfwd, jacrev

R = rng(51)
X, Y = R.normal(size=3), R.normal(size=2)


def field(x, y):
    return np.tanh(x * y[0]) * np.sum(x ** 2) + y[1] * x


def _scale(x, w):
    return np.sin(w * x) * x


def calls(x, y):
    return _scale(x, y[0]) * y[1] + _scale(x ** 2, 0.5)


def energy(x, y):
    return np.sum(np.sin(x) * x ** 2) * y[0] + np.sum(x) ** 3 * y[1]


def _against_differences(nested, inner, args, wrt):
    """nested(*args)[..., j] == d inner(*args) / d args[wrt] along its j-th entry."""
    got = nested(*args)
    inner_value = np.asarray(inner(*args))
    a = args[wrt]
    assert got.shape == inner_value.shape + np.shape(a)
    for j in np.ndindex(np.shape(a)):
        e = np.zeros_like(a)
        e[j] = 1.0
        assert_close(got[(Ellipsis,) + j], numerical_jvp(inner, list(args), wrt, e),
                     rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("outer", [jacfwd, jacrev], ids=["jacfwd", "jacrev"])
@pytest.mark.parametrize("inner", [jacfwd, jacrev], ids=["jacfwd", "jacrev"])
@pytest.mark.parametrize("fn", [field, calls], ids=["field", "calls"])
@pytest.mark.parametrize("wrt", [(0, 0), (0, 1), (1, 0)])
def test_jacobian_of_a_jacobian(outer, inner, fn, wrt):
    first = inner(fn, wrt=wrt[0])
    _against_differences(outer(first, wrt=wrt[1]), first, (X, Y), wrt[1])


@pytest.mark.parametrize("outer", [jacfwd, jacrev], ids=["jacfwd", "jacrev"])
@pytest.mark.parametrize("wrt", [0, 1])
def test_jacobian_of_a_hessian(outer, wrt):
    h = hessian(energy)
    _against_differences(outer(h, wrt=wrt), h, (X, Y), wrt)


@pytest.mark.parametrize("outer", [jacfwd, jacrev], ids=["jacfwd", "jacrev"])
def test_jacobian_of_the_jacobian_of_a_gradient(outer):
    """Third derivatives: the inner Jacobian's columns are grad(energy)'s tangent
    function (transform/derivatives.py)."""
    first = jacfwd(grad(energy))
    _against_differences(outer(first), first, (X, Y), 0)


def test_jacfwd_of_jacrev_of_a_scalar_function_is_its_hessian():
    assert_close(jacfwd(jacrev(energy))(X, Y), hessian(energy)(X, Y), rtol=1e-10)


def _scalar_in(x, y):
    return np.exp(x * y) * np.sum(y)


def test_float_arguments():
    first = jacrev(_scalar_in)
    got = jacfwd(first)(0.3, Y)
    assert np.shape(got) == np.shape(Y)         # the output's shape, x a float
    assert_close(got, numerical_jvp(first, [0.3, Y], 0, 1.0), rtol=1e-6)
    _against_differences(jacfwd(first, wrt=1), first, (0.3, Y), 1)


def _with_aux(x):
    return np.sin(x), x * 2


@pytest.mark.parametrize("outer, inner", [(jacfwd, jacrev), (jacrev, jacfwd)],
                         ids=["jacfwd-jacrev", "jacrev-jacfwd"])
def test_tuple_wrt_at_both_levels(outer, inner):
    """Entry [i][j]: the inner Jacobian in argument i differentiated in argument j; a
    tuple at one level alone gives one index (session 35, rules2)."""
    first = inner(field, wrt=(0, 1))
    both = outer(first, wrt=(0, 1))(X, Y)
    for i in range(2):
        column = (lambda k: lambda *args: first(*args)[k])(i)
        for j in range(2):
            _against_differences(lambda *args, i=i, j=j: both[i][j], column, (X, Y), j)
    assert_close(outer(first)(X, Y)[1], both[1][0], rtol=1e-12)
    assert_close(outer(inner(field), wrt=(0, 1))(X, Y)[1], both[0][1], rtol=1e-12)


@pytest.mark.parametrize("make", [
    lambda: hessian(energy, wrt=(0, 1)) and jacfwd(hessian(energy, wrt=(0, 1))),
    lambda: jacrev(jacrev(_with_aux, has_aux=True)),
    lambda: jacfwd(jacfwd(jacfwd(field))),
    lambda: hessian(jacfwd(energy)),
    lambda: jacfwd(jacfwd(grad(_with_aux, has_aux=True)))],
    ids=["a Hessian's tuple wrt", "has_aux", "third Jacobian", "hessian",
         "grad with has_aux"])
def test_other_nestings_are_refused_at_the_def(make):
    with pytest.raises(TransformError, match="not supported") as info:
        make()
    assert info.value.filename == __file__
