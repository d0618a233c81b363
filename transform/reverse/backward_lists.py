"""Stage 6, reverse: list building, `xs.append(v)` and `xs.extend(vs)`.

    xs.append(t1)          ->      dt1 = dxs.pop()     # v's cotangent: the last entry
                                   xs.pop()            # only if the sweep reads xs

The backward sweep undoes each append on the list itself too when it reads the list
(a read before the append saw the shorter list): on a copy made at the top of the
pullback, or by rebinding to a shorter copy when the list is rebound in a loop and
earlier lists sit on the tape. A NumPy function given a list of arrays returns one
array's cotangent: `list_cotangent` turns it into the list of its rows.
"""
import gast

from ..analysis.activity import walk
from ..analysis.accumulation import Form, State
from ..ir import generated as gen
from ..ir import statements as ir
from ..ir.lower_generated import entries_popped
from ..ir.nodes import load


class ListEmitter:
    """The backward form of appends and extends, for a Reverser (its part, not a mixin)."""

    def __init__(self, sweep):
        self.sweep = sweep              # the Reverser: loops, tape, joins, the recursion
        self.ctx, self.act, self.call = sweep.ctx, sweep.act, sweep.call

    def backward_append(self, s, state):
        """A typed `xs.append(v)` (`ir.Append`): v's adjoint is the last entry of dxs; then
        the entry goes from xs too, if the backward sweep reads xs, so earlier reads see
        the list they saw."""
        lst = s.acc.id
        out = self.append_adjoint(s, state) if self.act.is_active(lst) else []
        if lst in self.sweep.restored_lists and lst in self.sweep.saved:
            # rebound, so earlier lists sit on the tape: shorten a copy, never them
            out.append(gen.ShortenList(lst, _extended(s)))
        elif lst in self.sweep.restored_lists:              # our own copy (list_copies)
            out.append(gen.PopEntries(load(lst), _extended(s)))
        return out

    def append_adjoint(self, s, state):
        lst, value = s.acc.id, s.value
        dl = self.ctx.adjoint(lst)
        form = state.form(dl)
        if form.zero == "yes":
            return []
        out = [gen.Comment(self.ctx.comment(s.node))]
        body = []
        if not form.owned or form.thunk:
            body.append(gen.Own(dl))
        pop = entries_popped(load(dl), _extended(s), self.ctx.names)
        inner = State(state.copy())
        inner[dl] = Form("no", False, True)
        if isinstance(value, gast.Name) and self.act.is_active(value.id):
            sweep = self.sweep
            body.extend(sweep.lp.contribute(
                self.ctx.adjoint(value.id), pop, False, True, inner, bool(sweep.loops),
                sweep.crossing(value.id)))
        else:                                   # a constant's entry: dropped, not reused
            body.append(gen.PopEntries(load(dl), _extended(s)))
        if form.zero == "maybe":
            self.sweep.maybe_read.add(dl)
            node = gen.typed_if(gen.not_none(dl), body)
            self.sweep.join_into(state, inner)
            return out + [node]
        state.clear()
        state.update(inner)
        return out + body

    def list_copies(self):
        """`xs = list(xs)` at the top of the pullback for lists it shortens again
        (`if xs is not None`: a path, such as an early return, may never build xs)."""
        return [gen.CopyList(n) for n in sorted(self.sweep.restored_lists - self.sweep.saved)]


def appended_lists(body):
    """Names `append` or `extend` is called on in a typed body: their cotangents must be
    lists."""
    return {s.acc.id for s, _ in walk(body)
            if isinstance(s, ir.Append) and isinstance(s.acc, gast.Name)}


def packed_sequences(body):
    """Names a list or tuple display binds somewhere in a typed body (`ys = [x, 2 * x]`)."""
    return {s.target for s, _ in walk(body)
            if isinstance(s, ir.Pack) and s.label in ("list", "tuple")}


def _extended(s):
    """The value an `extend` appended (its entries are popped again), None for `append`."""
    return s.value if s.method == "extend" else None
