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
The second statement is an accumulation, found by its typed class (`Accumulate`, mode
"sum" or "in_place": ir/statements.py).
"""
import gast

from .passes import Pass
from ..ir.statements import Accumulate, typed_of

_PLAIN_OPS = (gast.Add, gast.Sub, gast.Mult, gast.Div)


def merge_like_terms(pullback, cotangents, counts=None):
    """`e + e` -> `2 * (e)` in the pullback's statements, in place, for plain arithmetic
    `e` reading one of `cotangents`, and `a = e; a = a + e` -> `a = 2 * (e)`; `counts`:
    the rrule's NameCounts, kept exact."""
    _Merger(cotangents, counts).block(pullback.body)


_COMPOUND = frozenset({gast.For, gast.While, gast.If, gast.With, gast.Try})


class _Merger:
    def __init__(self, cotangents, counts):
        self.cotangents, self.counts = cotangents, counts

    def block(self, block):
        """Merge in `block` and the blocks below it."""
        kept, before = None, None
        for k, s in enumerate(block):
            kind = type(s)
            if kind is gast.Assign and type(s.value) is gast.BinOp:
                if before is not None and type(s.value.op) is gast.Add \
                        and self.sum_of_two(before, s):
                    kept = block[:k] if kept is None else kept
                    continue                          # s went: `before` is still before
                s.value = self.merged(s.value)
            elif kind is gast.AugAssign and before is not None and self.sum_of_two(before, s):
                kept = block[:k] if kept is None else kept
                continue                              # `a = e; a += e` (a owned): the same
            elif kind in _COMPOUND:
                for field in ("body", "orelse", "finalbody"):
                    self.block(getattr(s, field, None) or [])
            if kept is not None:
                kept.append(s)
            before = s
        if kept is not None:
            block[:] = kept

    def merged(self, node):
        """`node` with its doubled terms merged, through a sum's terms (what a sum
        meets inside a product or a call is not looked into: the reverse stage adds
        contributions at the top of a statement)."""
        if type(node) is not gast.BinOp or type(node.op) is not gast.Add:
            return node
        node.left, node.right = self.merged(node.left), self.merged(node.right)
        if _same(node.left, node.right) \
                and self._reads_cotangent(node.left):
            if self.counts is not None:
                self.counts.remove(node.right, True)
            return _doubled(node.left)
        return node

    def sum_of_two(self, first, second):
        """`a = e` then `a = a + e` (e not reading a) -> `a = 2 * (e)`: True if merged
        (the caller drops `second`)."""
        term = _added_to_itself(first, second)
        if term is None or not self._reads_cotangent(term):
            return False
        first.value = _doubled(term)
        if self.counts is not None:
            self.counts.remove(second, True)
            self.counts.changed(second)
        return True

    def _reads_cotangent(self, node):
        if type(node) is gast.Name:
            return node.id in self.cotangents
        if type(node) is gast.BinOp:
            return self._reads_cotangent(node.left) or self._reads_cotangent(node.right)
        return type(node) is gast.UnaryOp and self._reads_cotangent(node.operand)


def _doubled(term):
    return gast.BinOp(left=gast.Constant(value=2, kind=None), op=gast.Mult(), right=term)


def _added_to_itself(first, second):
    """e, if `first` is `a = e` and `second` the accumulation (an `Accumulate`,
    ir/statements.py) `a = a + e` or `a += e` (e plain, not reading a)."""
    target = _single_target(first) if type(first) is gast.Assign else None
    match typed_of(second):
        case Accumulate(mode="sum" | "in_place", target=name, value=value) \
                if target is not None and name == target and _same(first.value, value):
            return None if _reads(first.value, target) else first.value
    return None


def _single_target(s):
    if type(s) is gast.Assign and len(s.targets) == 1 and type(s.targets[0]) is gast.Name:
        return s.targets[0].id
    return None


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
    alone it knows no cotangent and merges nothing. The statement's loads are the same
    names before and after; the counts lose the second term's names."""
    needs = ("adjoints",)
    keeps = ("counts",)

    def run(self, facts):
        cotangents = facts.adjoints | {a.id for a in facts.pullback.args.args}
        merge_like_terms(facts.pullback, cotangents, facts._counts)
