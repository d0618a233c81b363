"""Optimization: fold each single-use temporary into the one expression that reads it.

    t1 = x * 0.999                           tape.append(x)
    t2 = math.sin(x)                         x = x * 0.999 + 0.001 * math.sin(x)
    t3 = 0.001 * t2                 ->
    tape.append(x)
    x = t1 + t3

and in the backward, `a = e1; a = a + e2` becomes `a = e1 + e2`. The typed phase's
FusePullback (typed_fuse.py) makes the pullback's folds before lowering; this pass then
folds the forward sweep only (both, run without it). (Copies were
propagated before, by copies.py.) A temporary folds into an assignment's, an augmented
assignment's or a return's value, and into the arguments of a batched product's update
(`AddProduct`, `dW_products.add(t, x)`: BatchProducts, typed, runs before this pass).

Three-address form makes every operation a statement; in a loop body each extra
name costs a store and a load per iteration, and NumPy cannot reuse a named
temporary's memory. A temporary folds when the rrule mentions it exactly twice
(one plain assignment of a pure expression, one read later in the same block)
and nothing between the two rebinds a name the expression reads. At most MAX_FOLDS
temporaries fold into one expression: a sum of 2,000 terms stays a chain of statements
(folding it whole would cost time quadratic in its length, and a generated expression
nested 2,000 deep that every later walk recurses into).
"""
import copy

import gast

from runtime.traits import HELPER

from .name_counts import NameCounts, ScopedCounts
from .passes import Pass
from ..ir.nodes import assign, name_ids, walk
from ..ir.generated import AddProduct
from ..ir.recognize import called_role, is_comment
from ..ir.statements import Pop, Push, mark_typed, typed_of
from ..ir.templates import clone


MAX_FOLDS = 64

_PURE = (gast.BinOp, gast.UnaryOp, gast.Compare, gast.Constant, gast.Name, gast.Attribute,
         gast.Subscript, gast.Slice, gast.Tuple, gast.Call)


def fuse(rrule, temporaries, commented=frozenset(), modules=frozenset(), counts=None,
         forward_only=False):
    """Fold the foldable temporaries in `rrule` (forward and pullback), in place, and
    return the statements rewritten, each with whether it is in the pullback.
    `commented`: ids of statements a `# primal` comment still renders (copied, not
    rewritten in place). `modules`: the names that denote NumPy and math here (the
    compiler's names for them, which a user name equals only when it denotes the same
    module), whose functions are pure. `counts`: the rrule's NameCounts, kept exact."""
    pullback = next(s for s in rrule.body if isinstance(s, gast.FunctionDef))
    counts = counts or NameCounts.of(rrule, pullback)
    folder = _Folder({name for name in temporaries if counts.get(name) == 2}, commented,
                     modules, ScopedCounts(counts, pullback))
    folder.forward_only = forward_only      # the typed phase folded the pullback
    folder.block(rrule.body)
    counts.value_loads = None                # statements changed: what was found is stale
    return folder.rewritten


class _Folder:
    def __init__(self, foldable, commented, modules, scope):
        self.foldable, self.commented, self.modules = foldable, commented, modules
        self.scope = scope           # the name counts, kept exact; in the pullback or not
        self.passing = {}            # id(stmt) -> (may an expression move past it, stores)
        self.reads = {}              # id(stmt) -> names its value loads (until rewritten)
        self.folds = {}              # id(stmt) -> temporaries folded into its value
        self.defines = {}            # id(stmt) -> the foldable temporary it defines, or None
        self.rewritten = []          # (statement, whether it is in the pullback)
        self.forward_only = False

    def forget(self, s):
        """Drop what is cached for a statement leaving the code (its id may be reused)."""
        self.reads.pop(id(s), None)
        self.passing.pop(id(s), None)
        self.folds.pop(id(s), None)
        self.defines.pop(id(s), None)

    def folded(self, s, p):
        """How many temporaries s's value holds once p's is folded into it."""
        return self.folds.get(id(s), 0) + self.folds.get(id(p), 0) + 1

    def loads(self, s):
        found = self.reads.get(id(s))
        if found is None:
            found = self.scope.counts.loads_of(s)
            if found is None:
                found = _loads(s.value)
            self.reads[id(s)] = found
        return found

    def block(self, block):
        """Fold in one block and the blocks nested in it."""
        out = []
        for s in block:
            outer, self.scope = self.scope, self.scope.enter(s)
            for field in ("body", "orelse"):
                if isinstance(s, (gast.For, gast.While, gast.If, gast.FunctionDef)) \
                        and getattr(s, field, None) and \
                        not (self.forward_only and isinstance(s, gast.FunctionDef)):
                    setattr(s, field, self.block(getattr(s, field)))
            self.scope = outer
            if isinstance(s, (gast.Assign, gast.AugAssign, gast.Return)) \
                    and s.value is not None or isinstance(typed_of(s), AddProduct):
                s = self.pull_in(out, s)
                k = _previous_statement(out)
                if k is not None and _extends(out[k], s, self.modules) and \
                        self.folded(s, out[k]) <= MAX_FOLDS:
                    folds = self.folded(s, out[k])
                    s = self.rewritable(s)
                    merged = out.pop(k)
                    s.value.left = merged.value          # a = e1; a = a + e2 -> a = e1 + e2
                    mark_typed(s, None)                  # (an accumulation no more)
                    self.scope.shift(merged.targets[0].id, -2)
                    self.forget(merged)
                    self.forget(s)
                    self.folds[id(s)] = folds
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
            name = self.defined(p)
            if name in wanted and not (self.loads(p) & rebound):
                folds = self.folded(s, p)
                if folds > MAX_FOLDS:
                    break                # big enough: p stays a statement
                s = self.rewritable(s)
                s.value = _inline(s.value, name, p.value)
                self.scope.shift(name, -2)               # its definition and its read
                self.folds[id(s)] = folds
                wanted = (wanted - {name}) | (self.loads(p) & self.foldable)
                self.reads[id(s)] = (self.loads(s) - {name}) | self.loads(p)
                self.forget(out.pop(k))
                continue
            passable, stores = self.passes(p)
            if not passable:
                break
            rebound |= stores
        return s

    def defined(self, p):
        """The foldable temporary p defines (p is in `out`: its value changes no more)."""
        if id(p) not in self.defines:
            self.defines[id(p)] = _defined_temp(p, self.foldable, self.modules)
        return self.defines[id(p)]

    def passes(self, p):
        if id(p) not in self.passing:
            passable = _can_pass(p, self.modules)
            self.passing[id(p)] = (passable, _stores(p) if passable else None)
        return self.passing[id(p)]

    def rewritable(self, s):
        """s itself, or a copy when a `# primal` comment still renders the original."""
        if getattr(s, "fused", False):
            return s
        self.scope.counts.changed(s)
        if id(s) in self.commented:
            s = copy.copy(s)
            s.value = clone(s.value)
        s.fused = True
        self.rewritten.append((s, self.scope.inner))
        return s


