"""Optimization: fold each single-use temporary into the one expression that reads it.

    t1 = x * 0.999                           tape.append(x)
    t2 = math.sin(x)                         x = x * 0.999 + 0.001 * math.sin(x)
    t3 = 0.001 * t2                 ->
    tape.append(x)
    x = t1 + t3

and in the backward, `a = e1; a = a + e2` becomes `a = e1 + e2`.

Three-address form makes every operation a statement; in a loop body each extra
name costs a store and a load per iteration, and NumPy cannot reuse a named
temporary's memory. A temporary folds when the rrule mentions it exactly twice
(one plain assignment of a pure expression, one read later in the same block)
and nothing between the two rebinds a name the expression reads.
"""
import copy

import gast

from .names import count_names, name_ids, walk

_PURE = (gast.BinOp, gast.UnaryOp, gast.Compare, gast.Constant, gast.Name, gast.Attribute,
         gast.Subscript, gast.Slice, gast.Tuple, gast.Call)


def fuse(rrule, temporaries, same_shape=lambda a, b: a == b, commented=frozenset()):
    """Fold the foldable temporaries in `rrule` (forward and pullback), in place;
    then drop spreads of a full reduction's cotangent that broadcasting does anyway.
    `commented`: ids of statements a `# primal` comment still renders (copied, not
    rewritten in place)."""
    mentions = count_names(rrule, {})
    _propagate_copies(rrule.body, temporaries, mentions)
    folder = _Folder({name for name in temporaries if mentions.get(name) == 2}, commented)
    folder.block(rrule.body)
    drop = _DropSpread(same_shape)
    for s in folder.rewritten if "unreduce" in mentions else ():
        # a spread meets its product only by folding
        for n in walk(s.value):
            if type(n) is gast.BinOp:
                drop.visit_BinOp(n)
            elif type(n) is gast.Call:
                _spread_product(n)


# NumPy functions that keep their argument's shape
_ELEMENTWISE = {"sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "sinh", "cosh", "square",
                "abs", "sign", "log1p", "expm1", "reciprocal", "negative", "arctan"}


class _DropSpread:
    """`unreduce(g, x, None, False) * e` -> `g * e` when e is elementwise in names shaped
    like x: g (a full reduction's cotangent) is a scalar and broadcasting spreads it.

    unreduce would build an array of x's shape first, which in a loop over small
    arrays costs more than the arithmetic.
    """

    def __init__(self, same_shape):
        self.same_shape = same_shape

    def visit_BinOp(self, node):
        if isinstance(node.op, (gast.Mult, gast.Div)):
            x = _full_spread_of(node.left)
            if x is not None and self._elementwise_in(node.right, x):
                node.left = node.left.args[0]
        if isinstance(node.op, gast.Mult):
            x = _full_spread_of(node.right)
            if x is not None and self._elementwise_in(node.left, x):
                node.right = node.right.args[0]
        return node

    def _elementwise_in(self, expr, x):
        names = [n for n in walk(expr) if isinstance(n, gast.Name)]
        if not any(self.same_shape(n.id, x) for n in names):
            return False                     # constants only: e does not carry x's shape
        for n in walk(expr):
            if isinstance(n, gast.Call):
                f = n.func
                if not (isinstance(f, gast.Attribute) and isinstance(f.value, gast.Name)
                        and f.value.id == "np" and f.attr in _ELEMENTWISE and len(n.args) == 1
                        and not n.keywords):
                    return False
            elif isinstance(n, gast.Name):
                if n.id != "np" and not self.same_shape(n.id, x):
                    return False
            elif isinstance(n, gast.Constant):
                if not isinstance(n.value, (int, float)) or isinstance(n.value, bool):
                    return False
            elif isinstance(n, gast.expr) and not isinstance(n, (gast.BinOp, gast.UnaryOp,
                                                                   gast.Attribute)):
                return False
        return True


def _spread_product(call):
    """`matmul_lhs(unreduce(g, t, None, False), a, b)` -> `matmul_lhs_spread(g, t, a, b)`
    (and the same for matmul_rhs): a constant cotangent needs sums, not a product."""
    if isinstance(call.func, gast.Name) and call.func.id in ("matmul_lhs", "matmul_rhs") \
            and len(call.args) == 3 and _full_spread_of(call.args[0]) is not None:
        spread = call.args[0]
        call.func = gast.Name(id=call.func.id + "_spread", ctx=gast.Load(), annotation=None,
                              type_comment=None)
        call.args = [spread.args[0], spread.args[1]] + call.args[1:]


