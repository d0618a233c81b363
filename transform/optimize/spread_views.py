"""Optimization: the spread of a partial reduction's cotangent written as a view that
elementwise arithmetic broadcasts, where the shapes are known.

    dt27 = unreduce(g, t27, 1, False)       t27 16x16x3  ->  dt27 = g[:, None, :]
    dt25 = dt27 * t26                       t26 16x16x1      (16x16x3 either way)
    dd + unreduce(dt21, t19, 2, False) * 2 * d           ->  dd + dt21[:, :, None] * 2 * d

`unreduce(g, x, axis, keepdims)` is g with x's reduced axes put back as size-1 axes,
broadcast to x's shape with `np.broadcast_to` (its Python overhead costs more than the
arithmetic in a loop over small arrays). The view without the broadcast (`g[:, None, :]`,
or g itself with keepdims) gives the same values wherever only elementwise arithmetic
(`+ - * / **`, a sign) reads it before a result has the shape it has with the spread
(each element of a broadcast result is computed from the same elements either way). So
the spread becomes that view where (shapes computed by transform/optimize/expr_shapes.py,
g's among them, never guessed):

- it is an operand of such arithmetic, and some enclosing arithmetic has, with the
  view, the shape it has with the spread; or
- it is the whole value of `dx = ...`, every other binding of dx is such a spread of
  the same shapes, and every read of dx is such an operand (dx is never passed to a
  call, indexed, added into in place, returned or captured by a lambda).

The view is a view of g, as the spread was (np.broadcast_to shares g's memory), and only
arithmetic reads it: nothing writes into it. Each view is accepted only if every view
accepted so far still checks with it in place, so two views in one expression never
rely on each other being full. A full reduction's spread (axis None) is DropSpreads'.
"""
import gast

from .expr_shapes import ExprShapes, Instead, is_arith
from .passes import Pass
from ..ir.nodes import const, walk
from ..ir.recognize import is_call


def literal_axes(node, ndim):
    """The axes (non-negative, sorted) an int or tuple-of-ints literal names, else None."""
    parts = node.elts if type(node) is gast.Tuple else [node]
    if not parts or any(type(p) is not gast.Constant or type(p.value) is not int
                        for p in parts):
        return None
    axes = [p.value for p in parts]
    if any(not -ndim <= a < ndim for a in axes):
        return None
    axes = sorted(a % ndim for a in axes)
    return tuple(axes) if len(set(axes)) == len(axes) else None


class Spread:
    """`unreduce(g, x, axis, keepdims)` of known shapes: its view and their shapes."""

    def __init__(self, call, view, kept, full):
        self.call, self.view, self.kept, self.full = call, view, kept, full


def spread_of(call, shapes):
    """A Spread for a partial reduction's spread whose shapes are known, else None."""
    if not is_call(call, "unreduce") or len(call.args) != 4:
        return None
    g, x, axis, keep = call.args
    if type(x) is not gast.Name or type(keep) is not gast.Constant or \
            type(keep.value) is not bool:
        return None
    full = shapes.name(x.id)
    axes = literal_axes(axis, len(full)) if full else None
    if axes is None or len(axes) == len(full):
        return None
    kept = tuple(1 if k in axes else n for k, n in enumerate(full))
    if shapes.of(g) != (kept if keep.value else
                        tuple(n for k, n in enumerate(full) if k not in axes)):
        return None
    if keep.value:
        return Spread(call, g, kept, full)
    index = [const(None) if k in axes else gast.Slice(lower=None, upper=None, step=None)
             for k in range(len(full))]
    view = gast.Subscript(value=g, slice=gast.Tuple(elts=index, ctx=gast.Load()),
                          ctx=gast.Load())
    return Spread(call, view, kept, full)


def widens_back(node, parents, shapes, instead):
    """Whether `node` (a value shaped as `instead` says) is an operand of elementwise
    arithmetic that reaches a result shaped as it is without `instead`, with nothing else
    in between. (An operand even when the shapes already agree: the view is writable and
    aliases g, so it never reaches a call, a store or a return, where the spread was a
    read-only view.)"""
    while True:
        node = parents.get(id(node))
        if node is None or not is_arith(node):
            return False
        now = shapes.of(node, instead)
        if now is not None and now == shapes.of(node):
            return True


