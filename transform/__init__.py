"""thunkgrad: reverse-mode AD for Python and NumPy by source transformation."""
from runtime import rrule, Thunk, unthunk, thunk_stats
from .errors import TransformError
from .api import differentiable, grad, value_and_grad, vjp, adjoint_source

__all__ = ["differentiable", "grad", "value_and_grad", "vjp", "adjoint_source",
           "TransformError", "rrule", "Thunk", "unthunk", "thunk_stats"]
