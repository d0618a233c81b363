"""Optimization: a join's cotangent cut from a buffer the code owns goes back into that
buffer, instead of being copied into fresh zeros at the very positions it came from.

    dt6 = du[0:1]                               dt9 = du[1:255]
    dt9 = du[1:255]                             du = reused_cotangent(du, u)
    dt10 = du[255:256]                          dk += np.vdot(dt9, lap)
    du = cotangent_zeros(u)                     dlap = dt9 * k
    if dt10 is not None:                        if dt5 is not None:
        du[-1:] = dt10                   ->         du[:-2] += dt5
    dt7 = dt9
    dk += np.vdot(dt9, lap)
    dlap = dt9 * k
    if dt7 is not None:
        du[1:-1] = dt7
    if dt6 is not None:
        du[:1] = dt6
    if dt5 is not None:
        du[:-2] += dt5

(`u = np.concatenate([u[:1], ..., u[-1:]])` in a loop: the new u's cotangent is cut into
its parts' views, the old u's adjoint starts at zero and its slice reads assign the
parts back.) The zeros filled with the views are the old buffer, element for element,
once every view is written back; the rewrite keeps the old buffer where (all checked,
else nothing changes):

- the views are `V = B[index]` the reverse stage marked as cut from B while B was an
  array buffer the code owns (`owned_cut`: allocated by it, nobody else holds it,
  computed at once), on a literal basic index, in the block of `B = cotangent_zeros(X)`,
  with no statement between the first view and that one naming B;
- from there on, until the first statement naming B otherwise, B is written only by
  `B[index] = V` (or behind `if V is not None`) with V a view, or a name bound to one
  (`N = V`), of the very positions index selects (same region, same integer axes);
  those writes cover all of X's shape (known, B's too) and none twice;
- every name bound to a view is bound once in the pullback and never deleted; each of
  its reads is in this block after its binding and before that first other statement,
  and only as an operand of arithmetic or a comparison, as an argument of
  np.vdot/dot/inner/sum, the value of `N = V` or of a write above; never in a lambda,
  def or comprehension (nothing reads a view once B is written);
- no lambda, def or comprehension in the pullback names B (a Thunk's default could hold
  the old buffer);
- `reused_cotangent(B, X)` (runtime/accumulate.py) returns B only if it is a writable
  ndarray of the zeros' dtype, else a copy cast as the zeros would have been (float32 X,
  float64 cotangent: the writes cast).

The writes, the views only they read and the copies only they read go. The zero buffer
and the writes are found by their typed classes (`ZeroBuffer`, `SliceAdd`); the views
by the reverse stage's `owned_cut` mark, the `if V is not None` around a write (a typed
`If`, no generated class) by its gast.
"""
import gast

from .expr_shapes import parents_of
from .passes import Pass
from ..analysis.index_shapes import literal_index
from ..ir.nodes import blocks, walk
from ..ir.generated import ReuseBuffer, SliceAdd, ZeroBuffer
from ..ir.lower_gast import lowered
from ..ir.statements import typed_of
from ..reverse.slice_adds import disjoint, index_region

_READERS = ("vdot", "dot", "inner", "sum")          # np functions that copy what they read
_DEFERRED = (gast.Lambda, gast.FunctionDef, gast.GeneratorExp, gast.ListComp,
             gast.SetComp, gast.DictComp, gast.ClassDef)


def region_key(index, shape):
    """(positions, which parts are integers) a literal basic index selects, or None."""
    at = literal_index(index)
    region = index_region(at, shape) if at is not None else None
    if region is None:
        return None
    parts = at if isinstance(at, tuple) else (at,)
    return region, tuple(isinstance(p, int) for p in parts)


def _name_target(s):
    if type(s) is gast.Assign and len(s.targets) == 1 and type(s.targets[0]) is gast.Name:
        return s.targets[0].id
    return None


