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

from .passes import Pass
from . import typed_views as view
from ..ir.nodes import const, count_names, store, walk
from ..ir.recognize import called_role
from ..ir.statements import Control, For, Pass as PassStatement, Pop
from ..ir.typed_names import typed_statements


# backward headers whose trip count is one of their arguments (declared beside each
# header: @helper(count_arg=...))
_COUNT_ARG = HELPER["count_arg"]


def hoist_pops(backward, names):
    """Rewrite the qualifying loops of the typed pullback body in place (`names`: the
    Vocabulary)."""
    loops = [s for s in typed_statements(backward) if isinstance(s, For)]
    if not loops:
        return
    counts = {}
    for s in backward:
        view.count(s, counts)                  # the pullback body's mentions, as lowered
    for loop in loops:
        k = _single_pop(loop.body)
        if k is not None:
            _hoist(loop, k, counts, names)


def _single_pop(body):
    """Index of the one top-level `v = pop()` (a `Pop`) in body, if it is the only pop
    (nested blocks included: no pass folds a pop into an expression) and nothing
    before it mentions v."""
    pops = [t for t in typed_statements(body) if isinstance(t, Pop)]
    if len(pops) != 1:
        return None
    for k, s in enumerate(body):
        if s is pops[0]:
            before = {}
            for b in body[:k]:
                view.count(b, before)
            return k if s.target not in before else None
    return None


def _hoist(loop, k, counts, names):
    popped = loop.body.pop(k)
    node = loop.node
    entry = store(popped.target)
    loop.body = loop.body or [PassStatement(gast.Pass())]
    count = _trip_count(node.iter, names)
    target_names = [n.id for n in walk(node.target) if isinstance(n, gast.Name)]
    alone = count is not None and all(counts.get(name) == 1 for name in target_names)
    _shift(counts, [popped.node, node.target, node.iter], -1)
    if alone:                                  # nothing else reads the loop's own target
        node.target, node.iter = entry, names.call("popped", names.ref("pop"), count)
    else:
        node.target = gast.Tuple(elts=[node.target, entry], ctx=gast.Store())
        node.iter = names.call("zip", node.iter, names.call("popped", names.ref("pop"),
                                                             const(None)))
    _shift(counts, [node.target, node.iter], 1)


def _shift(counts, trees, sign):
    """counts += sign * the mentions in trees (kept exact for the loops after)."""
    for name, n in count_names(gast.Tuple(elts=trees, ctx=gast.Load()), {}).items():
        counts[name] = counts.get(name, 0) + sign * n


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
    example).

    Typed (session 39): a typed `For` of the pullback body and its one `Pop`, before
    they are lowered; the header (gast) rewritten in the loop's node. Not for the plain
    lowering, which reads its tapes by index (optimize.PLAIN_PASSES)."""
    phase = "typed"

    def applies(self, facts):
        return facts.names is not None           # (no Vocabulary: no helper to name)

    def run(self, facts):
        hoist_pops(facts.backward, facts.names)
