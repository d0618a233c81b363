"""Facts read off the syntax that normalize needs: a dict view to unpack through `list`,
a negative int literal."""
import gast

from ..ir.nodes import builtin_ref


_VIEWS = ("keys", "values", "items")


def indexable_value(value):
    """`a, b = d.values()`: Python unpacks by iterating; a dict view cannot be indexed,
    so unpack `list(d.values())` (whose rule is known) instead."""
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute) and \
            value.func.attr in _VIEWS and not value.args and not value.keywords:
        return gast.Call(func=builtin_ref("list"), args=[value], keywords=[])
    return value


def negative_literal(e):
    """-n for the expression `-n` of an int literal n, else None. Only an index takes
    it as a literal: rendered there, `-1` cannot bind to a neighbouring operator."""
    if isinstance(e, gast.UnaryOp) and isinstance(e.op, gast.USub) and \
            isinstance(e.operand, gast.Constant) and type(e.operand.value) is int:
        return -e.operand.value
    return None