def view_of(s, buffer, shape):
    """(name, region key) for a marked `V = buffer[index]`, else None."""
    value, name = getattr(s, "value", None), _name_target(s)
    if name is None or name == buffer or type(value) is not gast.Subscript or \
            type(value.value) is not gast.Name or value.value.id != buffer or \
            getattr(value, "owned_cut", None) != shape:
        return None
    key = region_key(value.slice, shape)
    return None if key is None else (name, key)


def written_back(s, buffer, shape, aliases):
    """(view name, region key) for `buffer[index] = V` (a typed `SliceAdd` on a zero
    region, or behind `if V is not None`) writing a view back where it came from, else
    None."""
    if type(s) is gast.If and not s.orelse and len(s.body) == 1 and _is_not_none(s.test):
        name = s.test.left.id
        s = s.body[0]
        if type(s) is not gast.Assign or type(s.value) is not gast.Name or s.value.id != name:
            return None
    match typed_of(s):
        case SliceAdd(fresh=True, target=target, index=index, value=gast.Name(id=view)) \
                if target == buffer and view in aliases:
            key = region_key(index, shape)
            return (view, key) if key is not None and key == aliases[view] else None
    return None


def _is_not_none(test):
    return type(test) is gast.Compare and type(test.left) is gast.Name and \
        len(test.ops) == 1 and type(test.ops[0]) is gast.IsNot and \
        type(test.comparators[0]) is gast.Constant and test.comparators[0].value is None


def names(node):
    return {n.id for n in walk(node) if type(n) is gast.Name}


class Site:
    """One `B = cotangent_zeros(X)` at block[at] and what the rewrite needs."""

    def __init__(self, block, at, shape):
        self.block, self.at, self.shape = block, at, shape
        self.buffer = typed_of(block[at]).target
        self.aliases, self.binding = {}, {}     # name -> region key, statement index
        self.writes, self.end = [], len(block)

    def views(self):
        """The marked views before `at` (no other statement naming B since the first)."""
        k = self.at - 1
        while k >= 0:
            found = view_of(self.block[k], self.buffer, self.shape)
            if found is None:
                if self.buffer in names(self.block[k]):
                    break
            else:
                self.aliases[found[0]], self.binding[found[0]] = found[1], k
            k -= 1
        first = min(self.binding.values(), default=self.at)
        return bool(self.aliases) and all(
            self.buffer not in names(s) or view_of(s, self.buffer, self.shape)
            for s in self.block[first:self.at])

    def copies_and_writes(self):
        """Copies of views, the writes back after `at`, and the end (first other
        statement naming B)."""
        for k in range(min(self.binding.values()), len(self.block)):
            s = self.block[k]
            if k > self.at:
                back = written_back(s, self.buffer, self.shape, self.aliases)
                if back is not None:
                    self.writes.append((k, back[1]))
                    continue
                if self.buffer in names(s):
                    self.end = k
                    return
            name = _name_target(s)
            if name is not None and type(s.value) is gast.Name and s.value.id in self.aliases \
                    and name not in self.aliases:
                self.aliases[name], self.binding[name] = self.aliases[s.value.id], k

    def covered(self):
        regions = [key[0] for _, key in self.writes]
        size = 1
        for n in self.shape:
            size *= n
        total = sum(_count(r) for r in regions)
        return total == size and all(disjoint(a, b) for i, a in enumerate(regions)
                                     for b in regions[i + 1:])


def _count(region):
    size = 1
    for axis in region:
        size *= len(range(*axis))
    return size


def reads_in_reach(site, pullback, parents, modules):
    """Whether every use of a view name is a binding or a read the module docstring
    allows, in site's block between its binding and site.end."""
    position = _positions(site.block, parents)
    for n in walk(pullback):
        if type(n) is not gast.Name or n.id not in site.aliases:
            continue
        k = position(n)
        if type(n.ctx) is gast.Del:             # the rewrite may drop its binding
            return False
        if type(n.ctx) is not gast.Load:
            if k != site.binding[n.id] or _name_target(site.block[k]) != n.id:
                return False
        elif k is None or not site.binding[n.id] < k < site.end or \
                not _allowed_read(n, parents, modules, site):
            return False
    return True


