"""What the compiler cannot differentiate is a TransformError that names
the file and line (and says what to do): calls to functions with no source and
no rule (at compile time, naming the function and mentioning rrule), writes into
argument arrays, attribute assignment, *args at a call site, starred targets,
recursive nested defs. Each test checks the file:line in the message."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, check_grad
from transform import TransformError, adjoint_source, grad

from . import errfuncs as E
from .check import assert_error_at, policies

A = np.array([0.3, -0.8, 1.1])


# ---- functions with no source and no rule ----------------------------------------------
NO_RULE = [
    (E.calls_cmath_asinh, "cmath.asinh(y)", "cmath.asinh"),
    (E.calls_frompyfunc, "vectorized_double(x)", "vectorized"),
    (E.calls_length_hint, "operator.length_hint(", "length_hint"),
]


@pytest.mark.parametrize("fn, marker, name", NO_RULE, ids=lambda v: getattr(v, "__name__", None))
def test_no_source_no_rule_is_a_compile_time_error(fn, marker, name):
    """adjoint_source compiles without running anything: the error comes from there."""
    with pytest.raises(TransformError) as info:
        adjoint_source(fn)
    assert_error_at(info.value, fn, marker, name, "rrule", "no derivative rule")


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("fn, marker, name", NO_RULE, ids=lambda v: getattr(v, "__name__", None))
def test_no_source_no_rule_from_grad(fn, marker, name, policy):
    arg = 1.3 if fn is not E.calls_frompyfunc else A
    with pytest.raises(TransformError) as info:
        grad(fn, policy=policy)(arg)
    assert_error_at(info.value, fn, marker, name, "rrule")


def test_no_rule_inside_a_helper_names_the_helpers_line():
    with pytest.raises(TransformError) as info:
        grad(E.calls_helper_calling_asinh)(1.3)
    assert_error_at(info.value, E.helper_calls_asinh, "cmath.asinh(y)", "cmath.asinh", "rrule")


def test_error_says_where_with_a_caret():
    with pytest.raises(TransformError) as info:
        adjoint_source(E.calls_cmath_asinh)
    err = info.value
    assert err.source_line.strip() == "return cmath.asinh(y) * x"
    assert err.col == err.source_line.index("cmath.asinh")
    assert "^" in str(err)


# ---- writes into arguments ---------------------------------------------------------------
# The function grad is called on gets a copy of an argument it writes into: it is
# differentiated as a map from the values it receives, the caller's array unchanged
# (check_grad passes read-only arrays and checks them afterwards).
ARG_WRITES = [
    (E.writes_argument, (np.array([0.5, -1.0, 2.0]),)),
    (E.aug_writes_argument, (np.array([0.5, -1.0, 2.0]),)),
    (E.slice_writes_argument, (np.array([0.5, -1.0, 2.0]), np.array([0.3, 0.7]))),
]


@pytest.mark.parametrize("fn, args", ARG_WRITES, ids=lambda v: getattr(v, "__name__", None))
@pytest.mark.parametrize("policy", POLICIES)
def test_write_into_an_argument_works_on_a_copy(fn, args, policy):
    check_grad(fn, args, policy=policy)


def test_the_copy_is_in_the_generated_code():
    assert "x = x.copy()" in adjoint_source(E.writes_argument)


def test_write_into_an_argument_of_a_helper():
    """The helper's parameter is an argument too: its line is named."""
    with pytest.raises(TransformError) as info:
        grad(E.calls_helper_writing_argument)(A)
    assert_error_at(info.value, E.helper_writes_argument, "v[0] = 0.0", "argument `v`")


def test_argument_is_left_alone_by_grad():
    x = A.copy()
    g = grad(E.writes_argument)(x)
    np.testing.assert_array_equal(x, A)
    np.testing.assert_array_equal(g, [0.0] + [1.0] * (A.size - 1))


# ---- attribute assignment ---------------------------------------------------------------------
def test_attribute_assignment_on_an_argument():
    with pytest.raises(TransformError) as info:
        adjoint_source(E.assigns_attribute, wrt=1)
    assert_error_at(info.value, E.assigns_attribute, "box.a = 1.0", "attribute")


@pytest.mark.parametrize("policy", POLICIES)
def test_attribute_assignment_on_a_local_object(policy):
    """Session 30: an object only the function sees is rebuilt with the attribute
    (frontend/attribute_writes.py), no longer refused."""
    check_function(E.assigns_attribute_of_local, (1.3,), policy=policy)


def test_attribute_assignment_inside_a_method():
    box = E.Box()
    with pytest.raises(TransformError) as info:
        grad(E.method_assigns_attribute, wrt=1)(box, 1.3)
    assert_error_at(info.value, E.Box.set_and_return, "self.a = x", "attribute")
    assert box.a == 0.0


# ---- other unsupported constructs --------------------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_star_args_at_a_call_site_spread_when_the_code_runs(policy):
    """Session 29: `f(*args)` of a list grown by append is spread at run time
    (runtime/spread.py), no longer refused."""
    check_function(E.star_call, (1.3, -0.4), policy=policy)
    check_function(E.star_call, (np.array([0.5, -1.2]), np.array([2.0, 0.3])), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_starred_assignment_target(policy):
    """Session 30: a list and indexing, as Python builds it (frontend/starred_targets.py)."""
    check_function(E.starred_target, (1.3, -0.4), policy=policy)


def test_starred_for_target():
    with pytest.raises(TransformError) as info:
        adjoint_source(E.starred_for_target)
    assert_error_at(info.value, E.starred_for_target, "for a, *rest in", "target")


def test_calling_a_callable_argument():
    """`model(x)` on an argument dispatches to the compiled rule of type(model).__call__."""
    class Scale:
        def __call__(self, v):
            return v * 3.0
    x = np.array([0.5, -1.0])
    np.testing.assert_allclose(grad(E.calls_a_callable_object, wrt=1)(Scale(), x), [3.0, 3.0])


def test_recursive_nested_def():
    with pytest.raises(TransformError) as info:
        grad(E.nested_recursion)(1.3)
    assert_error_at(info.value, E.nested_recursion, "return f(v * v, n - 1)", "itself",
                    "module level")


def test_dict_literal_with_variable_keys():
    with pytest.raises(TransformError) as info:
        adjoint_source(E.dict_variable_key_literal)
    assert_error_at(info.value, E.dict_variable_key_literal, "d = {key: x}", "constant keys")