def _previous_statement(out):
    """Index of the last statement in `out` that is not a comment marker."""
    for k in range(len(out) - 1, -1, -1):
        if not is_comment(out[k]):
            return k
    return None


def _extends(p, s, modules):
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
        and name not in _loads(value.right) and _pure(p.value, modules)


def _defined_temp(p, foldable, modules):
    if isinstance(p, gast.Assign) and len(p.targets) == 1 \
            and isinstance(p.targets[0], gast.Name) and p.targets[0].id in foldable \
            and _pure(p.value, modules):
        return p.targets[0].id
    return None


def _can_pass(p, modules):
    """Statements a pure expression may be moved after: pure assignments to names,
    pushes onto the tape, `x = pop()` (the moved expression does not pop), comments."""
    match typed_of(p):
        case Pop() | Push():
            return True
    if isinstance(p, gast.Assign):
        return all(isinstance(t, gast.Name) for t in p.targets) and _pure(p.value, modules)
    return is_comment(p)


# runtime helpers that only read their arguments and return new values (declared
# beside each helper: @template_helper(pure=True))
_PURE_HELPERS = HELPER["pure"]


def _pure(expr, modules):
    """Operators, indexing, np.* / math.* functions and the read-only helpers above:
    safe to evaluate later."""
    for n in walk(expr):
        if isinstance(n, gast.Call):
            module = isinstance(n.func, gast.Attribute) and isinstance(n.func.value, gast.Name) \
                and n.func.value.id in modules
            if not module and called_role(n) not in _PURE_HELPERS:
                return False
        elif isinstance(n, gast.expr) and not isinstance(n, _PURE):
            return False
    return True


def _loads(expr):
    return name_ids(expr, gast.Load)


def _stores(stmt):
    return name_ids(stmt, gast.Store)


def _inline(expr, name, value):
    """expr with its loads of `name` replaced by `value` (a NodeTransformer's result,
    without its per-node method dispatch: this runs once per fold)."""
    if _reads(expr, name):
        return value
    stack, AST = [expr], gast.AST
    while stack:
        node = stack.pop()
        for field in node._fields:
            child = getattr(node, field, None)
            if type(child) is list:
                for k, item in enumerate(child):
                    if _reads(item, name):
                        child[k] = value
                    elif isinstance(item, AST):
                        stack.append(item)
            elif _reads(child, name):
                setattr(node, field, value)
            elif isinstance(child, AST):
                stack.append(child)
    return expr


def _reads(node, name):
    return type(node) is gast.Name and node.id == name and type(node.ctx) is gast.Load


class Fuse(Pass):
    """Fold single-use temporaries and propagate copies (the module docstring's example)."""
    needs = ("counts", "temporaries", "commented")
    provides = ("rewritten",)
    keeps = ("counts",)

    def run(self, facts):
        fused = facts.fused
        facts.rewritten = fuse(facts.rrule, facts.temporaries, facts.commented,
                               facts.modules, facts.counts, forward_only=fused is not None)
        if fused is not None:
            facts.rewritten += [(lowered_or_folded(s), True) for s in fused]


def lowered_or_folded(s):
    """The node a typed statement FusePullback rewrote lowered to; one folded away never
    was: `t = e` stands for it, e shared with the statement it was folded into (a gast
    pass reading `rewritten` rewrites e there, as it did the folded gast statement's)."""
    return s.node if s.node is not None else assign(s.target, s._value)
