"""Optimization: a value the backward sweep never reads is not saved on the tape.

    tape.append(shape_only(t1))          (gone)
    t1 = W @ xi                          t1 = W @ xi
    ...                          ->      ...
    t1 = pop()                           (gone)

Reverse mode saves what a backward statement may read; some restored values are read by
none (a loop's condition the backward sweep does not branch on), and a row update
(BatchProducts, which runs before this pass) can take the last reader of a saved shape.
Every push pairs with the one pop reading its entry back (they share a `pair_id`); a pop
into a name the pullback never reads goes with the push of its id, which keeps the rest
of the tape in order. With no pop left the pullback's tape reader goes, and with no push
left the tape itself (`Compilation.uses_tape`: the prelude's `tape = []`).

Typed: it runs on both typed sweeps before they are lowered, matching `Push`, `Pop`
(ir/statements.py) and `TapeReader` (ir/generated.py), and asking each typed statement
the names it reads (`loaded`), never a gast node's shape.
"""
import gast

from .passes import Pass
from ..ir.generated import Generated, TapeReader
from ..ir.nodes import name_ids
from ..ir.statements import Accumulate, Control, Pop, Push
from ..ir.typed_names import bound, header_names, mentioned, reads, typed_statements


def drop_dead_saves(forward, backward):
    """Remove the pushes and pops of restored names the pullback (`backward`, typed)
    never reads; whether a push is left in `forward` (the tape is still used)."""
    popped, loads = set(), set()
    for s in typed_statements(backward):
        if isinstance(s, Pop):
            popped.add(s.target)
        else:
            loaded(s, loads)
    dead = popped - loads
    if dead:
        pairs, by_name = _dead_pairs(forward + backward, dead)
        for block in [*_blocks(forward), *_blocks(backward)]:
            block[:] = [t for t in block if not _in(t, pairs, by_name)]
    if not any(isinstance(t, Pop) for t in typed_statements(backward)):
        backward[:] = [t for t in backward if not isinstance(t, TapeReader)]
    return any(isinstance(t, Push) for t in typed_statements(forward))


def loaded(s, into):
    """Add the names typed statement `s` reads to `into` (a loop's target too, and a
    statement binding several names at once reads them all: over-approximated, so a
    save is never dropped for a name read)."""
    if isinstance(s, Control):
        header_names(s, into)
    elif isinstance(s, Accumulate):
        into |= reads(s)
    elif isinstance(s, Generated):
        names, own = mentioned(s), bound(s)
        if own is not None and own not in reads(s):
            names.discard(own)
        into |= names
    else:
        name_ids(s.node, gast.Load, into)
    return into


def _dead_pairs(block, dead):
    """(the pair ids of the pops into `dead` names, the dead names some push or pop of
    has no pair id). The compiler gives every push and pop one (`Reverser.pair_id`);
    a pair without (a sweep built by hand) is dropped by name: every push of the name
    and every pop into it."""
    pairs, by_name = set(), set()
    for t in typed_statements(block):
        match t:
            case Pop(target=name, pair_id=pair) | Push(value=name, pair_id=pair) \
                    if name in dead:
                if pair is None:
                    by_name.add(name)
                elif isinstance(t, Pop):
                    pairs.add(pair)
    return pairs, by_name


def _in(t, pairs, by_name):
    """Whether `t` is a push or pop of the dead `pairs` (ids) or `by_name` (names)."""
    match t:
        case Pop(target=name, pair_id=pair) | Push(value=name, pair_id=pair):
            return pair in pairs or name in by_name
    return False


def _blocks(block):
    """A typed block and every block nested in it (loops' and branches' bodies)."""
    yield block
    for s in typed_statements(block):
        if isinstance(s, Control):
            yield s.body
            yield s.orelse


class DropDeadSaves(Pass):
    """Stop saving tape entries the backward sweep never reads (the module docstring's
    example); provides whether the forward sweep still uses the tape. Typed: it runs on
    both typed sweeps, before they are lowered."""
    phase = "typed"
    provides = ("uses_tape",)

    def run(self, facts):
        facts.uses_tape = drop_dead_saves(facts.forward, facts.backward) and facts.uses_tape
