"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/linalg_helpers.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.gradcheck import check_grad, rng


@pytest.mark.skipif(not hasattr(np, "vecdot"), reason="NumPy 2.0+")
def test_vecdot_of_3d_arrays():
    """The cotangent moves the vector axis back from last: visible only beyond 2-D."""
    r = rng("vecdot")
    w = r.standard_normal((2, 3))
    check_grad(lambda a, b: np.sum(np.vecdot(a, b) * w),
               (r.standard_normal((2, 3, 4)), r.standard_normal((2, 3, 4))))


@pytest.mark.skipif(not hasattr(np.linalg, "cross"), reason="NumPy 2.0+")
def test_linalg_cross_along_the_first_axis():
    r = rng("linalg.cross")
    w = r.standard_normal((3, 2))
    check_grad(lambda a, b: np.sum(np.linalg.cross(a, b, axis=0) * w),
               (r.standard_normal((3, 2)), r.standard_normal((3, 2))))
