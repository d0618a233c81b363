"""Silent wrong gradients a red team found: each is now right (finite
differences, every policy) or refused before generated code runs, at the user's
line, with no `<thunkgrad` frame and the caller's arrays unchanged."""
import inspect
import traceback

import numpy as np
import pytest

from tests.containers.check import assert_error_at, line_of
from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad

from . import alias_redteam_funcs as F

A2 = np.array([[1.0, 2.0], [3.0, 4.0]])
COL = np.array([[1.0], [2.0], [3.0]])
ROW = np.array([[1.0, 2.0]])
V3 = np.array([1.0, 2.0, 3.0])
V4 = np.array([1.0, 2.0, 3.0, 4.0])

# fn, args, the text of the refused line, words the message says
REFUSED = [
    (F.swap_rows, (A2,), "B[0], B[1] = B[1], B[0]", "`B`", "`B[0]`", "view",
     "B[[0, 1]] = B[[1, 0]]", ".copy()"),
    (F.rotate_rows, (COL,), "S[0], S[1], S[2] = S[1], S[2], S[0]", "`S`", "view"),
    (F.swap_columns, (ROW,), "S[:, 0], S[:, 1] = S[:, 1], S[:, 0]", "`S`", ".copy()"),
    (F.swap_halves, (V4,), "y[:2], y[2:] = y[2:], y[:2]", "`y`", "`y[:2]`"),
    (F.swap_scalars, (V3,), "y[0], y[1] = y[1], y[0]", "`y`", "y[[0, 1]] = y[[1, 0]]"),
    (F.swap_through_a_name, (A2,), "B[0], B[1] = r, B[0]", "`B`", "`B[0]`"),
    (F.swap_unpacking_a_name, (A2,), "B[0], B[1] = r", "`B`", "`r`", "v.copy()"),
    (F.swap_unpacking_a_helper, (A2,), "B[0], B[1] = pair(B[0], B[1])", "`B`"),
    (F.swap_unpacking_reversed_view, (A2,), "B[0], B[1] = B[::-1]", "`B`", "`B[::-1]`"),
    (F.shift_by_enumerate, (V3,), "y[i + 1] = v", "`y`", "enumerate(y[:-1])"),
    (F.accumulate_rows, (COL,), "S[i + 1] = S[i + 1] + row", "`S`", "enumerate(S[:-1])"),
    (F.square_current_item, (V3,), "y[i] = v * v", "`y`", "enumerate(y)"),
    (F.loop_over_rows_writes_base, (A2,), "S[0] = S[0] + row", "`S`", "loop over `S`"),
    (F.loop_over_zip_writes, (V3,), "y[i + 1] = a * b", "`y`", "zip("),
]


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c[0].__name__)
def test_refused_before_generated_code_runs(case, policy):
    fn, args, marker, *words = case
    call_args, log = _copies(args), F.LOG.copy()
    with pytest.raises(TransformError) as info:
        grad(fn, policy=policy)(*call_args)
    assert_error_at(info.value, fn, marker, *words)
    frames = [f.filename for f in traceback.extract_tb(info.value.__traceback__)]
    assert not any(name.startswith("<thunkgrad") for name in frames), frames
    for before, after in zip(args, call_args):
        if isinstance(before, np.ndarray):
            np.testing.assert_array_equal(after, before)
    np.testing.assert_array_equal(F.LOG, log)


# caller, the helper whose write is named, args, its line, the caller's line, words
HELPERS = [
    (F.helper_writes_buffer, F.put, "buf[0] = v", "put(b, x * 3.0)", "argument `buf`"),
    (F.helper_result_unused, F.put_returned, "buf[0] = v", "c = put_returned(b, x * 3.0)",
     "argument `buf`"),
    (F.helper_writes_through_another, F.put, "buf[0] = v", "put_through(b, x * 3.0)",
     "argument `buf`", "`put` is called at", "`put_through` is called at"),
    (F.helper_writes_global, F.log_value, "LOG[0] = v", "log_value(x * 2.0)", "global `LOG`"),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", HELPERS, ids=lambda c: c[0].__name__)
def test_helper_writing_outside_data_refused_even_if_its_result_is_unused(case, policy):
    fn, helper, marker, call, *words = case
    log = F.LOG.copy()
    with pytest.raises(TransformError) as info:
        grad(fn, policy=policy)(2.0)
    assert_error_at(info.value, helper, marker, *words)
    assert f"{inspect.getsourcefile(fn)}:{line_of(fn, call)}" in str(info.value)
    frames = [f.filename for f in traceback.extract_tb(info.value.__traceback__)]
    assert not any(name.startswith("<thunkgrad") for name in frames), frames
    np.testing.assert_array_equal(F.LOG, log)


ALLOWED = {
    "swap_rows_fancy": (F.swap_rows_fancy, (A2,)),
    "swap_unpacking_fancy_copy": (F.swap_unpacking_fancy_copy, (A2,)),
    "swap_rows_copied": (F.swap_rows_copied, (A2,)),
    "fresh_values_into_rows": (F.fresh_values_into_rows, (A2,)),
    "first_item_reads_the_array": (F.first_item_reads_the_array, (A2,)),
    "list_items_updated": (F.list_items_updated, (V3,)),
    "dict_values_updated": (F.dict_values_updated, (V3,)),
    "shift_by_index": (F.shift_by_index, (V3,)),
    "shift_over_a_copy": (F.shift_over_a_copy, (V3,)),
    "loop_over_other_array": (F.loop_over_other_array, (V3,)),
    "helper_writes_its_copy": (F.helper_writes_its_copy, (2.0,)),
}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", ALLOWED)
def test_right_neighbours_keep_working(name, policy):
    fn, args = ALLOWED[name]
    check_grad(fn, args, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_fancy_swap_matches_numpy(policy):
    from transform import value_and_grad
    value, g = value_and_grad(F.swap_rows_fancy, policy=policy)(A2.copy())
    assert value == F.swap_rows_fancy(A2.copy()) == 17.0
    np.testing.assert_allclose(g, [[1.0, 1.0], [2.0, 2.0]])


@pytest.mark.parametrize("policy", POLICIES)
def test_dict_items_in_a_zip(policy):
    # (dict.items() has a rule now; it was the example of a method without one)
    check_grad(F.zip_items, ({"a": np.array(1.0), "b": np.array(2.0)},), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_method_without_rule_names_the_users_line(policy):
    with pytest.raises(TransformError) as info:
        grad(F.bytes_of, policy=policy)(np.array([1.0, 2.0]))
    assert_error_at(info.value, F.bytes_of, "x.byteswap(", "byteswap()")
    frames = [f.filename for f in traceback.extract_tb(info.value.__traceback__)]
    assert not any(name.startswith("<thunkgrad") for name in frames), frames
