"""What grad of grad refuses, and where: a non-scalar derivative output (has_aux's
(gradient, aux) too), derivatives of hessian/jacfwd functions, generated code calling helpers reverse mode has no rule
for, a differentiated value passed by keyword. Each refusal names the user's file and
line; none returns a value."""
import inspect

import numpy as np
import pytest

from transform import TransformError, grad, hessian, jvp, value_and_grad

X = np.array([0.3, 1.2])


def f(x):
    return np.sum(np.sin(x) * x ** 3)


def cube(x):
    return x ** 3


def calls(x):
    return np.sum(cube(x) * 2.0)


def two(x, y):
    return np.sum(x * y ** 2)


def with_aux(x):
    return np.sum(x ** 3), x


f_hessian = hessian(f)
two_grad = grad(two)


def uses_hessian(x):
    return np.sum(f_hessian(x))


def keyword_call(x):
    return np.sum(two_grad(x, y=x))


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if text in line)


def test_grad_of_grad_of_an_array_argument_is_refused():
    with pytest.raises(TypeError, match="scalar output"):
        grad(grad(f))(X)


@pytest.mark.parametrize("make", [lambda: grad(value_and_grad(f)),
                                  lambda: grad(grad(two, wrt=(0, 1)))])
def test_grad_of_a_derivative_returning_a_tuple_is_refused(make):
    with pytest.raises(TypeError, match="returns a tuple"):
        make()(1.0, 2.0)


def test_grad_of_grad_with_aux_is_refused_as_a_tuple():
    # session 34: grad(f, has_aux=True) is differentiated again (tests/higher/
    # test_aux_derivatives.py); its output (gradient, aux) is no scalar
    with pytest.raises(TypeError, match="returns a tuple"):
        grad(grad(with_aux, has_aux=True))


@pytest.mark.parametrize("make", [lambda: grad(hessian(f))])
def test_derivatives_of_other_derivative_functions_are_refused_at_the_def(make):
    with pytest.raises(TransformError, match="not supported") as info:
        make()
    assert info.value.filename == __file__ and info.value.hint


@pytest.mark.parametrize("entry", ["grad", "jvp"])
def test_a_call_of_hessian_inside_differentiated_code_is_refused_at_the_call(entry):
    with pytest.raises(TransformError, match="not differentiated again") as info:
        if entry == "grad":
            grad(uses_hessian)(X)
        else:
            jvp(uses_hessian, (X,), (X,))
    assert info.value.filename == __file__
    assert info.value.line == line_of(uses_hessian, "f_hessian(x)")


def test_a_call_of_another_function_is_differentiated_twice():
    # session 33: refused while call_jvp had no reverse rule (s33-corp gave it one);
    # d2/dx2 sum(2 x^3) = 12 x, against central differences of the first derivative
    x, h = 0.5, 1e-5
    first = grad(calls)
    assert np.isclose(grad(grad(calls))(x), (first(x + h) - first(x - h)) / (2 * h),
                      rtol=1e-7)
    assert np.isclose(grad(grad(calls))(x), 12 * x)


@pytest.mark.parametrize("entry", ["grad", "jvp"])
def test_a_differentiated_value_passed_by_keyword_is_refused(entry):
    with pytest.raises(TransformError) as info:
        if entry == "grad":
            grad(keyword_call)(X)
        else:
            jvp(keyword_call, (X,), (X,))
    assert info.value.line == line_of(keyword_call, "two_grad(")
