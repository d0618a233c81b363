"""ufunc.outer for every binary ufunc with a rule (np.subtract.outer, np.divide.outer,
np.power.outer, np.maximum.outer, ...; np.add.outer and np.multiply.outer are in
ufunc_methods.py). f.outer(A, B) is f(A[..., None], B) broadcast over B's axes, so
each cotangent is the elementwise rule's, computed at the expanded A and summed over
the other operand's axes. The outer of a no-derivative ufunc (np.greater.outer,
np.floor_divide.outer) has no derivative, for the ufunc's own reason.
"""
import ast

import numpy as np

from ..registry import DIAGONAL, defvjp, lookup, nondiff

_DONE = {"add", "multiply"}                  # ufunc_methods.py has these two


def _binary_ufuncs():
    return sorted((u for u in vars(np).values() if isinstance(u, np.ufunc) and u.nin == 2
                   and u.nout == 1 and u.signature is None and u.__name__ not in _DONE), key=lambda u: u.__name__)


def _template(rule, ufunc, operand):
    """The outer product's cotangent for one operand (the ufunc's template over the
    spread operands, summed back over the other operand's axes), or the ufunc's own
    reason."""
    param = rule.params[operand]
    if param not in rule.templates:
        return rule.reason(param)
    spread = _spread(rule, operand, "g")
    return f"unbroadcast(outer_spread_sum({spread}, A, B, {operand}), {'AB'[operand]})"


def _register(ufunc):
    rule, name = lookup(ufunc), f"np.{ufunc.__name__}.outer"
    if rule is not None and rule.kind == "nondiff" and isinstance(rule.why, str):
        nondiff(ufunc.outer, why=rule.why)
        lookup(ufunc.outer).name = name
    elif rule is not None and rule.kind == "template" and len(rule.params) >= 2:
        defvjp(ufunc.outer, "A, B", _template(rule, ufunc, 0), _template(rule, ufunc, 1),
               name=name, complex_ok=rule.complex_ok,     # the ufunc's own rule, outer
               jvp=tuple(_jvp_term(rule, k) for k in range(2)))


def _jvp_term(rule, operand):
    """The tangent of f.outer(A, B) from A (operand 0) or B (1), from the ufunc's own
    DIAGONAL term (its VJP template at g = the tangent; an elementwise J is its own
    transpose): d f.outer(A, B)[i, j] = f_1(A_i, B_j) tA_i + f_2(A_i, B_j) tB_j."""
    param = rule.params[operand]
    if rule.jvps.get(param) != DIAGONAL:
        return rule.jvps.get(param)
    return _spread(rule, operand, f"outer_spread(t_{'AB'[operand]}, A, B, {operand})")


def _spread(rule, operand, g):
    """The ufunc's template for one operand with A, B spread over the outer shape
    (outer_spread), g the text given and its unbroadcast to the operand dropped (nothing
    to sum at the outer shape): plain template text over helpers with reverse rules and
    JVPs, so hvp, hessian and grad of grad take f.outer on every route."""
    param = rule.params[operand]
    spread = {rule.params[0]: "outer_spread(A, A, B, 0)",
              rule.params[1]: "outer_spread(B, A, B, 1)", "g": g}

    class Spread(ast.NodeTransformer):
        def visit_Call(self, node):
            if isinstance(node.func, ast.Name) and node.func.id == "unbroadcast" and \
                    isinstance(node.args[1], ast.Name) and node.args[1].id == param:
                return self.visit(node.args[0])
            return self.generic_visit(node)

        def visit_Name(self, node):
            return ast.parse(spread[node.id], mode="eval").body if node.id in spread else node
    return ast.unparse(Spread().visit(ast.parse(rule.templates[param], mode="eval")))


for _ufunc in _binary_ufuncs():
    _register(_ufunc)
