"""Optimization: a backward loop that pops one tape entry per iteration takes the
entry in its header.

    for i in reversed(steps1):             for x in popped(pop, len(steps1)):
        x = pop()                  ->          dx = dx * 0.999
        dx = dx * 0.999

In scalar code a Python call to `pop` per iteration costs about as much as the
iteration's arithmetic; iterating the tape reader itself costs nothing extra.
The loop's own target is kept (zipped with the entries) when anything reads it.
The pop is found by its typed class (`Pop`, ir/statements.py); the loop's header (a
backward header the compiler made) by its marked name.
"""
import gast

from runtime.traits import HELPER

from .name_counts import NameCounts
from .passes import Pass
from ..ir.nodes import const, count_names, name_ids, statements, store, walk
from ..ir.recognize import called_role
from ..ir.statements import Pop, typed_of



# backward headers whose trip count is one of their arguments (declared beside each
# header: @helper(count_arg=...))
_COUNT_ARG = HELPER["count_arg"]


def hoist_pops(pullback, names, counts=None):
    """Rewrite the qualifying loops of the pullback FunctionDef in place (`names`: the
    Vocabulary; `counts`: the rrule's NameCounts, kept exact, or None to count here)."""
    loops = [n for n in statements(pullback) if type(n) is gast.For]
    if not loops:
        return
    if counts is None:
        counts = NameCounts({}, count_names(gast.Module(body=pullback.body,
                                                        type_ignores=[]), {}))
    for loop in loops:
        k = _single_pop(loop.body)
        if k is not None:
            _hoist(loop, k, counts, names)


def _single_pop(body):
    """Index of the one top-level `v = pop()` (a `Pop`) in body, if it is the only pop
    (nested blocks included: no pass folds a pop into an expression) and nothing
    before it mentions v."""
    pops = [t for s in body for t in statements(s) if isinstance(typed_of(t), Pop)]
    if len(pops) != 1:
        return None
    for k, s in enumerate(body):
        if s is pops[0]:
            before = set()
            for b in body[:k]:
                name_ids(b, None, before)
            return k if typed_of(s).target not in before else None
    return None


def _hoist(loop, k, counts, names):
    popped = loop.body.pop(k)
    entry = store(typed_of(popped).target)
    loop.body = loop.body or [gast.Pass()]
    count = _trip_count(loop.iter, names)
    target_names = [n.id for n in walk(loop.target) if isinstance(n, gast.Name)]
    alone = count is not None and all(counts.pullback.get(name) == 1
                                      for name in target_names)
    header = gast.Tuple(elts=[loop.target, loop.iter], ctx=gast.Load())
    counts.remove(gast.Tuple(elts=[popped, header], ctx=gast.Load()), True)
    if alone:                                  # nothing else reads the loop's own target
        loop.target, loop.iter = entry, names.call("popped", names.ref("pop"), count)
    else:
        loop.target = gast.Tuple(elts=[loop.target, entry], ctx=gast.Store())
        loop.iter = names.call("zip", loop.iter, names.call("popped", names.ref("pop"),
                                                             const(None)))
    counts.add(gast.Tuple(elts=[loop.target, loop.iter], ctx=gast.Load()), True)


def _trip_count(header, names):
    """The trip count of a backward header the compiler made, else None."""
    role, args = called_role(header), getattr(header, "args", None)
    if role == "reversed" and len(args) == 1:
        return names.call("len", args[0])
    if role in _COUNT_ARG and len(args) > _COUNT_ARG[role] and (role != "range"
                                                                or len(args) == 1):
        return args[_COUNT_ARG[role]]
    return None


class HoistPops(Pass):
    """Take a backward loop's one tape entry in its header (the module docstring's
    example)."""
    needs = ("counts",)
    keeps = ("counts",)

    def run(self, facts):
        hoist_pops(facts.pullback, facts.names, facts.counts)
