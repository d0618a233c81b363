"""Masked arrays skip masked entries; the rules for plain arrays would give them a
gradient (1.0 for np.sum(m * m) at a masked 0.5). Refused: np.ma calls in the
function at compile time, masked arguments before anything runs."""
import numpy as np
import pytest

from transform import TransformError, grad, value_and_grad, vjp

MASK = np.array([False, True, False])
X = np.array([0.1, 0.5, 2.0])


def ma_class(x):
    m = np.ma.masked_array(x, mask=MASK)
    return np.sum(m * m)


def ma_function(x):
    m = np.ma.array(x, mask=MASK)
    return np.ma.sum(m * m)


def ma_where(x):
    return np.sum(np.ma.masked_where(x > 1.0, x) ** 2)


@pytest.mark.parametrize("f", [ma_class, ma_function, ma_where])
def test_np_ma_in_the_function_is_refused_at_its_line(f):
    with pytest.raises(TransformError, match="masked arrays") as info:
        grad(f)(X)
    assert info.value.line is not None and "test_masked.py" in info.value.filename


def square_sum(x, w):
    return np.sum(x * x * w)


@pytest.mark.parametrize("wrt", [0, 1])
def test_masked_argument_is_refused(wrt):
    masked = np.ma.masked_array(X, mask=MASK)
    with pytest.raises(TransformError, match="masked arrays"):
        grad(square_sum, wrt=wrt)(masked, X)
    with pytest.raises(TransformError, match="masked arrays"):
        value_and_grad(square_sum, wrt=wrt)(X, masked)
    with pytest.raises(TransformError, match="masked arrays"):
        vjp(square_sum, masked, X)
