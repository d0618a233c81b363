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

The writes, the views only they read and the copies only they read go. Typed: it runs
on the typed pullback body before it is lowered. The zero buffer and the writes are
found by their typed classes (`ZeroBuffer`, `SliceAdd`), the views and copies as
`Accumulate`s "set" (or `Bind`s) whose value is a subscript carrying the reverse stage's
`owned_cut` mark or a view's name, the guard as a typed `If`; a view's reads are judged
on the gast operands of the typed statements (their parents there, or, for an operand
that is a whole value, what the statement lowers it into: `d = v`, `d = d + v`).
"""
import gast

from .dead_saves import _blocks, loaded
from .passes import Pass
from ..analysis.index_shapes import literal_index
from ..ir.generated import Bind, Comment, Generated, ReuseBuffer, SliceAdd, ZeroBuffer
from ..ir.nodes import walk
from ..ir.statements import Accumulate, Control, For, If
from ..ir.typed_names import mentioned, typed_statements
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


def plain(s):
    """(name, value) for a typed statement lowered as `name = value` (an `Accumulate`
    "set", a `Bind`, a user's assignment to one name), else None."""
    if isinstance(s, Accumulate):
        return (s.target, s.value) if s.mode == "set" else None
    if isinstance(s, Bind):
        return s.target, s.value
    if isinstance(s, (Generated, Control, Comment)) or s.node is None:
        return None
    node = s.node
    if type(node) is gast.Assign and len(node.targets) == 1 and \
            type(node.targets[0]) is gast.Name:
        return node.targets[0].id, node.value
    return None


def _name_target(s):
    found = plain(s)
    return None if found is None else found[0]


def view_of(s, buffer, shape):
    """(name, region key) for a marked `V = buffer[index]`, else None."""
    found = plain(s)
    if found is None:
        return None
    name, value = found
    if name == buffer or type(value) is not gast.Subscript or \
            type(value.value) is not gast.Name or value.value.id != buffer or \
            getattr(value, "owned_cut", None) != shape:
        return None
    key = region_key(value.slice, shape)
    return None if key is None else (name, key)


def written_back(s, buffer, shape, aliases):
    """(view name, region key) for `buffer[index] = V` (a typed `SliceAdd` on a zero
    region, or behind `if V is not None`) writing a view back where it came from, else
    None."""
    if isinstance(s, If) and not s.orelse and len(s.body) == 1 and _is_not_none(s.test):
        name = s.test.left.id
        s = s.body[0]
        if not (isinstance(s, SliceAdd) and type(s.value) is gast.Name and s.value.id == name):
            return None
    match s:
        case SliceAdd(fresh=True, target=target, index=index, value=gast.Name(id=view)) \
                if target == buffer and view in aliases:
            key = region_key(index, shape)
            return (view, key) if key is not None and key == aliases[view] else None
    return None


def _is_not_none(test):
    return type(test) is gast.Compare and type(test.left) is gast.Name and \
        len(test.ops) == 1 and type(test.ops[0]) is gast.IsNot and \
        type(test.comparators[0]) is gast.Constant and test.comparators[0].value is None


def names(s):
    return mentioned(s)


class Site:
    """One `B = cotangent_zeros(X)` at block[at] and what the rewrite needs."""

    def __init__(self, block, at, shape):
        self.block, self.at, self.shape = block, at, shape
        self.buffer = block[at].target
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
            found = plain(s)
            if found is not None and type(found[1]) is gast.Name and \
                    found[1].id in self.aliases and found[0] not in self.aliases:
                self.aliases[found[0]], self.binding[found[0]] = self.aliases[found[1].id], k

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


def operands(s):
    """(expression, how the statement holds it) for each gast operand of a typed
    statement: "value" for the whole value of a `name = value` (`plain`), "sum" for an
    `Accumulate` "sum"'s, "write" for a fresh `SliceAdd`'s value, "node" for a
    statement's own gast node, else "operand" (a helper's argument, an index, a header)."""
    if isinstance(s, Control):
        return [(getattr(s.node, f), "operand") for f in ("target", "iter", "test")
                if getattr(s.node, f, None) is not None]
    if plain(s) is not None:
        return [(plain(s)[1], "value")]
    if isinstance(s, Accumulate):
        return [(s.value, "sum" if s.mode == "sum" else "operand")]
    if isinstance(s, SliceAdd):
        return [(s.index, "operand"), (s.value, "write" if s.fresh else "operand")]
    if isinstance(s, Generated):
        fields = [getattr(s, k.lstrip("_")) for k in vars(s) if k != "node"]
        flat = [x for v in fields for x in (v if isinstance(v, (list, tuple)) else [v])]
        return [(v, "operand") for v in flat if isinstance(v, gast.AST)]
    return [(s.node, "node")]


def _parents(root):
    parents = {}
    for node in walk(root):
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
    return parents


def reads_in_reach(site, backward, modules):
    """Whether every use of a view name is a binding or a read the module docstring
    allows, in site's block between its binding and site.end."""
    position = {}
    for k, s in enumerate(site.block):
        for t in typed_statements([s]):
            position[id(t)] = k
    for t in typed_statements(backward):
        k = position.get(id(t))
        for expr, held in operands(t):
            if not _uses_ok(site, t, k, expr, held, modules):
                return False
        bound = _name_target(t)
        if bound in site.aliases and (k != site.binding[bound] or t is not site.block[k]):
            return False
        if isinstance(t, For) and {n.id for n in walk(t.target)
                                   if type(n) is gast.Name} & set(site.aliases):
            return False
    return True


def _uses_ok(site, t, k, expr, held, modules):
    """The view names in one operand of typed statement t (at site.block[k]) are read
    only as allowed; a store or a `del` of one only as `plain`'s own binding."""
    parents = _parents(expr)
    for n in walk(expr):
        if type(n) is not gast.Name or n.id not in site.aliases:
            continue
        if type(n.ctx) is gast.Del:                 # the rewrite may drop its binding
            return False
        if type(n.ctx) is not gast.Load:
            if held != "node" or k != site.binding[n.id] or _name_target(t) != n.id:
                return False
        elif k is None or not site.binding[n.id] < k < site.end or \
                not _allowed_read(n, parents, expr, held, t, modules, site):
            return False
    return True


def _allowed_read(n, parents, expr, held, t, modules, site):
    """A read whose value never holds the view: arithmetic, a comparison, a copying np
    function, a copy of the view or a write back; never below a lambda, def or
    comprehension (which may run after the buffer is written)."""
    node = parents.get(id(n))
    while node is not None:
        if isinstance(node, _DEFERRED):
            return False
        node = parents.get(id(node))
    if n is expr:                                   # the statement's whole operand
        if held == "value":
            return _name_target(t) in site.aliases or _is_write(t, site)
        return held == "sum" or held == "write" and _is_write(t, site)
    parent = parents.get(id(n))
    if held == "node" and type(parent) is gast.Assign and parent.value is n:
        return False                                # (not `plain`: several targets)
    if type(parent) in (gast.BinOp, gast.UnaryOp, gast.Compare):
        return True
    if type(parent) is gast.Call and n in parent.args and not parent.keywords:
        func = parent.func
        return type(func) is gast.Attribute and type(func.value) is gast.Name and \
            func.value.id in modules and func.attr in _READERS
    return False


def _is_write(t, site):
    return any(site.block[k] is t or isinstance(site.block[k], If) and
               site.block[k].body[0] is t for k, _ in site.writes)


def captured(backward, buffer):
    """Whether a lambda, def or comprehension in the pullback names the buffer (a
    Thunk's default may hold the old buffer, and be forced after it is written)."""
    return any(isinstance(node, _DEFERRED) and buffer in
               {m.id for m in walk(node) if type(m) is gast.Name}
               for t in typed_statements(backward) for expr, _ in operands(t)
               for node in walk(expr))


def rewrite(site, backward):
    """Keep B: `B = reused_cotangent(B, X)`, the writes back and dead views gone."""
    zeros = site.block[site.at]
    site.block[site.at] = ReuseBuffer(zeros.target, zeros.like)
    gone = {id(site.block[k]) for k, _ in site.writes}
    site.block[:] = [s for s in site.block if id(s) not in gone]
    while True:
        read = set()
        for t in typed_statements(backward):
            loaded(t, read)
        dead = {id(s) for s in site.block if _name_target(s) in site.aliases and
                _name_target(s) not in read}
        if not dead:
            return
        site.block[:] = [s for s in site.block if id(s) not in dead]


def sites(backward, shape_of):
    """Each `B = cotangent_zeros(X)` (X a name of known shape) as (block, index, shape)."""
    for block in _blocks(backward):
        for k, s in enumerate(block):
            if isinstance(s, ZeroBuffer) and isinstance(s.like, str):
                shape = shape_of(s.like)
                if shape:
                    yield block, k, tuple(shape)


def reuse_buffers(facts):
    """Rewrite every site the module docstring allows (each judged on the code as the
    rewrites before it left it); how many."""
    done, tried = 0, set()
    modules = _modules(facts.names)
    while True:
        for block, at, shape in sites(facts.backward, facts.shape_of):
            if id(block[at]) in tried:
                continue
            tried.add(id(block[at]))
            site = Site(block, at, shape)
            if not site.views():
                continue
            site.copies_and_writes()
            if site.covered() and not captured(facts.backward, site.buffer) and \
                    reads_in_reach(site, facts.backward, modules):
                rewrite(site, facts.backward)
                done += 1
                break
        else:
            return done


def _modules(names):
    """The names that denote NumPy and math (none without a Vocabulary: no np reader
    is then allowed a view)."""
    return frozenset() if names is None else frozenset({names.name("np"), names.name("math")})


class ReuseCutBuffers(Pass):
    """A join's cotangent cut from an owned buffer goes back into it (docstring).
    Typed: it runs on the typed pullback body, before it is lowered."""
    phase = "typed"
    needs = ("names", "shape_of")

    def run(self, facts):
        reuse_buffers(facts)
