"""Negative number literals, written as a unary minus before they are unparsed.

The unparser prints `Constant(-2.0)` as `-2.0` whatever its place, which reads back as
another expression as the base of `**` or an attribute's or subscript's owner:

    BinOp(Constant(-2.0), Pow, Constant(2))   ->  `-2.0 ** 2`   (-4.0, not 4.0)
    UnaryOp(USub, Constant(2.0)) ** 2         ->  `(-2.0) ** 2` (the unparser's parentheses)

The compiler's own trees never hold such a literal where it matters today (Python parses
`-2` as a unary minus, and constant folding keeps negative results unfolded), but
generated source is compiled from its text, so the renderer rewrites them all: the text
then means what the tree means (tests/emit/test_signed_literals.py).
"""
import math

import gast


def _negative(value):
    if type(value) is int:
        return value < 0
    return type(value) is float and not math.isnan(value) and math.copysign(1.0, value) < 0


class _Signed(gast.NodeTransformer):
    def visit_Constant(self, node):
        if not _negative(node.value):
            return node
        positive = gast.Constant(value=-node.value, kind=None)
        return gast.copy_location(gast.UnaryOp(op=gast.USub(), operand=positive), node)


def signed_literals(tree):
    """`tree` with each negative int or float literal written `-(literal)`, in place."""
    return _Signed().visit(tree)


__all__ = ["signed_literals"]
