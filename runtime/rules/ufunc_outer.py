"""ufunc.outer for every binary ufunc with a rule (np.subtract.outer, np.divide.outer,
np.power.outer, np.maximum.outer, ...; np.add.outer and np.multiply.outer are in
ufunc_methods.py). f.outer(A, B) is f(A[..., None], B) broadcast over B's axes, so
each cotangent is the elementwise rule's, computed at the expanded A and summed over
the other operand's axes. The outer of a no-derivative ufunc (np.greater.outer,
np.floor_divide.outer) has no derivative, for the ufunc's own reason.
"""
import numpy as np

from ..registry import defvjp, lookup, nondiff

_DONE = {"add", "multiply"}                  # ufunc_methods.py has these two


def _binary_ufuncs():
    return sorted((u for u in vars(np).values() if isinstance(u, np.ufunc) and u.nin == 2
                   and u.nout == 1 and u.signature is None and u.__name__ not in _DONE), key=lambda u: u.__name__)


def _template(rule, ufunc, operand):
    """The outer product's template for one operand, or the ufunc's own reason."""
    param = rule.params[operand]
    if param not in rule.templates:
        return rule.reason(param)
    return f"ufunc_outer_vjp(np.{ufunc.__name__}, g, ans, A, B, {operand})"


def _register(ufunc):
    rule, name = lookup(ufunc), f"np.{ufunc.__name__}.outer"
    if rule is not None and rule.kind == "nondiff" and isinstance(rule.why, str):
        nondiff(ufunc.outer, why=rule.why)
        lookup(ufunc.outer).name = name
    elif rule is not None and rule.kind == "template" and len(rule.params) >= 2:
        defvjp(ufunc.outer, "A, B", _template(rule, ufunc, 0), _template(rule, ufunc, 1),
               name=name, complex_ok=rule.complex_ok,     # the ufunc's own rule, outer
               jvp=tuple(f"ufunc_outer_jvp(np.{ufunc.__name__}, t_{p}, A, B, {k})"
                         for k, p in enumerate(("A", "B"))))


for _ufunc in _binary_ufuncs():
    _register(_ufunc)