def _full_spread_of(node):
    """x if node is `unreduce(g, x, None, False)` (or `unreduce(g, x)`), else None."""
    if not (isinstance(node, gast.Call) and isinstance(node.func, gast.Name)
            and node.func.id == "unreduce" and not node.keywords
            and 2 <= len(node.args) <= 4 and isinstance(node.args[1], gast.Name)):
        return None
    rest = [a.value if isinstance(a, gast.Constant) else a for a in node.args[2:]]
    return node.args[1].id if rest in ([], [None], [None, False]) else None


def _propagate_copies(block, temporaries, mentions):
    """`a = b; ...a...` -> `...b...` for a temporary a whose every read follows in this
    block before a or b is rebound; `b = a` there becomes `b = b` and goes."""
    k = 0
    while k < len(block):
        s = block[k]
        for field in ("body", "orelse"):
            if isinstance(s, (gast.For, gast.While, gast.If, gast.FunctionDef)):
                _propagate_copies(getattr(s, field, None) or [], temporaries, mentions)
        if isinstance(s, gast.Assign) and len(s.targets) == 1 \
                and isinstance(s.targets[0], gast.Name) and isinstance(s.value, gast.Name) \
                and s.targets[0].id == s.value.id:
            mentions[s.value.id] -= 2
            del block[k]                             # a = a
            continue
        copy_of = _copy_of(s, temporaries)
        if copy_of is None or not _replace_reads(block, k, *copy_of, mentions):
            k += 1


def _copy_of(s, temporaries):
    if isinstance(s, gast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], gast.Name) \
            and isinstance(s.value, gast.Name) and s.targets[0].id in temporaries \
            and s.targets[0].id != s.value.id:
        return s.targets[0].id, s.value.id
    return None


def _replace_reads(block, k, a, b, mentions):
    """Replace the reads of a after block[k] by b, if all of them are in reach."""
    reads, end, dropped = mentions.get(a, 0) - 1, k + 1, []
    while reads and end < min(len(block), k + _REACH):
        t = block[end]
        here = _count(t, a)
        if here and not isinstance(t, (gast.Assign, gast.AugAssign, gast.Expr, gast.Return)) \
                or a in _stores(t):
            return False
        reads -= here
        end += 1
        if _copy_of(t, {b}) == (b, a):
            dropped.append(t)                        # b = a is b = b now
        elif b in _stores(t):
            break                                    # t itself reads a before b changes
    if reads:
        return False
    for t in block[k + 1:end]:
        _Rename(a, b).visit(t)
    mentions[b] = mentions.get(b, 0) + mentions.get(a, 0) - 1 - 2 * len(dropped)
    mentions[a] = 0
    block[k:end] = [t for t in block[k + 1:end] if t not in dropped]
    return True


_REACH = 16        # statements scanned for a copy's reads (adjoint copies are read nearby)


def _count(node, name):
    return count_names(node, {}).get(name, 0)


