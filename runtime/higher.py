"""What generated code for higher derivatives needs at run time (transform/derivatives.py).

    x_dot = unit_tangent(x)     the tangent 1 of a scalar argument: the cotangent 1
                                grad seeds for a derivative function's scalar output
"""
import numpy as np

from .registry import template_helper


@template_helper
def unit_tangent(value):
    """1 in the kind of the scalar `value` (a float, a NumPy float, a 0-d array). grad of
    a derivative function `grad(f)` needs its output, the gradient with respect to this
    argument, to be a scalar: anything else is refused here, before a wrong sum."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind == "f":
        return np.ones((), value.dtype)
    if isinstance(value, np.floating):
        return type(value)(1.0)
    if isinstance(value, float):
        return 1.0
    raise TypeError("grad of a derivative function needs a scalar output, the gradient "
                    "with respect to a float argument; this argument is "
                    f"{_described(value)} (use vjp, jvp or hvp for an array's)")


def _described(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"a {type(value).__name__}"
