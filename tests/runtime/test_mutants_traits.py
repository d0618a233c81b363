"""Behaviour the mutation run found unpinned in the helpers' trait declarations
(`@template_helper(shape_only=...)`): a position declared shape-only is taped as its
shape alone, so a NumPy integer axis read by `unreduce` (position 2) must be taped whole
(a ShapeOnly stand-in cannot be an axis)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, rng
from transform import grad


def sums_along_a_numpy_axis(x):
    s = 0.0
    ax = np.int64(0)                # overwritten below: the backward sweep reads it off the tape
    for k in range(2):
        s = s + np.sum(np.sum(np.sin(x), axis=ax) ** 2)
        ax = ax + 1
    return s


def means_along_a_numpy_axis(x):
    s = 0.0
    ax = np.int64(0)
    for k in range(2):
        s = s + np.sum(np.mean(np.sin(x), axis=ax) ** 2)
        ax = ax + 1
    return s


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [sums_along_a_numpy_axis, means_along_a_numpy_axis])
def test_a_taped_numpy_axis_is_kept_whole(fn, policy):
    x = rng("traits", "axis").normal(size=(3, 4))
    assert_close(grad(fn, policy=policy)(x), numerical_grad(fn, [x], 0), rtol=1e-6, atol=1e-9)
