"""thunkgrad: reverse-mode AD for Python and NumPy by source transformation."""
from .layout import check_runtime_is_ours
check_runtime_is_ours()                  # before `runtime` is imported: is it ours?
from runtime import rrule, Thunk, unthunk, thunk_stats
from .errors import TransformError
from .api import differentiable, grad, value_and_grad, vjp, adjoint_source

__all__ = ["differentiable", "grad", "value_and_grad", "vjp", "adjoint_source",
           "TransformError", "rrule", "Thunk", "unthunk", "thunk_stats"]