class Views:
    """The spreads of one pullback, and the views accepted so far. `tree`: the pullback
    as lowered (optimize/lowered_reads.py's `LoweredReads`; anything with its `root`,
    `parents`, `writable(node)` and `put(parent, old, new)`)."""

    def __init__(self, tree, shapes):
        self.tree, self.root, self.shapes = tree, tree.root, shapes
        self.parents = tree.parents
        self.names = {}           # adjoint -> (its Spreads, its reads)
        self.inline = []          # the other Spreads (taken only under arithmetic)
        self.accepted_names, self.accepted_inline = {}, []
        self._collect()

    def _collect(self):
        assigned = {}
        for node in walk(self.root):
            spread = spread_of(node, self.shapes)
            if spread is None or not self.tree.writable(node):
                continue
            parent = self.parents.get(id(node))
            if type(parent) is gast.Assign and len(parent.targets) == 1 and \
                    type(parent.targets[0]) is gast.Name:
                assigned.setdefault(parent.targets[0].id, []).append((parent, spread))
            else:                       # all_hold takes it only under arithmetic
                self.inline.append(spread)
        for name, found in assigned.items():
            self._candidate(name, found)

    def _candidate(self, name, found):
        """name's spreads, if they are all its bindings, share shapes and its own."""
        stores = [n for n in walk(self.root) if type(n) is gast.Name and n.id == name
                  and type(n.ctx) not in (gast.Load, gast.Del)]
        spreads = [s for _, s in found]
        if len(stores) != len(found) or len({(s.kept, s.full) for s in spreads}) != 1 \
                or spreads[0].full != self.shapes.name(name):
            return
        reads = [n for n in walk(self.root) if type(n) is gast.Name and n.id == name
                 and type(n.ctx) is gast.Load]
        self.names[name] = (found, reads)

    def instead(self):
        nodes = {id(s.call): s.kept for s in self.accepted_inline}
        names = {n: found[0][1].kept for n, (found, _) in self.accepted_names.items()}
        return Instead(nodes, names)

    def all_hold(self):
        """Whether every accepted view is read only by arithmetic that widens it back."""
        instead = self.instead()
        reads = [s.call for s in self.accepted_inline] + \
            [r for _, rs in self.accepted_names.values() for r in rs]
        return all(widens_back(r, self.parents, self.shapes, instead) for r in reads)

    def choose(self):
        for name, entry in sorted(self.names.items()):
            self.accepted_names[name] = entry
            if not self.all_hold():
                del self.accepted_names[name]
        for spread in self.inline:
            self.accepted_inline.append(spread)
            if not self.all_hold():
                self.accepted_inline.pop()

    def rewrite(self):
        for found, _ in self.accepted_names.values():
            for assignment, spread in found:
                self.tree.put(assignment, spread.call, spread.view)
        for spread in self.accepted_inline:
            self.tree.put(self.parents[id(spread.call)], spread.call, spread.view)
        return len(self.accepted_names) + len(self.accepted_inline)


def spread_views(tree, shapes):
    """Write the spreads of `tree` (a `LoweredReads`: Views) as views where that is safe
    (module docstring); how many."""
    views = Views(tree, shapes)
    views.choose()
    return views.rewrite()


class SpreadViews(Pass):
    """A partial reduction's spread as a view its arithmetic broadcasts (docstring).

    Typed (session 40): on the typed pullback body before it is lowered, judged on the
    analysis `lowered_reads` (every read with its parents as the gast lowering will
    place it: `dx = dx + v` reads dx under `+`, `dx = accum(dx, v)` under a call) and
    rewritten through it into the statements' operands (the lowering shares them):

        Accumulate(dt27, unreduce(g, t27, 1, False), "set")   t27 16x16x3, g 16x3
        Accumulate(dt25, dt27 * t26, "set")                   t26 16x16x1
      ->
        Accumulate(dt27, g[:, None, :], "set")                dt27 = g[:, None, :]
        Accumulate(dt25, dt27 * t26, "set")                   dt25 = dt27 * t26
    """
    phase = "typed"
    needs = ("lowered_reads", "shape_of", "primal_of")

    def applies(self, facts):
        return facts.names is not None           # (no Vocabulary: nothing to lower by)

    def run(self, facts):
        spread_views(facts.lowered_reads, ExprShapes(facts.shape_of, facts.primal_of))
