"""Writes the generated code cannot follow are refused before it runs, at the
user's line (a TransformError with no generated frame, the caller's arrays unchanged):
helpers writing into their arguments (even when their result is not differentiated),
list and dict methods other than append/extend, `+=` on what is surely changed in place
and shared, `+=` on an argument that turns out to be an array, and in-place NumPy calls
under another name. What stays supported is checked against finite differences."""
import inspect
import traceback

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad, value_and_grad, vjp

from . import inplace_funcs as F

A = np.array([0.5, -1.2, 0.8])
X = 0.7


def marked_line(fn):
    """The file line of the `# refused` marker in fn's source."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, text in enumerate(lines) if "# refused" in text)


def refused(call, args, fn):
    """call(*args) raises a TransformError at fn's marked line, from no generated code,
    leaving the array arguments as they were."""
    before = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(TransformError) as info:
        call(*args)
    assert "<thunkgrad" not in "".join(traceback.format_tb(info.tb))
    for old, new in zip(before, args):
        if isinstance(old, np.ndarray):
            np.testing.assert_array_equal(new, old)
    assert f"{inspect.getsourcefile(fn)}:{marked_line(fn)}:" in str(info.value), info.value
    return str(info.value)


HELPERS = [(F.helper_appends, F.push), (F.helper_sets_item, F.set_first),
           (F.helper_sets_key, F.set_key), (F.helper_updates, F.update_key),
           (F.helper_pops, F.pop_last), (F.helper_sorts, F.sort_list),
           (F.helper_adds_into_array, F.add_into)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("caller,helper", HELPERS, ids=[c.__name__ for c, _ in HELPERS])
def test_a_helper_writing_into_its_argument_is_refused(caller, helper, policy):
    message = refused(grad(caller, policy=policy), (X,), helper)
    assert f"`{helper.__name__}` is called at {inspect.getsourcefile(caller)}:" in message


def test_the_unrefused_helper_bug_was_real():
    """helper_appends's value really depends on the append (2x + 2x, not 2x)."""
    assert F.helper_appends(1.0) == pytest.approx(4.0)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [F.helper_adds_into_number, F.helper_writes_its_own_array])
def test_helpers_that_change_nothing_of_the_caller_keep_working(fn, policy):
    check_grad(fn, [X], policy=policy)


# pop/insert/clear/reverse and dict pop/setdefault on a list or dict the function builds
# and shares with nothing are rewritten (transform/frontend/container_methods.py): they
# were refused here before; tests/corpus/data_values.py refuses them where shared
MUTATORS = [F.list_pop_through_class]
REWRITTEN = [F.list_pop, F.list_insert, F.list_clear, F.list_reverse, F.dict_pop,
             F.dict_setdefault, F.list_remove]      # (remove: refused before issue 16)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", MUTATORS, ids=[f.__name__ for f in MUTATORS])
def test_list_and_dict_methods_that_change_the_object_are_refused(fn, policy):
    message = refused(grad(fn, policy=policy), (X,), fn)
    assert "Instead:" in message


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", REWRITTEN, ids=[f.__name__ for f in REWRITTEN])
def test_methods_changing_a_private_list_or_dict_match_finite_differences(fn, policy):
    check_grad(fn, [X], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [F.list_append_extend, F.shorter_list])
def test_append_extend_and_a_shorter_copy_keep_working(fn, policy):
    check_grad(fn, [X], policy=policy)


AUGMENTED = [F.augmented_copy_viewed, F.augmented_copy_in_dict, F.augmented_zeros_aliased]


# 2026-12-02, session 30 (py30a): `a -= x` on an array argument (issue 16, "Writes into
# an argument"): `a` is copied on entry, the caller's array is left as it was
@pytest.mark.parametrize("policy", POLICIES)
def test_augmented_argument_is_copied_on_entry(policy):
    a = A.copy()
    check_grad(F.augmented_argument, [X, a], wrt=(0, 1), policy=policy)
    np.testing.assert_array_equal(a, A)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", AUGMENTED, ids=[f.__name__ for f in AUGMENTED])
def test_augmented_assignment_changing_shared_memory_is_refused(fn, policy):
    refused(grad(fn, wrt=(0, 1), policy=policy), (X, A.copy()), fn)


@pytest.mark.parametrize("policy", POLICIES)
def test_augmented_list_display_through_an_alias_is_refused(policy):
    refused(grad(F.augmented_list_display_aliased, policy=policy), (X,),
            F.augmented_list_display_aliased)


ENTRY_POINTS = {
    "keywords": lambda f: lambda x, a: grad(f)(x=x, a=a),
    "value_and_grad": lambda f: lambda x, a: value_and_grad(f)(x, a),
    "vjp": lambda f: lambda x, a: vjp(f, x, a),
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize("arg", [np.array(2.0), [1.0]], ids=["0d", "list"])
def test_augmented_argument_is_refused_at_every_entry_point(entry, arg):
    """With a shape that may be a number (0-d) or a list, the compiler cannot tell;
    grad knows the argument and refuses before running."""
    arg = arg.copy()
    refused(ENTRY_POINTS[entry](F.augmented_argument), (X, arg), F.augmented_argument)


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_augmented_array_argument_works_at_every_entry_point(entry):
    """session 30 (py30a): an array argument's shape is known at every entry point: it
    is copied on entry, the result is the primal's and the caller's array is unchanged."""
    arg = A.copy()
    out = ENTRY_POINTS[entry](F.augmented_argument)(X, arg)
    np.testing.assert_array_equal(arg, A)
    expected = {"keywords": -2 * np.sum(A - X), "vjp": np.sum((A - X) ** 2),
                "value_and_grad": (np.sum((A - X) ** 2), -2 * np.sum(A - X))}[entry]
    got = out[0] if entry == "vjp" else out
    np.testing.assert_allclose(got, expected)


@pytest.mark.parametrize("policy", POLICIES)
def test_augmented_numbers_keep_working(policy):
    check_grad(F.augmented_local_number, [X], policy=policy)
    check_grad(F.augmented_number_argument, [X, 1.3], policy=policy)
    assert grad(F.augmented_number_argument, wrt=(0, 1), policy=policy)(x=X, acc=1.3) \
        == pytest.approx((2 * X + 1.3, X))


@pytest.mark.parametrize("policy", POLICIES)
def test_augmented_unshared_copy_keeps_working(policy):
    check_grad(F.augmented_unshared_copy, [X, A], policy=policy)


CALLS = [F.out_positional_alias, F.out_keyword_local_name, F.out_positional_local_name,
         F.sort_through_class, F.ufunc_accumulate_out, F.ufunc_reduce_out, F.ufunc_alias_at]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", CALLS, ids=[f.__name__ for f in CALLS])
def test_in_place_calls_under_another_name_are_refused(fn, policy):
    refused(grad(fn, wrt=(0, 1), policy=policy), (X, A.copy()), fn)


@pytest.mark.parametrize("policy", POLICIES)
def test_aliased_functions_without_an_output_keep_working(policy):
    check_grad(F.alias_without_out, [X, A], policy=policy)
    check_grad(F.ufunc_alias_add_at, [X, A], policy=policy)     # session 30 (lib30)
    check_grad(F.ufunc_alias_multiply_at, [X, A], policy=policy)  # session 34 (carried)
