"""The shapes of the backward sweep's arithmetic, in a rule specialised to argument shapes.

    dt27 * t25          t25 16x16x3, dt27 (t27's adjoint) 16x16x3   ->  16x16x3
    -dv * t23           v 16x3, t23 a scalar                          ->  16x3

A primal name has the shape its class in the shape analysis gives (a concrete one only:
transform/analysis/shapes.py); an adjoint has its primal's shape (the cotangent of an
array is shaped like it: what `unbroadcast`'s removal for a same-shaped operand already
relies on); numbers are scalars; `+ - * / **` and a sign broadcast their operands. Any
other expression's shape is unknown (None): a pass asking about it does nothing.
`instead` overrides the answer for some nodes (by id) and names (by name): what the
shapes would be were those values written smaller (transform/optimize/written_sums.py).
"""
import gast
import numpy as np

from ..ir.recognize import is_call

ARITH_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow)
SIGNS = (gast.USub, gast.UAdd)
_NUMBERS = (int, float, complex)


def is_arith(node):
    """`a + b`, `a - b`, `a * b`, `a / b`, `a ** b`, `-a` or `+a`: elementwise, broadcasting."""
    kind = type(node)
    return kind is gast.BinOp and isinstance(node.op, ARITH_OPS) or \
        kind is gast.UnaryOp and isinstance(node.op, SIGNS)


class Instead:
    """Shapes that replace the analysis' answers: node id -> shape, name -> shape."""

    def __init__(self, nodes=None, names=None):
        self.nodes, self.names = nodes or {}, names or {}


NOTHING = Instead()


class ExprShapes:
    """Shapes of expressions of the generated code (see the module docstring)."""

    def __init__(self, shape_of, primal_of):
        self.shape_of, self.primal_of = shape_of, primal_of

    def name(self, name, instead=NOTHING):
        if name in instead.names:
            return instead.names[name]
        return self.shape_of(self.primal_of.get(name, name))

    def of(self, node, instead=NOTHING):
        """node's shape as a tuple, or None when it is not known."""
        if id(node) in instead.nodes:
            return instead.nodes[id(node)]
        kind = type(node)
        if kind is gast.Name:
            return self.name(node.id, instead)
        if kind is gast.Constant:
            return () if isinstance(node.value, _NUMBERS) else None
        if kind is gast.UnaryOp:
            return self.of(node.operand, instead) if isinstance(node.op, SIGNS) else None
        if kind is gast.BinOp:
            return self._broadcast(node, instead)
        if (is_call(node, "unbroadcast") or is_call(node, "unreduce")) and \
                len(node.args) >= 2 and type(node.args[1]) is gast.Name:
            return self.name(node.args[1].id, instead)       # shaped like their x
        if is_call(node, "unthunk") and len(node.args) == 1:
            return self.of(node.args[0], instead)
        return None

    def _broadcast(self, node, instead):
        if not isinstance(node.op, ARITH_OPS):
            return None
        left, right = self.of(node.left, instead), self.of(node.right, instead)
        if left is None or right is None:
            return None
        try:
            return tuple(np.broadcast_shapes(left, right))
        except ValueError:
            return None


def parents_of(root):
    """node id -> its parent node, for every node below root."""
    parents, stack = {}, [root]
    while stack:
        node = stack.pop()
        for field in node._fields:
            value = getattr(node, field, None)
            children = value if type(value) is list else [value]
            for child in children:
                if isinstance(child, gast.AST):
                    parents[id(child)] = node
                    stack.append(child)
    return parents


def replace_child(parent, old, new):
    """Put `new` where `old` is among parent's fields."""
    for field in parent._fields:
        value = getattr(parent, field, None)
        if value is old:
            setattr(parent, field, new)
            return
        if type(value) is list and any(v is old for v in value):
            value[[k for k, v in enumerate(value) if v is old][0]] = new
            return
    raise ValueError("not a child of its parent")
