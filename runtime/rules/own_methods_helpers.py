"""Template helpers for transform/lowering/numpy_methods.py (session 34)."""
from ..containers import is_user_object
from ..registry import template_helper


@template_helper
def has_own_method(value, name):
    """Whether NumPy's `np.sum(value)` (np.mean, ...) calls `value.sum(...)`: a user
    object (not an array, number or container) that has the method."""
    return is_user_object(value, name) and callable(getattr(value, name, None))
