"""Facts read off the syntax that normalize needs: which locals are always list or
tuple displays, a dict view to unpack through `list`, a negative int literal."""
import gast

from ..ir.nodes import builtin_ref, statements, walk


def sequence_names(src):
    """Local names every binding of which is a list or tuple display or comprehension
    (statements only: a comprehension's own variables are not the function's)."""
    if not hasattr(src, "sequence_names"):
        kinds = {}
        for node in statements(src.node):
            if isinstance(node, gast.Assign):
                is_seq = isinstance(node.value, (gast.List, gast.Tuple, gast.ListComp))
                for t in node.targets:
                    for n in walk(t):
                        if isinstance(n, gast.Name):
                            kinds[n.id] = kinds.get(n.id, True) and is_seq and t is n
            elif isinstance(node, gast.For):          # (`xs *= 2` keeps a list)
                for n in walk(node.target):
                    if isinstance(n, gast.Name):
                        kinds[n.id] = False
        src.sequence_names = {k for k, v in kinds.items() if v and k not in src.params}
    return src.sequence_names


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
