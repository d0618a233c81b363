"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/shape_helpers.py: each test kills a mutant the other tests let through."""
import numpy as np

from runtime.rules.shape_helpers import as_cotangent, cot_dtype, sum_to_shape
from tests.gradcheck import check_grad, rng


def test_dstack_of_3d_arrays_splits_by_their_depth():
    w = rng("dstack").standard_normal((2, 2, 3))
    check_grad(lambda a, b: np.sum(np.dstack([a, b]) * w),
               (np.ones((2, 2, 2)), np.full((2, 2, 1), 2.0)))


def test_column_stack_of_2d_arrays_splits_by_their_columns():
    w = rng("column_stack").standard_normal((3, 3))
    check_grad(lambda a, b: np.sum(np.column_stack([a, b]) * w),
               (np.ones((3, 2)), np.arange(3.0)))


def repeated_once(a):
    return np.sum(np.repeat(a, [1, 0]) * 2.0)


def test_repeat_to_a_single_copy():
    """A repeat whose output has one entry along the axis still sums it back."""
    check_grad(repeated_once, (np.array([3.0, 4.0]),))


def padded_list(x, y):
    return np.sum(np.array([x, y], ndmin=3) * np.array([1.0, 2.0]))


def test_np_array_of_a_list_with_ndmin_gives_each_entry_its_cotangent():
    """ndmin adds leading axes: undone before splitting the cotangent among entries."""
    check_grad(padded_list, (1.5, 2.5))


def test_sum_to_shape_sums_the_axes_that_were_broadcast():
    """(1, 3, 1) from (2, 3, 4): axes 0 and 2 are summed, axis 1 kept."""
    out = sum_to_shape(np.arange(24.0).reshape(2, 3, 4), (1, 3, 1))
    assert np.array_equal(out, np.arange(24.0).reshape(2, 3, 4).sum(axis=(0, 2), keepdims=True))


def test_cot_dtype_is_cached_by_the_cotangent_dtype():
    """float32 x: a float64 array g promotes, a float32 one does not (one cache entry each)."""
    x = np.ones(2, np.float32)
    assert cot_dtype(np.ones(2), x) == np.float64
    assert cot_dtype(np.ones(2, np.float32), x) == np.float32
    assert cot_dtype(np.ones(2), x) == np.float64


def test_cot_dtype_of_a_python_number():
    """A Python number x is weak: the cotangent keeps g's float32."""
    assert cot_dtype(np.float32(1.0), 3) == np.float32
    assert cot_dtype(1, 3) == np.float64


def test_as_cotangent_keeps_an_array_dtype():
    """Only a Python number takes x's dtype; a float32 array g stays float32."""
    assert as_cotangent(np.ones(2, np.float32), np.ones(2)).dtype == np.float32
    assert as_cotangent(2.0, np.ones(2, np.float32)).dtype == np.float32


def test_sum_to_shape_keeps_axes_of_other_lengths():
    assert np.array_equal(sum_to_shape(np.ones((3, 2)), (1, 2)), [[3.0, 3.0]])


def test_odd_reflection_padding_is_refused():
    """reflect_type='odd' pads with 2 * edge - x, not a copy: the copying rule must not
    run for it (it would give a silently wrong gradient)."""
    import pytest
    from transform import TransformError, grad
    with pytest.raises(TransformError, match="linear copies only"):
        grad(lambda x: np.sum(np.pad(x, 2, mode="reflect", reflect_type="odd") ** 2))(
            np.arange(1.0, 5.0))


def test_take_along_a_negative_axis():
    """take_along_axis_vjp puts the indices in the slot `axis` of a list of index
    arrays: a negative axis counts from the end there too (no `axis %= ndim` needed)."""
    a = rng("take_along -1").standard_normal((2, 3, 4))
    indices = np.array([[[3, 0, 0]], [[1, 1, 2]]])      # repeats: the cotangents add
    w = rng("take_along w").standard_normal((2, 3, 3))
    check_grad(lambda a: np.sum(np.take_along_axis(a, indices, axis=-1) * w), (a,))
