"""Optimization: fold each single-use temporary of the forward sweep into the one
expression that reads it, on the typed sweep before it is lowered (session 39).

    t1 = x * 0.999                           tape.append(x)
    t2 = math.sin(x)                         x = x * 0.999 + 0.001 * math.sin(x)
    t3 = 0.001 * t2                 ->
    tape.append(x)
    x = t1 + t3

and `a = e1; a = a + e2` becomes `a = e1 + e2` (an `Emitted` statement: its Prim's
operation no more). The forward sweep's statements that fold keep their gast node (the
user's `Simple`s), so a fold goes into the node's value: into a copy of it where a
`# t2 = math.sin(x)` comment quotes the node (`commented`); into the argument lists of a
callee's rrule call (`RruleCall.args`, shared with the user's call a comment quotes,
which shows the fold). FusePullback (typed_fuse.py) folds the pullback's with the same
rules and helpers, which are here. (Copies were propagated before, by copies.py.)

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

from .copies import _Pullback
from .passes import Pass
from . import typed_views as view
from ..ir.nodes import load, name_ids, walk
from ..ir.generated import Comment, Generated, RruleCall
from ..ir.recognize import called_role, is_comment
from ..ir.statements import Accumulate, Control, Emitted, Pop, Push, Return, typed_of
from ..ir.templates import clone


MAX_FOLDS = 64

_PURE = (gast.BinOp, gast.UnaryOp, gast.Compare, gast.Constant, gast.Name, gast.Attribute,
         gast.Subscript, gast.Slice, gast.Tuple, gast.Call)


def fuse_forward(forward, backward, temporaries, adjoints, params, commented=frozenset(),
                 modules=frozenset()):
    """Fold the foldable temporaries of the typed forward sweep `forward` (in place) and
    return the typed statements rewritten, in order (FuseForward provides them as
    `fused_forward`). `backward`, `adjoints`, `params`: the typed pullback body,
    the adjoints' names, its parameters (counted as the lowered rrule counts them:
    copies._Pullback). `commented`: ids of nodes a `# primal` comment still renders
    (copied, not rewritten in place). `modules`: the names that denote NumPy and math
    here (the compiler's names for them), whose functions are pure."""
    counts = _Pullback(backward, adjoints, params).mentions({})
    for s in forward:
        view.count(s, counts)
    folder = _Folder({name for name in temporaries if counts.get(name) == 2}, commented,
                     modules)
    # `return y, pullback` comes after the pullback's def, which nothing moves past
    last = forward[-1:] if forward and isinstance(forward[-1], Return) else []
    body = forward[:len(forward) - len(last)]
    folder.block(body)
    forward[:] = body + last
    return folder.rewritten


def _kept(s):
    """Whether s is lowered to its own node (a user's statement, a push, a comment)."""
    return s.node is not None and not isinstance(s, (Generated, Accumulate))


def _value(s):
    """The expression s's lowered value is, or None: a kept assignment's, augmented
    assignment's or return's value; a callee's rrule call (lowered sharing its lists)."""
    if isinstance(s, RruleCall) and s.node is None:
        return gast.Call(func=load(s.rule), args=s.args, keywords=s.keywords)
    if _kept(s) and not isinstance(s, Control) and \
            isinstance(s.node, (gast.Assign, gast.AugAssign, gast.Return)):
        return s.node.value
    return None


class _Folder:
    def __init__(self, foldable, commented, modules):
        self.foldable, self.commented, self.modules = foldable, commented, modules
        self.folds = {}              # id(stmt) -> temporaries folded into its value
        self.rewritten = []          # typed statements, in the order first rewritten
        self.marked = set()          # ids of the rrule calls among them

    def folded(self, s, p):
        """How many temporaries s's value holds once p's is folded into it."""
        return self.folds.get(id(s), 0) + self.folds.get(id(p), 0) + 1

    def block(self, block):
        """Fold in one block and the blocks nested in it."""
        out = []
        for s in block:
            if isinstance(s, Control):
                for body in (s.body, s.orelse):
                    if body:
                        self.block(body)
            if _value(s) is not None:
                s = self.pull_in(out, s)
                k = _previous_statement(out)
                if k is not None and _kept(out[k]) and _kept(s) and \
                        _extends(out[k].node, s.node, self.modules) and \
                        self.folded(s, out[k]) <= MAX_FOLDS:
                    folds = self.folded(s, out[k])
                    s = self.rewritable(s)
                    merged = out.pop(k)
                    s.node.value.left = merged.node.value   # a = e1; a = a + e2 -> a = e1 + e2
                    s = Emitted(s.node)                       # (its Prim's operation no more)
                    self.folds[id(s)] = folds
                    s = self.pull_in(out, s)
            out.append(s)
        block[:] = out

    def pull_in(self, out, s):
        """Move earlier foldable definitions in `out` into s's expression, nearest
        first; returns s, or the rewritten copy of it."""
        wanted = _loads(_value(s)) & self.foldable
        rebound = set()              # names stored between a candidate and s
        for k in range(len(out) - 1, -1, -1):
            if not wanted:
                break
            p = out[k]
            name = _defined_temp(p.node, self.foldable, self.modules) if _kept(p) else None
            loads = _loads(p.node.value) if name else set()
            if name in wanted and not (loads & rebound):
                folds = self.folded(s, p)
                if folds > MAX_FOLDS:
                    break                # big enough: p stays a statement
                s = self.rewritable(s)
                self.fold(s, name, p.node.value)
                self.folds[id(s)] = folds
                wanted = (wanted - {name}) | (loads & self.foldable)
                out.pop(k)
                continue
            if not _passable(p, self.modules):
                break
            rebound |= _stores(p.node)
        return s

    @staticmethod
    def fold(s, name, value):
        if isinstance(s, RruleCall):
            _inline(_value(s), name, value)          # into its argument lists, in place
        else:
            s.node.value = _inline(s.node.value, name, value)

    def rewritable(self, s):
        """s itself, or a copy when a `# primal` comment still renders its node."""
        if isinstance(s, RruleCall):
            if id(s) not in self.marked:
                self.marked.add(id(s))
                self.rewritten.append(s)
            return s
        node = s.node
        if getattr(node, "fused", False):
            return s
        if id(node) in self.commented:
            node = copy.copy(node)
            node.value = clone(node.value)
            s = copy.copy(s)                # (the typed form's statement keeps its node)
            s.node = node
        node.fused = True
        self.rewritten.append(s)
        return s


def _passable(p, modules):
    """What a pure expression may move past (a push; the gast `_can_pass` of a kept
    node; no generated statement of the forward sweep)."""
    if isinstance(p, (Push, Pop)):
        return True
    return _kept(p) and _can_pass(p.node, modules)


def _previous_statement(out):
    """Index of the last statement in `out` that is not a comment marker."""
    for k in range(len(out) - 1, -1, -1):
        if not isinstance(out[k], Comment):
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


class FuseForward(Pass):
    """Fold the forward sweep's single-use temporaries (the module docstring's example),
    on the typed sweep; provides `fused_forward`: the typed statements rewritten."""
    phase = "typed"
    needs = ("temporaries", "commented")

    def run(self, facts):
        names = facts.names            # (none given: no module's function counts as pure)
        modules = frozenset() if names is None else frozenset({names.name("np"),
                                                               names.name("math")})
        facts.fused_forward = fuse_forward(facts.forward, facts.backward, facts.temporaries,
                                           facts.adjoints, facts.params, facts.commented,
                                           modules)