def captured(pullback, buffer):
    """Whether a lambda, def or comprehension below the pullback names the buffer (a
    Thunk's default may hold the old buffer, and be forced after it is written)."""
    return any(isinstance(node, _DEFERRED) and buffer in names(node)
               for node in walk(pullback) if node is not pullback)


def _positions(block, parents):
    ids = {id(s): k for k, s in enumerate(block)}

    def position(node):
        while node is not None and id(node) not in ids:
            node = parents.get(id(node))
        return None if node is None else ids[id(node)]
    return position


def _allowed_read(n, parents, modules, site):
    """A read whose value never holds the view: arithmetic, a comparison, a copying np
    function, a copy of the view or a write back; never below a lambda, def or
    comprehension (which may run after the buffer is written)."""
    top = {id(s) for s in site.block}
    node = n
    while node is not None:
        if isinstance(node, _DEFERRED):
            return False
        node = None if id(node) in top else parents.get(id(node))
    parent = parents.get(id(n))
    if type(parent) in (gast.BinOp, gast.UnaryOp, gast.Compare):
        return True
    if type(parent) is gast.Call and n in parent.args and not parent.keywords:
        func = parent.func
        return type(func) is gast.Attribute and type(func.value) is gast.Name and \
            func.value.id in modules and func.attr in _READERS
    if type(parent) is gast.Assign and parent.value is n:
        name = _name_target(parent)
        return name in site.aliases or any(_holds(site.block[k], parent)
                                           for k, _ in site.writes)
    return False


def _holds(s, node):
    return s is node or type(s) is gast.If and s.body[0] is node


def rewrite(site, facts):
    """Keep B: `B = reused_cotangent(B, X)`, the writes back and dead views gone."""
    zeros = typed_of(site.block[site.at])
    site.block[site.at] = gast.copy_location(
        lowered(ReuseBuffer(zeros.target, zeros.like), facts.names), zeros.node)
    gone = {id(site.block[k]) for k, _ in site.writes}
    site.block[:] = [s for s in site.block if id(s) not in gone]
    while True:
        read = {n.id for n in walk(facts.pullback) if type(n) is gast.Name and
                type(n.ctx) is gast.Load}
        dead = {id(s) for s in site.block if _name_target(s) in site.aliases and
                _name_target(s) not in read}
        if not dead:
            return
        site.block[:] = [s for s in site.block if id(s) not in dead]


def sites(pullback, shape_of):
    """Each `B = cotangent_zeros(X)` (X a name of known shape) as (block, index, shape)."""
    for block in blocks(pullback):
        for k, s in enumerate(block):
            typed = typed_of(s)
            if isinstance(typed, ZeroBuffer) and isinstance(typed.like, str):
                shape = shape_of(typed.like)
                if shape:
                    yield block, k, tuple(shape)


def reuse_buffers(facts):
    """Rewrite every site the module docstring allows (each judged on the code as the
    rewrites before it left it); how many."""
    done, tried = 0, set()
    while True:
        for block, at, shape in sites(facts.pullback, facts.shape_of):
            if id(block[at]) in tried:
                continue
            tried.add(id(block[at]))
            site = Site(block, at, shape)
            if not site.views():
                continue
            site.copies_and_writes()
            parents = parents_of(facts.pullback)
            if site.covered() and not captured(facts.pullback, site.buffer) and \
                    reads_in_reach(site, facts.pullback, parents, facts.modules):
                rewrite(site, facts)
                done += 1
                break
        else:
            return done


class ReuseCutBuffers(Pass):
    """A join's cotangent cut from an owned buffer goes back into it (docstring)."""
    needs = ("shape_of",)

    def run(self, facts):
        reuse_buffers(facts)
