"""Optimization: the spread of a full reduction's scalar cotangent is left to
broadcasting, or to sums, where the expression it meets allows.

    dt2 = unreduce(ds, t3, None, False) * (1 - t3 ** 2)   ->   dt2 = ds * (1 - t3 ** 2)
    matmul_lhs(unreduce(g, t1, None, False), w, x)        ->   matmul_lhs_spread(g, t1, w, x)

`unreduce` builds an array of the reduced value's shape; in a loop over small arrays
that costs more than the arithmetic, and before a matrix product it costs a product
where row sums would do. A spread meets the expression that consumes it only when
folding put them together, so only rewritten statements are looked at.
"""
import gast
import numpy as np

from runtime.traits import PRIMITIVE

from .passes import Pass
from ..ir.nodes import names_below, walk
from ..ir.statements import Control
from ..ir.typed_names import typed_statements
from .typed_views import expressions
from ..ir.recognize import called_role, is_call
from ..ir.vocabulary import role_of



def drop_spreads(statements, names, same_shape=lambda a, b: a == b, counts=None):
    """Rewrite the spreads in `statements` ((assignment or expression, in the pullback?)
    pairs: those the fold passes rewrote, or the gast operands of typed ones); `names`:
    the Vocabulary that names the helpers; `counts`:
    the rrule's NameCounts, kept exact if given."""
    spread = names.roles.get("unreduce")     # (asking names.name would choose one)
    if spread is None or counts is not None and not counts.get(spread):
        return                               # no spread anywhere
    for s, inner in statements:
        value = s.value if isinstance(s, gast.stmt) else s      # or a typed operand
        if not any(n.id == spread for n in names_below(value)):
            continue                         # the fast scan: most statements have none
        drop = _DropSpread(same_shape, _Edits(counts, inner))
        for n in walk(value):
            if type(n) is gast.BinOp:
                drop.visit_BinOp(n)
            elif type(n) is gast.Call:
                _spread_product(n, names, drop.edits)


class _Edits:
    """Reports replaced subtrees to the name counts (when there are counts to keep)."""

    def __init__(self, counts, inner):
        self.counts, self.inner = counts, inner

    def replace(self, old, new):
        if self.counts is not None:
            self.counts.remove(old, self.inner)
            self.counts.add(new, self.inner)


# functions that keep their argument's shape (declared beside their rules)
_ELEMENTWISE = PRIMITIVE["elementwise"]


class _DropSpread:
    """`unreduce(g, x, None, False) * e` -> `g * e` when e is elementwise in names shaped
    like x: g (a full reduction's cotangent) is a scalar and broadcasting spreads it.

    unreduce would build an array of x's shape first, which in a loop over small
    arrays costs more than the arithmetic.
    """

    def __init__(self, same_shape, edits):
        self.same_shape, self.edits = same_shape, edits

    def visit_BinOp(self, node):
        if isinstance(node.op, (gast.Mult, gast.Div)):
            x = _full_spread_of(node.left)
            if x is not None and self._elementwise_in(node.right, x):
                self.edits.replace(node.left, node.left.args[0])
                node.left = node.left.args[0]
        if isinstance(node.op, gast.Mult):
            x = _full_spread_of(node.right)
            if x is not None and self._elementwise_in(node.left, x):
                self.edits.replace(node.right, node.right.args[0])
                node.right = node.right.args[0]
        return node

    def _elementwise_in(self, expr, x):
        names = [n for n in walk(expr) if isinstance(n, gast.Name)]
        if not any(self.same_shape(n.id, x) for n in names):
            return False                     # constants only: e does not carry x's shape
        for n in walk(expr):
            if isinstance(n, gast.Call):
                f = n.func
                if not (isinstance(f, gast.Attribute) and role_of(f.value) == "np"
                        and getattr(np, f.attr, None) in _ELEMENTWISE and len(n.args) == 1
                        and not n.keywords):
                    return False
            elif isinstance(n, gast.Name):
                if role_of(n) != "np" and not self.same_shape(n.id, x):
                    return False
            elif isinstance(n, gast.Constant):
                if not isinstance(n.value, (int, float)) or isinstance(n.value, bool):
                    return False
            elif isinstance(n, gast.expr) and not isinstance(n, (gast.BinOp, gast.UnaryOp,
                                                                   gast.Attribute)):
                return False
        return True


def _spread_product(call, names, edits):
    """`matmul_lhs(unreduce(g, t, None, False), a, b)` -> `matmul_lhs_spread(g, t, a, b)`
    (and the same for matmul_rhs): a constant cotangent needs sums, not a product."""
    role = called_role(call)
    if role in ("matmul_lhs", "matmul_rhs") and not call.keywords \
            and len(call.args) == 3 and _full_spread_of(call.args[0]) is not None:
        spread = call.args[0]
        old = gast.Call(func=call.func, args=call.args, keywords=[])
        call.func = names.ref(role + "_spread")
        call.args = [spread.args[0], spread.args[1]] + call.args[1:]
        edits.replace(old, call)


def _full_spread_of(node):
    """x if node is `unreduce(g, x, None, False)` (or `unreduce(g, x)`), else None."""
    if not (is_call(node, "unreduce") and 2 <= len(node.args) <= 4
            and isinstance(node.args[1], gast.Name)):
        return None
    rest = [a.value if isinstance(a, gast.Constant) else a for a in node.args[2:]]
    return node.args[1].id if rest in ([], [None], [None, False]) else None


class DropSpreads(Pass):
    """Leave full spreads to broadcasting in the statements FusePullback rewrote (run
    alone: in every typed statement of both sweeps), as the module docstring shows.

    Typed (session 39): on the gast operands of the typed statements before they are
    lowered (rewritten in place; the lowering shares them)."""
    phase = "typed"
    needs = ("fused", "same_shape")

    def applies(self, facts):
        return facts.names is not None           # (no Vocabulary: no helper to name)

    def run(self, facts):
        fused = facts.fused
        if fused is None:
            fused = typed_statements(facts.backward + facts.forward)
        trees = [(t, True) for s in fused if not isinstance(s, Control)
                 for t in expressions(s)]
        drop_spreads(trees, facts.names, facts.same_shape)
