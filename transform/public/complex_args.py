"""A rule compiled for real arguments given a complex one: refused, never run.

A function with no complex value of its own (transform/analysis/complex_seeds.py) is
compiled without the guards in front of rules for real values, and may stand in a real
0.0 for a scalar read only for its shape (docs/complex.md). Both are right for real
arguments only, so a helper, closure or top-level function compiled that way checks its
arguments' dtypes when it is called:

    def peak(z): return np.imag(np.max(z))      # compiled: real_arguments = True
    peak(x * (1 + 2j))                          # -> TransformError naming peak()
"""
from runtime.complex_safety import any_complex
from ..errors import TransformError


def real_checked(compiled, args, kwargs=None):
    """compiled, unless it assumed real arguments and is given a complex one: refused,
    since its pullback would drop the imaginary part or run a rule for real values on
    it unguarded (a silent wrong gradient)."""
    if compiled.real_arguments and (any_complex(args) or kwargs and
                                    any_complex(kwargs.values())):
        raise complex_to_real_rule(getattr(compiled.fn, "__name__", "the helper"))
    return compiled


def complex_to_real_rule(name):
    """The TransformError for a complex argument of a rule compiled for real ones."""
    return TransformError(
        f"{name}() is given a complex value, but its compiled rule assumes real "
        "arguments: it has no complex value of its own, so it stands in 0.0 for a scalar "
        "read only for its shape and its rules for real values refuse nothing",
        hint=f"pass np.real(...) and np.imag(...) to {name}() separately and build the "
             "complex value inside it, or write its body at the call site")