class _Rename(gast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old and isinstance(node.ctx, gast.Load):
            node.id = self.new
        return node


class _Folder:
    def __init__(self, foldable, commented):
        self.foldable, self.commented = foldable, commented
        self.passing = {}            # id(stmt) -> (may an expression move past it, stores)
        self.reads = {}              # id(stmt) -> names its value loads (until rewritten)
        self.rewritten = []

    def forget(self, s):
        """Drop what is cached for a statement leaving the code (its id may be reused)."""
        self.reads.pop(id(s), None)
        self.passing.pop(id(s), None)

    def loads(self, s):
        found = self.reads.get(id(s))
        if found is None:
            found = self.reads[id(s)] = _loads(s.value)
        return found

    def block(self, block):
        """Fold in one block and the blocks nested in it."""
        out = []
        for s in block:
            for field in ("body", "orelse"):
                if isinstance(s, (gast.For, gast.While, gast.If, gast.FunctionDef)) \
                        and getattr(s, field, None):
                    setattr(s, field, self.block(getattr(s, field)))
            if isinstance(s, (gast.Assign, gast.AugAssign, gast.Return)) \
                    and s.value is not None:
                s = self.pull_in(out, s)
                k = _previous_statement(out)
                if k is not None and _extends(out[k], s):
                    s = self.rewritable(s)
                    merged = out.pop(k)
                    s.value.left = merged.value          # a = e1; a = a + e2 -> a = e1 + e2
                    self.forget(merged)
                    self.reads.pop(id(s), None)
                    s = self.pull_in(out, s)
            out.append(s)
        block[:] = out
        return block

    def pull_in(self, out, s):
        """Move earlier foldable definitions in `out` into s's expression, nearest
        first; returns s, or the rewritten copy of it."""
        wanted = self.loads(s) & self.foldable
        rebound = set()              # names stored between a candidate and s
        for k in range(len(out) - 1, -1, -1):
            if not wanted:
                break
            p = out[k]
            name = _defined_temp(p, self.foldable)
            if name in wanted and not (self.loads(p) & rebound):
                s = self.rewritable(s)
                s.value = _Inline(name, p.value).visit(s.value)
                wanted = (wanted - {name}) | (self.loads(p) & self.foldable)
                self.reads[id(s)] = (self.loads(s) - {name}) | self.loads(p)
                self.forget(out.pop(k))
                continue
            passable, stores = self.passes(p)
            if not passable:
                break
            rebound |= stores
        return s

    def passes(self, p):
        if id(p) not in self.passing:
            passable = _can_pass(p)
            self.passing[id(p)] = (passable, _stores(p) if passable else None)
        return self.passing[id(p)]

    def rewritable(self, s):
        """s itself, or a copy when a `# primal` comment still renders the original."""
        if getattr(s, "fused", False):
            return s
        if id(s) in self.commented:
            s = copy.copy(s)
            s.value = copy.deepcopy(s.value)
        s.fused = True
        self.rewritten.append(s)
        return s


def _previous_statement(out):
    """Index of the last statement in `out` that is not a comment marker."""
    for k in range(len(out) - 1, -1, -1):
        if not (isinstance(out[k], gast.Expr) and isinstance(out[k].value, gast.Constant)):
            return k
    return None


def _extends(p, s):
    """`a = e1` right before `a = a + e2`, with e1 pure and a read nowhere else in e2."""
    if not (isinstance(s, gast.Assign) and isinstance(p, gast.Assign)):
        return False
    value = s.value
    if not (len(p.targets) == len(s.targets) == 1 and isinstance(p.targets[0], gast.Name)
            and isinstance(s.targets[0], gast.Name) and p.targets[0].id == s.targets[0].id):
        return False
    name = p.targets[0].id
    return isinstance(value, gast.BinOp) and isinstance(value.op, gast.Add) \
        and isinstance(value.left, gast.Name) and value.left.id == name \
        and name not in _loads(value.right) and _pure(p.value)


def _defined_temp(p, foldable):
    if isinstance(p, gast.Assign) and len(p.targets) == 1 \
            and isinstance(p.targets[0], gast.Name) and p.targets[0].id in foldable \
            and _pure(p.value):
        return p.targets[0].id
    return None


def _can_pass(p):
    """Statements a pure expression may be moved after: pure assignments to names,
    pushes onto the tape, `x = pop()` (the moved expression does not pop), comments."""
    if isinstance(p, gast.Assign):
        popped = isinstance(p.value, gast.Call) and isinstance(p.value.func, gast.Name) \
            and p.value.func.id == "pop" and not p.value.args
        return all(isinstance(t, gast.Name) for t in p.targets) and (popped or _pure(p.value))
    if isinstance(p, gast.Expr) and isinstance(p.value, gast.Constant):
        return True                                  # a comment marker
    return isinstance(p, gast.Expr) and isinstance(p.value, gast.Call) \
        and isinstance(p.value.func, gast.Attribute) and p.value.func.attr == "append" \
        and isinstance(p.value.func.value, gast.Name) and p.value.func.value.id == "tape"


# runtime helpers that only read their arguments and return new values
_PURE_HELPERS = {"unbroadcast", "unreduce", "matmul_lhs", "matmul_rhs", "getitem_vjp",
                 "index_vjp"}


def _pure(expr):
    """Operators, indexing, np.* / math.* functions and the read-only helpers above:
    safe to evaluate later."""
    for n in walk(expr):
        if isinstance(n, gast.Call):
            module = isinstance(n.func, gast.Attribute) and isinstance(n.func.value, gast.Name) \
                and n.func.value.id in ("np", "math")
            if not module and not (isinstance(n.func, gast.Name)
                                   and n.func.id in _PURE_HELPERS):
                return False
        elif isinstance(n, gast.expr) and not isinstance(n, _PURE):
            return False
    return True


def _loads(expr):
    return name_ids(expr, gast.Load)


def _stores(stmt):
    return name_ids(stmt, gast.Store)


class _Inline(gast.NodeTransformer):
    def __init__(self, name, value):
        self.name, self.value = name, value

    def visit_Name(self, node):
        return self.value if node.id == self.name and isinstance(node.ctx, gast.Load) else node
