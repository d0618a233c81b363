"""The closure lowering's finish (optimize.FINISH, run on the lowered rrule after
lower_sweeps; not an optimiser pass): emptied blocks get a `pass`, and dead temporaries are deleted
right after their last read.

    t1 = x * W                    t1 = x * W
    y = np.sum(t1)        ->      y = np.sum(t1)
    z = y + 1.0                   del t1
                                  z = y + 1.0
"""
import gast

from ..ir.nodes import lambda_params, name_ids, names_and_stores, nodes_below, statements
from .passes import Pass
from ..ir.recognize import is_comment


class FillEmptyBlocks(Pass):
    """A block left with comments only (its statements folded away) gets a `pass`:

        for i in reversed(steps1):           for i in reversed(steps1):
            # t2 = x * c             ->          # t2 = x * c
                                                 pass
    """
    keeps = ("counts",)

    def run(self, facts):
        for s in statements(facts.rrule):
            for field in ("body", "orelse"):
                block = getattr(s, field, None)
                if block is None or field == "orelse" and not block:
                    continue                             # no else: nothing to fill
                if all(is_comment(t) for t in block):
                    block.append(gast.Pass())


class ReleaseTemporaries(Pass):
    """`del a, b` after the statement that last reads them, in the forward and the
    backward straight-line code (the module docstring's example): a temporary lives no
    longer than the primal would keep it (arrays can be large)."""
    needs = ("counts",)
    keeps = ("counts",)

    def run(self, facts):
        rrule, pullback, counts = facts.rrule, facts.pullback, facts.counts
        params = {a.id for a in rrule.args.args + rrule.args.kwonlyargs}
        captured = {name for name, c in counts.pullback.items() if c}
        captured = name_ids(pullback.args, None, captured)
        returned = name_ids(rrule.body[-1])
        index = rrule.body.index(pullback)
        rrule.body = _free_dead_names(rrule.body[:index], params | captured | returned,
                                      counts, False) + rrule.body[index:]
        inner = {a.id for a in pullback.args.args + pullback.args.kwonlyargs}
        pullback.body = _free_dead_names(pullback.body[:-1],
                                         inner | name_ids(pullback.body[-1]),
                                         counts, True) + pullback.body[-1:]


def _last_reads(block, keep):
    """statement index -> the names to delete after it: names bound once, by a simple
    assignment of this block, not in `keep`, freed after their last mention (a
    comprehension's own variables are not the function's: never deleted)."""
    scans = [names_and_stores(s) for s in block]
    bound = {}
    for k, (s, (_, stores)) in enumerate(zip(block, scans)):
        simple = isinstance(s, gast.Assign) and len(s.targets) == 1 \
            and isinstance(s.targets[0], gast.Name)
        for name in stores:
            own = simple and name == s.targets[0].id
            bound[name] = k if own and name not in bound else None
    last = {}
    for k, (used, _) in enumerate(scans):
        for name in used:
            last[name] = k
    frees = {}
    for name, k in bound.items():
        if k is not None and name not in keep:
            frees.setdefault(last[name], []).append(name)
    return frees


def _free_dead_names(block, keep, counts, in_pullback):
    """The block with `del` statements after the last reads `_last_reads` finds; in the
    forward sweep, a name a lambda or nested def reads stays (the closure reads it when
    called, later). The pullback needs no such scan: a closure made there that outlives
    its statement is a Thunk, which captures what it reads by value (thunk_of)."""
    frees = _last_reads(block, keep if in_pullback else keep | _closed_over(block))
    out = []
    for k, s in enumerate(block):
        out.append(s)
        if k in frees and not isinstance(s, gast.Return):
            targets = [gast.Name(id=n, ctx=gast.Del(), annotation=None, type_comment=None)
                       for n in sorted(frees[k])]
            out.append(gast.Delete(targets=targets))
            for name in frees[k]:
                counts.shift(name, 1, in_pullback)
    return out


def _closed_over(block):
    """The free names the lambdas and nested defs of `block` read (not their own
    parameters: `Thunk(lambda dt1=dt1: ...)` reads dt1 when it is made)."""
    found = set()
    for s in block:
        closures = [s] if isinstance(s, gast.FunctionDef) else nodes_below(s, gast.Lambda)
        for node in closures:
            body = node.body if isinstance(node.body, list) else [node.body]
            found |= set().union(*(name_ids(t, gast.Load) for t in body)) - \
                lambda_params(node)
    return found
