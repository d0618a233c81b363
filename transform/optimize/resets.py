"""Optimization: forced thunks inlined, and adjoint resets nobody reads dropped.

    unthunk(Thunk(lambda a=a: e))   ->   e
    dx = None  (never read again)   ->   (removed)

The reverse stage resets an adjoint to None where its primal is rebound, so that a
later contribution starts afresh; most resets are overwritten or never read. The resets'
passes run on the typed pullback body before it is lowered (TYPED_PASSES), matching
`Reset` and asking the typed statements the names they mention, bind and read
(ir/typed_names.py); forced thunks, expressions, are found in the typed statements' gast
operands (optimize/typed_expressions.py) by their marked helpers (`unthunk`, `Thunk`).
"""
import gast

from .passes import Pass
from .typed_expressions import rewrite_expressions
from ..ir import statements as ir
from ..ir.generated import Reset
from ..ir.recognize import is_call
from ..ir.statements import Control, For
from ..ir.typed_names import header_names, mentioned, overwrites, typed_statements


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
    """`unthunk(Thunk(lambda a=a: e))` -> `e`, in the gast expressions of the typed
    sweeps' statements (an `Accumulate`'s value, a generated statement's fields, a
    kept node):

        Accumulate(dx, unthunk(Thunk(lambda g=g: g * x)), "set")
                                    ->   Accumulate(dx, g * x, "set")

    Typed: it runs on the typed sweeps, before they are lowered (statements typed,
    expressions gast: optimize/typed_expressions.py)."""
    phase = "typed"

    def run(self, facts):
        rewrite_expressions(facts.forward + facts.backward, _InlineForcedThunks())


class DropDeadResets(Pass):
    """`dx = None` at the pullback's top level, with nothing after it reading dx, goes:

        dx = None            ->   (removed)
        return (dy,)              return (dy,)

    Typed: it runs on the typed pullback body, before it is lowered."""
    phase = "typed"
    needs = ("adjoints",)

    def run(self, facts):
        facts.backward[:] = _drop_dead_resets(facts.backward, facts.adjoints)


def _drop_dead_resets(block, adjoints):
    """Remove `dx = None` at the top level of a block when nothing after it reads dx."""
    first = next((k for k, s in enumerate(block) if _reset(s, adjoints)), len(block))
    later, keep = set(), []
    for stmt in reversed(block[first:]):     # one pass from the end: names used later
        name = _reset(stmt, adjoints)
        if name is not None and name not in later:
            continue
        keep.append(stmt)
        mentioned(stmt, later)
    return block[:first] + keep[::-1]        # nothing before the first reset is scanned


def _reset(stmt, adjoints):
    """The adjoint `stmt` resets (`adjoints`: the names the compiler chose for them),
    else None: a `Reset` of one name (`a = b = None` stays)."""
    match stmt:
        case Reset(targets=[name]) if name in adjoints:
            return name
    return None


class DropOverwrittenResets(Pass):
    """In a loop body, `dx = None` whose next use (cyclically) overwrites dx goes:

        for i in reversed(steps1):           for i in reversed(steps1):
            dx = None                ->          dx = g * c
            dx = g * c                           ...

    Typed: it runs on the typed pullback body, before it is lowered."""
    phase = "typed"
    needs = ("adjoints",)

    def run(self, facts):
        for loop, outside in _loops_with_outside_names(facts):
            _drop_overwritten_resets(loop, outside, facts.adjoints)


def _loops_with_outside_names(facts):
    """(loop, names mentioned in the pullback outside that loop, its parameters
    included) for every loop whose body resets an adjoint (the only loops
    `_drop_overwritten_resets` changes)."""
    body, adjoints = facts.backward, facts.adjoints
    loops = [s for s in typed_statements(body) if isinstance(s, For)
             and any(_reset(t, adjoints) for t in s.body)]
    found = []
    for loop in loops:
        outside = set(facts.params)
        for s in body:
            _mentioned_outside(s, loop, outside)
        found.append((loop, outside))
    return found


def _mentioned_outside(s, loop, into):
    """The names `s` mentions, `loop` (its header and body) left out."""
    if s is loop:
        return
    if isinstance(s, Control):
        header_names(s, into)
        for t in s.body + s.orelse:
            _mentioned_outside(t, loop, into)
    else:
        mentioned(s, into)


def _drop_overwritten_resets(loop, outside, adjoints):
    """In a loop body: `dx = None` whose next use (cyclically) overwrites dx goes.

    Wrapping around to the next iteration is allowed only if dx is not used
    outside the loop (the last iteration's reset would be visible there).
    """
    body = loop.body
    names = [mentioned(s) for s in body]
    keep = []
    for k, stmt in enumerate(body):
        name = _reset(stmt, adjoints)
        if name is not None:
            after = [body[j] for j in range(k + 1, len(body)) if name in names[j]]
            before = [body[j] for j in range(k) if name in names[j]]
            if after and overwrites(after[0], name):
                continue
            if not after and before and overwrites(before[0], name) and name not in outside:
                continue
        keep.append(stmt)
    loop.body = keep or [ir.Pass(gast.Pass())]
