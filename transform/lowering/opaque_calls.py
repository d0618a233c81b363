"""Stage 3, normalize: calls of nested defs inside expressions kept as written.

Tests of `if` and `while`, comparisons and boolean expressions stay as the user wrote
them (their values carry no derivative), but a nested def or a lambda bound to a local
name is not a name of the generated code: it is inlined where it is called. Such a call
inside a kept expression is computed first, by the inlined body, and the expression
reads its result:

    f = lambda v: v ** 2              f_v = x
    if f(x) > 0.3:           ->       t1 = f_v ** 2
        ...                           cond1 = t1 > 0.3

Left in place it raised NameError, or, with a module-level function of the same name,
silently called that one (a wrong branch, a wrong gradient). A `while` test is computed
again on each trip (`while True: if not test: break`). A call the expression may skip
(after `and`/`or`, in a branch of `a if c else b`, a chained comparison's later terms)
is computed in a branch, as Python runs it (`b if a else a` for `a and b`).
"""
import copy

import gast

from ..ir.nodes import load
from .normalize_tricks import as_choice

_CONDITIONAL = {gast.BoolOp: ("values", 1), gast.IfExp: ("body", 0),
                gast.Compare: ("comparators", 1)}


def reads_local_def(norm, e):
    """Whether `e` names a nested def or a lambda bound to a local name."""
    return e is not None and any(isinstance(n, gast.Name) and n.id in norm.local_defs
                                 for n in gast.walk(e))


def while_with_local_test(s):
    """`while test: body` as `while True: if not test: break` then the body."""
    leave = gast.If(test=gast.UnaryOp(op=gast.Not(), operand=s.test), body=[gast.Break()],
                    orelse=[])
    gast.copy_location(leave, s.test)
    return gast.While(test=gast.Constant(value=True, kind=None), body=[leave] + s.body,
                      orelse=s.orelse)


def hoisted(norm, e):
    """`e` with each call of a local def computed before it (see the module's doc)."""
    if not reads_local_def(norm, e):
        return e
    return _hoist(norm, e)


def _hoist(norm, e):
    """Comparisons, `and`/`or` and `not` are walked; any other part reading a local def
    (a call, arithmetic over one, a comprehension) is computed first by the normalizer,
    which inlines the calls."""
    if not reads_local_def(norm, e):
        return e
    if _skippable(norm, e):
        return load(norm.expr(_branching(norm, e), None))
    if isinstance(e, gast.Name):
        return norm.atom(e)
    if not isinstance(e, (gast.Compare, gast.BoolOp)) and not (
            isinstance(e, gast.UnaryOp) and isinstance(e.op, gast.Not)):
        return load(norm.expr(e, None))
    for field, value in gast.iter_fields(e):
        if isinstance(value, list):
            setattr(e, field, [_hoist(norm, v) if isinstance(v, gast.expr) else v
                               for v in value])
        elif isinstance(value, gast.expr):
            setattr(e, field, _hoist(norm, value))
    return e


def _skippable(norm, e):
    kind = _CONDITIONAL.get(type(e))
    if kind is None:
        return False
    field, start = kind
    parts = [e.body, e.orelse] if isinstance(e, gast.IfExp) else getattr(e, field)[start:]
    return any(reads_local_def(norm, p) for p in parts)


def _branching(norm, e):
    """A skippable part as branches the normalizer lowers to `if` statements, each
    operand evaluated once: `a and b` as `b if a else a`, `a < b < c` as
    `a < b and b < c`, a conditional expression as it is."""
    if isinstance(e, gast.BoolOp):
        return as_choice(e, norm.atom(e.values[0]))
    if isinstance(e, gast.Compare):
        left, middle = norm.atom(e.left), norm.atom(e.comparators[0])
        first = gast.Compare(left=left, ops=e.ops[:1], comparators=[middle])
        rest = gast.Compare(left=copy.deepcopy(middle), ops=e.ops[1:],
                            comparators=e.comparators[1:])
        return gast.BoolOp(op=gast.And(), values=[first, rest])
    return e


