"""Optimization: forced thunks inlined, and adjoint resets nobody reads dropped.

    unthunk(Thunk(lambda a=a: e))   ->   e
    dx = None  (never read again)   ->   (removed)

The reverse stage resets an adjoint to None where its primal is rebound, so that a
later contribution starts afresh; most resets are overwritten or never read. Resets
are found by their typed class (`Reset`); forced thunks, expressions, by their marked
helpers (`unthunk`, `Thunk`).
"""
import gast

from ..ir.nodes import count_names, name_ids, statements
from .passes import Pass
from ..ir.generated import Reset
from ..ir.recognize import is_call
from ..ir.statements import typed_of


class _InlineForcedThunks(gast.NodeTransformer):
    """A thunk forced where it is made is just its expression."""

    def visit_Call(self, node):
        self.generic_visit(node)
        if is_call(node, "unthunk") and len(node.args) == 1 and is_call(node.args[0], "Thunk"):
            lam = node.args[0].args[0]
            if isinstance(lam, gast.Lambda) and all(
                    isinstance(d, gast.Name) and d.id == a.id
                    for a, d in zip(lam.args.args, lam.args.defaults)):
                return lam.body
        return node


class InlineForcedThunks(Pass):
    """`unthunk(Thunk(lambda a=a: e))` -> `e`, where the compiler made thunks."""
    needs = ("made_thunks",)

    def applies(self, facts):
        return facts.made_thunks

    def run(self, facts):
        _InlineForcedThunks().visit(facts.rrule)


class DropDeadResets(Pass):
    """`dx = None` at the pullback's top level, with nothing after it reading dx, goes:

        dx = None            ->   (removed)
        return (dy,)              return (dy,)
    """
    needs = ("adjoints",)
    keeps = ("counts",)

    def run(self, facts):
        pullback = facts.pullback
        kept = _drop_dead_resets(pullback.body, facts.adjoints)
        _uncount_dropped(facts, pullback.body, kept)
        pullback.body = kept


def _uncount_dropped(facts, before, after):
    """Keep the name counts exact when resets left a pullback block."""
    if facts._counts is not None and len(after) != len(before):
        kept = {id(s) for s in after}
        for s in before:
            if id(s) not in kept:
                facts._counts.remove(s, True)


def _drop_dead_resets(block, adjoints):
    """Remove `dx = None` at the top level of a block when nothing after it reads dx."""
    first = next((k for k, s in enumerate(block) if _is_reset(s, adjoints)), len(block))
    later, keep = set(), []
    for stmt in reversed(block[first:]):     # one pass from the end: names used later
        if _is_reset(stmt, adjoints) and typed_of(stmt).targets[0] not in later:
            continue
        keep.append(stmt)
        name_ids(stmt, None, later)
    return block[:first] + keep[::-1]        # nothing before the first reset is scanned


def _is_reset(stmt, adjoints):
    """`dx = None` for an adjoint (`adjoints`: the names the compiler chose for them):
    a typed `Reset` of one name (`a = b = None` stays)."""
    match typed_of(stmt):
        case Reset(targets=[name]):
            return name in adjoints
    return False


class DropOverwrittenResets(Pass):
    """In a loop body, `dx = None` whose next use (cyclically) overwrites dx goes:

        for i in reversed(steps1):           for i in reversed(steps1):
            dx = None                ->          dx = g * c
            dx = g * c                           ...
    """
    needs = ("adjoints", "counts")
    keeps = ("counts",)

    def run(self, facts):
        for loop, outside in _loops_with_outside_names(facts):
            before = loop.body
            _drop_overwritten_resets(loop, outside, facts.adjoints)
            _uncount_dropped(facts, before, loop.body)


def _loops_with_outside_names(facts):
    """(loop, names mentioned in the pullback outside that loop) for every loop whose
    body resets an adjoint (the only loops `_drop_overwritten_resets` changes)."""
    pullback, adjoints = facts.pullback, facts.adjoints
    loops = [n for n in statements(pullback) if isinstance(n, gast.For)
             and any(_is_reset(t, adjoints) for t in n.body)]
    if not loops:
        return []
    counts = count_names(pullback.args, dict(facts.counts.pullback))
    found = []
    for node in loops:
        inside = count_names(node, {})
        found.append((node, {name for name, c in counts.items() if c > inside.get(name, 0)}))
    return found


def _overwrites(stmt, name):
    """`name = <expr not reading name>`: the old value is dead."""
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id == name \
        and name not in name_ids(stmt.value)


def _drop_overwritten_resets(loop, outside, adjoints):
    """In a loop body: `dx = None` whose next use (cyclically) overwrites dx goes.

    Wrapping around to the next iteration is allowed only if dx is not used
    outside the loop (the last iteration's reset would be visible there).
    """
    body = loop.body
    names = [name_ids(s) for s in body]
    keep = []
    for k, stmt in enumerate(body):
        if _is_reset(stmt, adjoints):
            name = typed_of(stmt).targets[0]
            after = [body[j] for j in range(k + 1, len(body)) if name in names[j]]
            before = [body[j] for j in range(k) if name in names[j]]
            if after and _overwrites(after[0], name):
                continue
            if not after and before and _overwrites(before[0], name) and name not in outside:
                continue
        keep.append(stmt)
    loop.body = keep or [gast.Pass()]
