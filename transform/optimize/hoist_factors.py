"""Optimization: a factor the backward loop does not change multiplies the sum once,
after the loop, instead of every contribution.

    db = cotangent_zeros(b)                  db = cotangent_zeros(b)
    for i in reversed(steps1):               for i in reversed(steps1):
        dt2 = ds * (1 - t3 ** 2)      ->         dt2 = 1 - t3 ** 2
        t3 = pop()                               t3 = pop()
        db += dt2                                db += dt2
                                             db *= ds

The sum of `ds * e_k` is `ds * (sum of e_k)` when ds is the same in every iteration
and the buffer starts at zero; for small arrays the saved multiplication per step is a
good part of the step. Only a buffer the loop touches in that one statement qualifies.
The update and the zero buffer are found by their typed classes (`Accumulate`, mode
"in_place"; `ZeroBuffer`), on the typed pullback body before it is lowered.
"""
import gast

from .copies import _Pullback
from .passes import Pass
from . import typed_views as view
from ..ir.generated import Bind, Scale, ZeroBuffer
from ..ir.statements import Accumulate, Control, For


def hoist_factors(backward, adjoints=frozenset(), params=frozenset()):
    """Rewrite the qualifying loops of the typed pullback body in place; `adjoints`,
    `params`: the pullback's, for its mentions as lowered (copies._Pullback)."""
    mentions = None
    for block in _blocks(backward):
        zeroed = [s for s in block if isinstance(s, ZeroBuffer)]
        for k, loop in enumerate(block):
            if not isinstance(loop, For) or not zeroed:
                continue                      # only a rule specialised to shapes has zeros
            if mentions is None:
                mentions = _Mentions(backward, adjoints, params)
            for target, factor in _hoistable(block, k, mentions):
                block.insert(block.index(loop) + 1, Scale(target, factor))
                mentions.fresh = None         # the factor moved: counted again if asked


def _blocks(body):
    """Every typed block of `body` (loop and branch bodies, else-branches), its own first."""
    yield body
    for s in body:
        if isinstance(s, Control):
            for block in (s.body, s.orelse):
                if block:
                    yield from _blocks(block)


class _Mentions:
    """Mentions of a name in the pullback as lowered, its parameters and snapshot
    included (counted when first asked, again after a change)."""

    def __init__(self, backward, adjoints, params):
        self.model, self.fresh = _Pullback(backward, adjoints, params), None

    def get(self, name):
        if self.fresh is None:
            self.fresh = self.model.mentions({})
        return self.fresh.get(name, 0)


def _hoistable(block, k, mentions):
    """(buffer, factor) pairs of loop block[k], the loop rewritten to drop the factor."""
    loop = block[k]
    inside = view.count(loop, {})
    stored = view.stores(loop)
    defs = {}
    for s in loop.body:
        name = _defined(s)
        if name is not None:
            defs[name] = s
    found = []
    for s in loop.body:
        match s:
            case Accumulate(mode="in_place", target=buffer, value=product) if s.node is None:
                pass                                                  # `d += v`
            case _:
                continue
        if inside.get(buffer) != 1 or not _zeroed_before(block, k, buffer):
            continue
        holder = s
        if isinstance(product, gast.Name) and product.id in defs \
                and mentions.get(product.id) == 2:
            holder = defs[product.id]
            product = _value(holder)
        factor = _invariant_factor(product, stored | {buffer})
        if factor is None:
            continue
        name, rest = factor
        _set_value(holder, rest)
        mentions.fresh = None
        found.append((buffer, name))
    return found


def _defined(s):
    """The name `s` lowers to `name = value` for, whose value may be a product: an
    `Accumulate` "set", a `Bind`, a kept `Assign` of one name (any other assignment's
    lowered value is a call or `d + v`, never `name * e`)."""
    if isinstance(s, (Accumulate, Bind)) and s.node is None:
        return s.target if isinstance(s, Bind) or s.mode == "set" else None
    node = s.node
    if not isinstance(s, Control) and type(node) is gast.Assign and len(node.targets) == 1 \
            and type(node.targets[0]) is gast.Name:
        return node.targets[0].id
    return None


def _value(s):
    return s._value if s.node is None else s.node.value


def _set_value(s, value):
    if s.node is None:
        s._value = value
    else:
        s.node.value = value


def _invariant_factor(expr, stored):
    """(name, other operand) for `name * e` or `e * name` with name unchanged by the loop."""
    if not (isinstance(expr, gast.BinOp) and isinstance(expr.op, gast.Mult)):
        return None
    for factor, rest in ((expr.left, expr.right), (expr.right, expr.left)):
        if isinstance(factor, gast.Name) and factor.id not in stored:
            return factor.id, rest
    return None


def _zeroed_before(block, k, buffer):
    """`buffer = cotangent_zeros(...)` (a `ZeroBuffer`) earlier in the block, buffer
    untouched since."""
    for s in reversed(block[:k]):
        if isinstance(s, ZeroBuffer) and s.target == buffer:
            return True
        if view.mentions(s, buffer):
            return False
    return False


class HoistFactors(Pass):
    """Apply a loop-invariant factor of a zero-started sum once, after the loop (the
    module docstring's example).

    Typed (session 39): on the typed pullback body before it is lowered (a typed `For`,
    its `Accumulate` "in_place" and the definition it adds, a `ZeroBuffer` before it);
    adds a typed `Scale`."""
    phase = "typed"

    def run(self, facts):
        hoist_factors(facts.backward, facts.adjoints, facts.params)
