"""Python's operator dispatch on user objects (`a * b` where a class defines `__mul__`).

An operator whose operand is an instance of a user class runs that class's method
(`__mul__`, its reflected `__rmul__`, `__imul__` for `*=`, `__neg__`), not NumPy's
arithmetic: the compiler differentiates the method, as it does `a.__mul__(b)`. Where
the source shows the operands' types it decides at compile time; where it shows only
that an operand may be such an object, generated code asks `operator_side` when it
runs (the same decision, on the values' types):

    side = operator_side(a, b, "mul", False, "loss.py:7")
    if side == 2:   t = a.__mul__(b)       (compiled from type(a).__mul__)
    elif side == 3: t = b.__rmul__(a)
    else:           t = a * b              (the arithmetic rule)
"""
import functools
import inspect

import numpy as np

from .registry import template_helper

PLAIN, AUGMENTED, FORWARD, REFLECTED = 0, 1, 2, 3

# types whose operators return NotImplemented for an operand they do not know: Python
# then calls the other operand's reflected method (ndarray instead broadcasts it into an
# object array, and np.float32 and other NumPy scalars may too)
_DEFERRING = (int, float, complex, bool)


def method_names(op):
    """Side -> the method Python calls for operator `op` ("mul": `__imul__`, ...)."""
    return {AUGMENTED: f"__i{op}__", FORWARD: f"__{op}__", REFLECTED: f"__r{op}__"}


def user_class(cls):
    """Whether `cls` is a class whose operator methods the compiler must follow: not a
    builtin, NumPy or SciPy type, nor an ndarray subclass (NumPy's own dispatch)."""
    if not isinstance(cls, type) or issubclass(cls, (np.ndarray, np.generic)):
        return False
    module = getattr(cls, "__module__", "") or ""
    return module != "builtins" and module.split(".")[0] not in ("numpy", "scipy")


def defines(cls, name):
    """Whether instances of `cls` have a Python method `name` (their class or a base)."""
    return user_class(cls) and inspect.isfunction(inspect.getattr_static(cls, name, None))


_OPERATORS = ("add", "sub", "mul", "truediv", "pow", "matmul", "floordiv", "mod", "neg")


@functools.lru_cache(maxsize=256)
def has_operators(cls):
    """Whether instances of `cls` have arithmetic methods of their own (a user class)."""
    return any(defines(cls, name) for op in _OPERATORS for name in method_names(op).values())


def side_of_types(left, right, op, augmented):
    """Which method Python calls for `a op b` (`a op= b` if augmented; `op a` when
    right is None) with type(a) `left`, type(b) `right`: AUGMENTED, FORWARD (a's),
    REFLECTED (b's), PLAIN (no user method), or None when NumPy's handling of an
    object decides it (refused)."""
    names = method_names(op)
    if augmented and defines(left, names[AUGMENTED]):
        return AUGMENTED
    if right is None:
        return FORWARD if defines(left, names[FORWARD]) else PLAIN
    reflected = right is not left and defines(right, names[REFLECTED])
    if reflected and issubclass(right, left) and inspect.getattr_static(
            right, names[REFLECTED]) is not inspect.getattr_static(left, names[REFLECTED], None):
        return REFLECTED                  # a subclass's own reflected method goes first
    if defines(left, names[FORWARD]):
        return FORWARD
    if reflected:
        deferring = issubclass(left, _DEFERRING) and \
            (not issubclass(left, np.generic) or left is np.float64)
        return REFLECTED if deferring or user_class(left) else None
    return PLAIN


@template_helper
def operator_side(a, b, op, augmented, where):
    """`side_of_types` on the values' types, when the code runs (b is None for a unary
    operator)."""
    side = side_of_types(type(a), None if b is None else type(b), op, augmented)
    if side is None:
        reflected = method_names(op)[REFLECTED]
        raise TypeError(f"{where}: `{type(a).__name__} {op} {type(b).__name__}`: NumPy, "
                        f"not {type(b).__name__}.{reflected}, decides what this computes "
                        f"and the gradient cannot follow it; call the method: "
                        f"`b.{reflected}(a)`")
    return side
