"""NumPy array attributes and methods on values being differentiated, bound
methods, a global bound to None, and errors from methods reached at run time.

Each ends as a right value and finite-difference gradient, or a TransformError at the
user's line with no frame of generated code in its traceback."""
import traceback

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad, check_vjp
from tests.safety import misc_funcs as mf
from transform import TransformError, grad, value_and_grad, vjp

X = np.array([[0.5, -1.0], [1.5, 2.0]])
V = np.array([0.3, -0.7, 1.1])
FILE = mf.__file__
NEEDS_MT = pytest.mark.skipif(not hasattr(X, "mT"), reason="ndarray.mT is new in NumPy 2.0")


def refusal(fn, *args, wrt=0):
    """The TransformError grad(fn) raises; it carries no generated frame."""
    with pytest.raises(TransformError) as info:
        grad(fn, wrt=wrt)(*args)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert not [fr for fr in frames if "<thunkgrad" in fr.filename]
    return info.value


# 1. ndarray attributes

@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [mf.real_squared, mf.imag_plus,
                                pytest.param(mf.matrix_transpose, marks=NEEDS_MT)])
def test_array_attributes_with_a_derivative(fn, policy):
    check_grad(fn, (X,), policy=policy)


@NEEDS_MT
def test_mT_of_a_stack_transposes_the_last_two_axes():
    stack = np.arange(12.0).reshape(3, 2, 2) / 10
    check_grad(mf.matrix_transpose, (stack,))


def test_real_of_a_python_float():
    check_grad(mf.scalar_real, (1.5,))


@pytest.mark.parametrize("fn, line", [(mf.flat_read, 25), (mf.base_read, 30),
                                      (mf.data_read, 34), (mf.flags_read, 38)])
def test_array_attributes_without_a_derivative_are_refused_at_the_line(fn, line):
    err = refusal(fn, V.copy())
    assert (err.filename, err.line) == (FILE, line)
    assert "has no derivative" in err.message


def test_flat_of_an_array_not_differentiated_runs():
    check_grad(mf.flat_of_a_constant, (V, np.array([2.0, 3.0])), wrt=(0,))


# 2. ndarray methods

@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, x", [(mf.item_of_one, np.array([1.7])), (mf.item_at, V),
                                   (mf.item_at_tuple, X), (mf.tolist_sum, V),
                                   (mf.tolist_entries, X)])
def test_item_and_tolist(fn, x, policy):
    check_grad(fn, (x,), policy=policy)


def test_a_method_without_a_rule_is_refused_at_the_users_line():
    err = refusal(mf.unmapped_method, V.copy())
    assert (err.filename, err.line) == (FILE, 67)
    assert "ndarray.byteswap()" in err.message and "rrule" in err.hint


# 3. bound methods: differentiated with respect to the explicit arguments

@pytest.mark.parametrize("policy", POLICIES)
def test_grad_of_a_bound_method(policy):
    obj = mf.Scaled(2.0)
    assert_close(grad(obj.apply, policy=policy)(1.5), 2 * 2.0 * 1.5, rtol=1e-12, atol=0)
    check_grad(obj.mix, (V, V[::-1].copy()), policy=policy)
    check_grad(obj.mix, (V, V[::-1].copy()), wrt=(1,), policy=policy)


def test_value_and_grad_and_vjp_of_a_bound_method():
    obj = mf.Scaled(0.5)
    value, dx = value_and_grad(obj.apply)(1.5)
    assert_close(value, obj.apply(1.5), rtol=1e-12, atol=0)
    assert_close(dx, numerical_grad(obj.apply, [1.5], 0), rtol=1e-6, atol=1e-8)
    check_vjp(obj.mix, (V, V + 1.0))
    dy, = vjp(obj.mix, V, V + 1.0, wrt="y")[1](1.0)
    assert_close(dy, numerical_grad(obj.mix, [V, V + 1.0], 1), rtol=1e-5, atol=1e-7)


def test_a_bound_method_sees_its_receiver_change():
    obj = mf.Scaled(2.0)
    df = grad(obj.apply)
    obj.w = 3.0
    assert_close(df(1.5), 2 * 3.0 * 1.5, rtol=1e-12, atol=0)


# 4. a module global bound to None, read when the code runs

@pytest.mark.parametrize("policy", POLICIES)
def test_a_global_bound_to_none(policy):
    check_grad(mf.clipped_by_global, (V,), policy=policy)


def test_a_global_rebound_from_none(monkeypatch):
    check_grad(mf.clipped_by_global, (V,))
    monkeypatch.setattr(mf, "OFFSET", 0.0)
    check_grad(mf.clipped_by_global, (V,))            # the same compiled code, new value
    assert_close(grad(mf.clipped_by_global)(V), [0.6, 0.0, 0.0], rtol=1e-12, atol=0)


# 6. a method compiled when reached at run time

def test_a_method_reached_at_run_time_names_its_line_and_the_call_site():
    err = refusal(mf.call_run, mf.ReadsFlat(), V.copy(), wrt=1)
    assert (err.filename, err.line) == (FILE, 87)
    assert f"{FILE}:96" in err.message and "obj.run(x)" in err.message


def test_the_same_call_site_works_for_another_type():
    check_grad(mf.call_run, (mf.Squares(), V), wrt=(1,))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_user_objects_own_item_and_tolist_are_its_methods(policy):
    check_grad(mf.bag_item, (mf.Bag(3.0), 0.7), wrt=(1,), policy=policy)
