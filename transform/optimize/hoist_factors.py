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
"in_place"; `ZeroBuffer`).
"""
import gast

from .name_counts import NameCounts
from .passes import Pass
from ..ir.generated import Scale, ZeroBuffer
from ..ir.lower_gast import lowered
from ..ir.nodes import blocks, count_names, name_ids
from ..ir.statements import Accumulate, typed_of



def hoist_factors(pullback, counts=None):
    """Rewrite the qualifying loops of the pullback FunctionDef in place; `counts`: the
    rrule's NameCounts (kept exact), or a function returning them (counted on demand)."""
    mentions = None
    for block in blocks(pullback):
        zeroed = [s for s in block if _zeroes(s)]
        for k, loop in enumerate(block):
            if type(loop) is not gast.For or not zeroed:
                continue                      # only a rule specialised to shapes has zeros
            if mentions is None:
                counts = counts() if callable(counts) else counts
                mentions = _Mentions(counts, pullback)
            for target, factor in _hoistable(block, k, mentions):
                at = block.index(loop) + 1
                block.insert(at, lowered(Scale(target, factor)))
                mentions.counts.shift(target, 1, True)    # the factor only moved


class _Mentions:
    """Mentions of a name in the pullback FunctionDef, its parameters included."""

    def __init__(self, counts, pullback):
        if counts is None:
            counts = NameCounts({}, count_names(gast.Module(body=pullback.body,
                                                            type_ignores=[]), {}))
        self.counts, self.params = counts, count_names(pullback.args, {})

    def get(self, name):
        return self.counts.pullback.get(name, 0) + self.params.get(name, 0)


def _hoistable(block, k, mentions):
    """(buffer, factor) pairs of loop block[k], the loop rewritten to drop the factor."""
    loop = block[k]
    inside = count_names(loop, {})
    stored = name_ids(loop, gast.Store)
    defs = {s.targets[0].id: s for s in loop.body if isinstance(s, gast.Assign)
            and len(s.targets) == 1 and isinstance(s.targets[0], gast.Name)}
    found = []
    for s in loop.body:
        match typed_of(s):
            case Accumulate(mode="in_place", target=buffer, value=product):      # `d += v`
                pass
            case _:
                continue
        if inside.get(buffer) != 1 or not _zeroed_before(block, k, buffer):
            continue
        holder = s
        if isinstance(product, gast.Name) and product.id in defs \
                and mentions.get(product.id) == 2:
            holder = defs[product.id]
            product = holder.value
        factor = _invariant_factor(product, stored | {buffer})
        if factor is None:
            continue
        name, rest = factor
        holder.value = rest
        mentions.counts.changed(holder)       # its recorded loads no longer hold
        found.append((buffer, name))
    return found


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
        match typed_of(s):
            case ZeroBuffer(target=name) if name == buffer:
                return True
        if buffer in name_ids(s):
            return False
    return False


def _zeroes(s):
    """`d = cotangent_zeros(p)`: a typed `ZeroBuffer`."""
    return isinstance(typed_of(s), ZeroBuffer)



class HoistFactors(Pass):
    """Apply a loop-invariant factor of a zero-started sum once, after the loop (the
    module docstring's example)."""
    needs = ("counts",)
    keeps = ("counts",)

    def run(self, facts):
        hoist_factors(facts.pullback, lambda: facts.counts)
