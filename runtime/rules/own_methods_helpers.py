"""Template helpers for transform/lowering/numpy_methods.py (session 34)."""
from ..containers import is_user_object
from ..registry import template_helper


@template_helper
def has_own_method(value, name):
    """Whether NumPy's `np.sum(value)` (np.mean, ...) calls `value.sum(...)`: a user
    object (not an array, number or container) that has the method."""
    return is_user_object(value, name) and callable(getattr(value, name, None))


@template_helper
def own_fill_refused(value, where, name="fill"):
    """Guard for `a.fill(v)` (or another method named like an ndarray's: `a.prod(1)`),
    a value being differentiated reaching it and its result unused, where the source does
    not show what `a` is (`a = helper()`): an ndarray took the other branch; any other
    object runs its own method here, which may keep the value where no derivative follows
    it (a silent wrong gradient), so it is refused at the user's line when it runs."""
    raise TypeError(f"{where}: `.{name}(...)` on a {type(value).__name__} is the object's "
                    f"own `{name}` (not ndarray.{name}), given a value being differentiated "
                    "whose result is "
                    "not used: a value it keeps and the function reads back would carry no "
                    "derivative; return what the method computes and use the result, or "
                    "keep the state in local variables")


@template_helper
def own_method_refused(value, name, where, varied):
    """Guard for `np.sum(b)` (np.mean, ...), b an argument: NumPy calls b's own method
    when b has one, which np.sum's rule does not follow; refused at the user's line where
    b is being differentiated (transform/lowering/numpy_methods.py)."""
    if varied and has_own_method(value, name):
        raise TypeError(f"{where}: np.{name}() of a {type(value).__name__} argument being "
                        f"differentiated calls its own `{name}` method, which thunkgrad "
                        "does not follow from np." + name + f"(); call the method itself "
                        f"(`b.{name}()`) or apply np.{name} to the arrays it holds")
