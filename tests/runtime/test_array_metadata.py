"""runtime.attributes.array_metadata: `x.shape` read as an array's where the compiler
could not tell x is an array; an attribute that may carry a derivative is refused."""
import types

import numpy as np
import pytest

from runtime.attributes import array_metadata


@pytest.mark.parametrize("value", [3, np.int64(3), np.bool_(True), True, np.dtype("f8"),
                                   "float64", np.float64, None, (2, 3), [2, np.int32(3)],
                                   ((1, 2), 3), ()])
def test_an_attribute_without_a_derivative_is_returned(value):
    obj = types.SimpleNamespace(shape=value)
    assert array_metadata(obj, "shape", "refused") is value


@pytest.mark.parametrize("value", [3.0, np.float64(3.0), np.ones(2), (2, 3.0), [2, 0.5],
                                   ((1, 2), 0.5), 1j])
def test_an_attribute_that_may_carry_one_is_refused(value):
    obj = types.SimpleNamespace(size=value)
    with pytest.raises(TypeError, match="^refused at f.py:3$"):
        array_metadata(obj, "size", "refused at f.py:3")


@pytest.mark.parametrize("name", ["shape", "size", "ndim", "dtype", "itemsize", "nbytes",
                                  "strides"])
@pytest.mark.parametrize("x", [np.ones((2, 3)), np.float64(2.0), np.ones(0)])
def test_an_arrays_metadata_is_its_own(x, name):
    assert array_metadata(x, name, "refused") == getattr(x, name)
