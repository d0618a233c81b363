"""Stage 7, optimize: small rewrites that keep the generated code lean.

    unthunk(Thunk(lambda a=a: e))   ->   e
    dx = None  (never read again)   ->   (removed)

The passes, in order (`optimize` below): forced thunks inlined, dead resets dropped,
copies propagated and temporaries folded (fuse.py), spreads of a scalar cotangent left
to broadcasting (spreads.py), tape entries read in loop headers
(tape_iteration.py), outer products batched (batch_products.py), tape entries nobody
reads any more not saved (dead_saves.py), loop-invariant factors of a sum applied
once after the loop (hoist_factors.py), emptied blocks given a `pass`, dead names deleted.
"""
import gast

from .batch_products import batch_products
from .dead_saves import drop_dead_saves
from .fuse import fuse
from .hoist_factors import hoist_factors
from .spreads import drop_spreads
from .tape_iteration import hoist_pops
from ..ir.nodes import count_names, name_ids, names_and_stores, statements
from ..ir.recognize import is_call, is_comment


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


def _names(stmt):
    return name_ids(stmt)


_scan = names_and_stores          # (every name in a statement, the names it stores)


def _drop_dead_resets(block, adjoints):
    """Remove `dx = None` at the top level of a block when nothing after it reads dx."""
    later, keep = set(), []
    for stmt in reversed(block):             # one pass from the end: names used later
        if _is_reset(stmt, adjoints) and stmt.targets[0].id not in later:
            continue
        keep.append(stmt)
        later |= _names(stmt)
    return keep[::-1]


def _is_reset(stmt, adjoints):
    """`dx = None` for an adjoint (`adjoints`: the names the compiler chose for them)."""
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Constant) \
        and stmt.value.value is None and stmt.targets[0].id in adjoints


def _overwrites(stmt, name):
    """`name = <expr not reading name>`: the old value is dead."""
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id == name \
        and name not in _names(stmt.value)


def _drop_overwritten_resets(loop, outside, adjoints):
    """In a loop body: `dx = None` whose next use (cyclically) overwrites dx goes.

    Wrapping around to the next iteration is allowed only if dx is not used
    outside the loop (the last iteration's reset would be visible there).
    """
    body = loop.body
    names = [_names(s) for s in body]
    keep = []
    for k, stmt in enumerate(body):
        if _is_reset(stmt, adjoints):
            name = stmt.targets[0].id
            after = [body[j] for j in range(k + 1, len(body)) if name in names[j]]
            before = [body[j] for j in range(k) if name in names[j]]
            if after and _overwrites(after[0], name):
                continue
            if not after and before and _overwrites(before[0], name) and name not in outside:
                continue
        keep.append(stmt)
    loop.body = keep or [gast.Pass()]


def _loops_with_outside_names(pullback, adjoints):
    """(loop, names mentioned in the pullback outside that loop) for every loop whose
    body resets an adjoint (the only loops `_drop_overwritten_resets` changes)."""
    loops = [n for n in statements(pullback) if isinstance(n, gast.For)
             and any(_is_reset(t, adjoints) for t in n.body)]
    counts = count_names(pullback, {}) if loops else {}
    for node in loops:
        inside = count_names(node, {})
        yield node, {name for name, c in counts.items() if c > inside.get(name, 0)}


def _free_dead_names(block, keep):
    """`del a, b` after the statement that last reads them: straight-line code keeps no
    temporary alive longer than the primal would (arrays can be large).

    Only names bound once, by a simple assignment of this block, and not in `keep`.
    """
    scans = [_scan(s) for s in block]
    names = [used for used, _ in scans]
    bound = {}
    for k, (s, (_, stores)) in enumerate(zip(block, scans)):
        simple = isinstance(s, gast.Assign) and len(s.targets) == 1 \
            and isinstance(s.targets[0], gast.Name)
        for name in stores:
            bound[name] = k if simple and name not in bound else None
    last = {}
    for k, used in enumerate(names):
        for name in used:
            last[name] = k
    frees = {}
    for name, k in bound.items():
        if k is not None and name not in keep:
            frees.setdefault(last[name], []).append(name)
    out = []
    for k, s in enumerate(block):
        out.append(s)
        if k in frees and not isinstance(s, gast.Return):
            targets = [gast.Name(id=n, ctx=gast.Del(), annotation=None, type_comment=None)
                       for n in sorted(frees[k])]
            out.append(gast.Delete(targets=targets))
    return out


def _release_temporaries(rrule):
    """Free dead temporaries in the forward and backward straight-line code."""
    pullback = next(s for s in rrule.body if isinstance(s, gast.FunctionDef))
    params = {a.id for a in rrule.args.args + rrule.args.kwonlyargs}
    captured = _names(pullback)
    returned = _names(rrule.body[-1])
    index = rrule.body.index(pullback)
    rrule.body = _free_dead_names(rrule.body[:index], params | captured | returned) \
        + rrule.body[index:]
    inner = {a.id for a in pullback.args.args + pullback.args.kwonlyargs}
    pullback.body = _free_dead_names(pullback.body[:-1], inner | _names(pullback.body[-1])) \
        + pullback.body[-1:]


def optimize(rrule, names, made_thunks=True, temporaries=frozenset(),
             same_shape=lambda a, b: a == b, commented=frozenset(), shape_of=lambda name: None,
             adjoints=frozenset()):
    """Rewrite the rrule FunctionDef in place; `names` is the compilation's Vocabulary,
    `adjoints` the names it chose for adjoints."""
    pullback = next(s for s in rrule.body if isinstance(s, gast.FunctionDef))
    if made_thunks:
        _InlineForcedThunks().visit(rrule)
    pullback.body = _drop_dead_resets(pullback.body, adjoints)
    for loop, outside in list(_loops_with_outside_names(pullback, adjoints)):
        _drop_overwritten_resets(loop, outside, adjoints)
    modules = frozenset({names.name("np"), names.name("math")})
    drop_spreads(fuse(rrule, temporaries, commented, modules), names, same_shape)
    if batch_products(pullback, names, taken=hoist_pops(pullback, names), shape_of=shape_of):
        drop_dead_saves(rrule, pullback)
    hoist_factors(pullback)
    _fill_empty_blocks(rrule)
    _release_temporaries(rrule)
    return rrule


def _fill_empty_blocks(tree):
    """A block left with comments only (its statements folded away) gets a `pass`."""
    for s in statements(tree):
        for field in ("body", "orelse"):
            block = getattr(s, field, None)
            if block is None or field == "orelse" and not block:
                continue                             # no else: nothing to fill
            if all(is_comment(t) for t in block):
                block.append(gast.Pass())
