"""Optimization: a cotangent term added to itself is doubled instead.

    dW = dt8 * W                  ->   dW = 2 * (dt8 * W)
    dW = dW + dt8 * W                  (or `dW += dt8 * W`: dW a fresh buffer)

The rule of `W * W` gives each operand the contribution `g * W`; their sum reads (and
costs) better as one product doubled, and then `dt8` is read once, so Fuse can put its
definition in its place. `e + e` and `2 * e` are the same number to the
last bit (doubling is exact in binary floating point, and overflows exactly when the sum
does; integers wrap alike), and `e` is evaluated once instead of twice, which is
harmless because a merged term is plain arithmetic on names and literals. Only a term
that reads a cotangent is merged: its value is then never a bool array, for which `e +
e` is a logical or but `2 * e` an int. Only the two operands of one `+` are compared:
`a + b + a` is left alone, because floating-point addition does not reassociate.

A pass of the typed phase (session 38), on the pullback's typed body: the second
statement is an accumulation, matched by its class (`Accumulate`, mode "sum" or
"in_place": ir/statements.py), the first one a statement lowered to `a = e` (an
`Accumulate` "set", a `Bind`, a statement that keeps its node); `e + e` is doubled in
the value of every statement lowered to an assignment of it (`_values`).
"""
import gast

from .passes import Pass
from ..ir.generated import Bind, SliceAdd
from ..ir.statements import Accumulate, Control

_PLAIN_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div)


def merge_like_terms(body, cotangents):
    """`e + e` -> `2 * (e)` in the pullback's typed body (a list), in place, for plain
    arithmetic `e` reading one of `cotangents`, and `a = e; a = a + e` -> `a = 2 * (e)`."""
    _Merger(cotangents).block(body)


class _Merger:
    def __init__(self, cotangents):
        self.cotangents = cotangents

    def block(self, block):
        """Merge in `block` and the blocks below it."""
        kept, before = None, None
        for k, s in enumerate(block):
            if isinstance(s, Accumulate) and s.mode in ("sum", "in_place") \
                    and before is not None and self.sum_of_two(before, s):
                kept = block[:k] if kept is None else kept
                continue                          # s went: `before` is still before
            if isinstance(s, Control):
                for body in (s.body, s.orelse):
                    self.block(body)
            else:
                self.merge_value(s)
            if kept is not None:
                kept.append(s)
            before = s
        if kept is not None:
            block[:] = kept

    def merge_value(self, s):
        """Merge in the value of a statement lowered to `target = value`."""
        if isinstance(s, Accumulate) and s.mode in ("set", "sum"):
            s._value = self.merged(s._value)     # `d = d + v`: v's terms (d's not v)
        elif isinstance(s, Bind) or isinstance(s, SliceAdd) and s.fresh:
            s.value = self.merged(s.value)
        elif s.node is not None and type(s.node) is gast.Assign \
                and type(s.node.value) is gast.BinOp:
            s.node.value = self.merged(s.node.value)

    def merged(self, node):
        """`node` with its doubled terms merged, through a sum's terms (what a sum
        meets inside a product or a call is not looked into: the reverse stage adds
        contributions at the top of a statement)."""
        if type(node) is not gast.BinOp or type(node.op) is not gast.Add:
            return node
        node.left, node.right = self.merged(node.left), self.merged(node.right)
        if _same(node.left, node.right) and self._reads_cotangent(node.left):
            return _doubled(node.left)
        return node

    def sum_of_two(self, first, second):
        """`a = e` then `a = a + e` (e not reading a) -> `a = 2 * (e)`: True if merged
        (the caller drops `second`)."""
        value = _assigned(first, second.target)
        if value is None or not _same(value, second.value) or _reads(value, second.target) \
                or not self._reads_cotangent(value):
            return False
        _set_value(first, _doubled(value))
        return True

    def _reads_cotangent(self, node):
        if type(node) is gast.Name:
            return node.id in self.cotangents
        if type(node) is gast.BinOp:
            return self._reads_cotangent(node.left) or self._reads_cotangent(node.right)
        return type(node) is gast.UnaryOp and self._reads_cotangent(node.operand)


def _doubled(term):
    return gast.BinOp(left=gast.Constant(value=2, kind=None), op=gast.Mult(), right=term)


def _assigned(s, target):
    """e, if `s` lowers to `target = e` (e the value as it will be lowered)."""
    if isinstance(s, Accumulate):
        return s.value if s.mode == "set" and s.target == target else None
    if isinstance(s, Bind):
        return s.value if s.target == target else None
    if isinstance(s, Control) or s.node is None or type(s.node) is not gast.Assign:
        return None
    node = s.node
    if len(node.targets) == 1 and type(node.targets[0]) is gast.Name \
            and node.targets[0].id == target:
        return node.value
    return None


def _set_value(s, value):
    if isinstance(s, Accumulate):
        s._value = value
    elif isinstance(s, Bind):
        s.value = value
    else:
        s.node.value = value


def _reads(node, name):
    if type(node) is gast.Name:
        return node.id == name
    if type(node) is gast.BinOp:
        return _reads(node.left, name) or _reads(node.right, name)
    return type(node) is gast.UnaryOp and _reads(node.operand, name)


def _same(a, b):
    """Whether a and b are the same plain arithmetic on names and number literals."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is gast.Name:
        return a.id == b.id and type(a.ctx) is gast.Load
    if kind is gast.Constant:
        return type(a.value) in (int, float) and type(a.value) is type(b.value) \
            and a.value == b.value
    if kind is gast.BinOp:
        return type(a.op) is type(b.op) and isinstance(a.op, _PLAIN_OPS) \
            and _same(a.left, b.left) and _same(a.right, b.right)
    if kind is gast.UnaryOp:
        return type(a.op) is type(b.op) is gast.USub and _same(a.operand, b.operand)
    return False


class MergeLikeTerms(Pass):
    """Double a cotangent term added to itself, as the module docstring shows. Run
    alone it knows no cotangent and merges nothing."""
    phase = "typed"
    needs = ("adjoints",)

    def run(self, facts):
        merge_like_terms(facts.backward, facts.adjoints | facts.params)
