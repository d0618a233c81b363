"""Optimization: a value the backward sweep no longer reads is not saved on the tape.

    tape.append(shape_only(t1))          (gone)
    t1 = W @ xi                          t1 = W @ xi
    ...                          ->      ...
    t1 = pop()                           (gone)

Later passes can remove the last read of a saved value (a row update needs no shape
of `W @ x`). Every push pairs with the one pop reading its entry back (they share a
`pair_id`); a pop into a name the pullback never reads goes with the push of its id,
which keeps the rest of the tape in order.

Pushes, pops and the tape's setup are found by their typed classes (`Push`, `Pop`:
ir/statements.py; `TapeStart` `tape = []`, `TapeReader` `pop = tape_reader(tape)` and
its end comment: ir/generated.py), never by their gast; a header HoistPops made
(`popped(pop, n)`, an expression) and a `del pop` (ReleaseTemporaries', which runs after
this pass in the pipeline) by their marked names.
"""
import gast

from .passes import Pass
from ..ir.nodes import blocks, name_ids, statements, walk
from ..ir.generated import TapeReader, TapeStart
from ..ir.recognize import assigns_role, called_role
from ..ir.statements import Pop, Push, typed_of


def drop_dead_saves(rrule, pullback):
    """Remove the pushes and pops of restored names the pullback never reads."""
    popped, reads = set(), name_ids(gast.Module(body=pullback.body, type_ignores=[]),
                                    gast.Load)
    for s in statements(pullback):
        match typed_of(s):
            case Pop(target=name):
                popped.add(name)
            case None if isinstance(s, gast.For):
                reads |= name_ids(s.target)          # header reads of the tape stay
    dead = popped - reads
    if not dead:
        return
    pairs, by_name = _dead_pairs(rrule, dead)
    for block in blocks(rrule):
        block[:] = _without(block, pairs, by_name)
    if not any(isinstance(typed_of(t), Pop) for t in statements(pullback)) and \
            not any(isinstance(t, gast.For) and _reads_popped(t.iter)
                    for t in statements(pullback)):
        pullback.body[:] = _without_setup(pullback.body)
        if not any(isinstance(typed_of(t), Push) for t in statements(rrule)):
            rrule.body[:] = _without_setup(rrule.body)
    args = pullback.args
    keep = [k for k, a in enumerate(args.kwonlyargs) if a.id not in dead]
    args.kwonlyargs = [args.kwonlyargs[k] for k in keep]
    args.kw_defaults = [args.kw_defaults[k] for k in keep]


def _dead_pairs(rrule, dead):
    """(the pair ids of the pops into `dead` names, the dead names some push or pop of
    has no pair id). The compiler gives every push and pop one (`Reverser.pair_id`);
    a pair without (a pullback written by hand) is dropped by name: every push of the
    name and every pop into it."""
    pairs, by_name = set(), set()
    for t in statements(rrule):
        match typed_of(t):
            case Pop(target=name, pair_id=pair) | Push(value=name, pair_id=pair) \
                    if name in dead:
                if pair is None:
                    by_name.add(name)
                elif isinstance(typed_of(t), Pop):
                    pairs.add(pair)
    return pairs, by_name


def _without(block, pairs, by_name):
    """block without the pushes and pops of the dead `pairs` (ids) and `by_name`
    (names), nor a push's end-of-line comment (`Push.comment`)."""
    gone = set()
    for t in block:
        match typed_of(t):
            case Pop(target=name, pair_id=pair) if pair in pairs or name in by_name:
                gone.add(id(t))
            case Push(value=name, comment=comment, pair_id=pair) \
                    if pair in pairs or name in by_name:
                gone.update((id(t), id(comment)))
    return [t for t in block if id(t) not in gone]


def _without_setup(block):
    """block without the tape's setup (`tape = []`; `pop = tape_reader(tape)` and its
    end comment; `del pop`)."""
    gone = set()
    for t in block:
        match typed_of(t):
            case TapeStart():
                gone.add(id(t))
            case TapeReader(comment=comment):
                gone.update((id(t), id(comment)))
            case None if isinstance(t, gast.Delete) and assigns_role(t, "pop"):
                gone.add(id(t))
    return [t for t in block if id(t) not in gone]


def _reads_popped(header):
    """Whether a loop header takes tape entries (`popped(pop, n)`)."""
    return any(called_role(n) == "popped" for n in walk(header))


class DropDeadSaves(Pass):
    """Stop saving tape entries the backward sweep no longer reads (the module
    docstring's example). In the pipeline it runs when a row update took an entry's
    last reader (`lost_readers`); run alone, it always looks."""
    needs = ("lost_readers",)

    def applies(self, facts):
        return facts.lost_readers is not False

    def run(self, facts):
        drop_dead_saves(facts.rrule, facts.pullback)
