"""Fuse's rules (fuse.py) on the typed pullback body, before it is lowered (session 38):
the same decisions read off the typed statements, the folds made in their fields.

    Accumulate(dt3, g * W, "set")                Accumulate(dx, (g * W) * 2, "sum")
    Accumulate(dx, dt3 * 2, "sum")       ->
    Accumulate(dt4, g + 1, "set")                CallPullback(t4_cots, t4_pullback, g + 1)
    CallPullback(t4_cots, t4_pullback, dt4)

A definition is an `Accumulate` "set" or a `Bind` of a pure expression; a fold goes into
the operands of the lowered value (an accumulation's value, a callee pullback's
cotangent, a spread's fields, a batched product's arguments, a kept node's value), and
`d = e1; d = d + e2` becomes the untyped `d = e1 + e2` (an `Emitted` node, as the gast
pass left it unmarked). Counted as the lowered rrule counts (copies._Pullback).
"""
import gast

from ..ir.generated import (AddProduct, Bind, CallPullback, Comment, Generated,
                            ListCotangent, ProductSum, Reset, ReuseBuffer, Scale, SliceAdd,
                            Spread, ZeroBuffer)
from ..ir.nodes import assign, name_ids
from ..ir.statements import Accumulate, Control, Emitted, Pop, Push
from .copies import _Pullback
from .passes import Pass
from .fuse import MAX_FOLDS, _PURE_HELPERS, _can_pass, _inline, _pure
from . import typed_views as view

# the operand fields of the lowered value (`d = helper(...)`, `d = pb(...)`), by class
_OPERANDS = {CallPullback: ("pullback", "cotangent"), Spread: ("buffer", "like", "index",
             "value"), SliceAdd: ("value",), Bind: ("value",), ZeroBuffer: ("like",),
             ListCotangent: ("target", "like"), ReuseBuffer: ("target", "like"),
             ProductSum: ("like",), Scale: ("factor",), AddProduct: ("args",)}
_HELPERS = {ZeroBuffer: "cotangent_zeros", ProductSum: "MatmulLhsSum"}


def fuse_pullback(backward, forward, temporaries, adjoints, params, modules):
    """Fold the foldable temporaries of the typed pullback body (in place); returns the
    typed statements rewritten."""
    pullback = _Pullback(backward, adjoints, params)
    counts = pullback.mentions({})
    for s in forward:
        view.count(s, counts)
    folder = _Folder({n for n in temporaries if counts.get(n) == 2}, modules)
    folder.block(backward)
    return folder.rewritten


def _parts(s):
    """[(getter, setter)] of the operands of s's lowered value, or None (no value)."""
    if isinstance(s, Accumulate) and s.node is None:
        return [(lambda: s._value, lambda v: setattr(s, "_value", v))]
    if isinstance(s, Generated) and s.node is None:
        fields = _OPERANDS.get(type(s))
        if fields is None:
            return None
        return [(lambda f=f: s.__dict__["_" + f] if "_" + f in s.__dict__ else s.__dict__[f],
                 lambda v, f=f: _set(s, f, v)) for f in fields]
    node = s.node
    if isinstance(node, (gast.Assign, gast.AugAssign, gast.Return)) and node.value is not None \
            and not isinstance(s, Control):
        return [(lambda: node.value, lambda v: setattr(node, "value", v))]
    return None


def _set(s, field, value):
    s.__dict__["_" + field if "_" + field in s.__dict__ else field] = value


def _loads(parts):
    found = set()
    for get, _ in parts:
        value = get()
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str):
                found.add(v)
            elif isinstance(v, gast.AST):
                name_ids(v, gast.Load, found)
    return found


def _fold(parts, name, value):
    for get, put in parts:
        old = get()
        if isinstance(old, list):
            for k, v in enumerate(old):
                old[k] = value if v == name else v if isinstance(v, str) else _inline(v, name, value)
        elif old == name:
            put(value)
        elif isinstance(old, gast.AST):
            put(_inline(old, name, value))


class _Folder:
    def __init__(self, foldable, modules):
        self.foldable, self.modules = foldable, modules
        self.folds, self.rewritten, self.seen = {}, [], set()

    def block(self, block):
        out = []
        for s in block:
            if isinstance(s, Control):
                for body in (s.body, s.orelse):
                    if body:
                        self.block(body)
            parts = _parts(s)
            if parts is not None:
                s = self.pull_in(out, s)
                k = _previous(out)
                if k is not None and self.extends(out[k], s) and \
                        self.folded(s, out[k]) <= MAX_FOLDS:
                    folds = self.folded(s, out[k])
                    merged = out.pop(k)
                    s = Emitted(assign(s.target, gast.BinOp(left=_value(merged), op=gast.Add(),
                                                            right=s._value)))
                    self.folds[id(s)] = folds
                    self.mark(s)
                    s = self.pull_in(out, s)
            out.append(s)
        block[:] = out

    def folded(self, s, p):
        return self.folds.get(id(s), 0) + self.folds.get(id(p), 0) + 1

    def mark(self, s):
        if id(s) not in self.seen:
            self.seen.add(id(s))
            self.rewritten.append(s)

    def pull_in(self, out, s):
        parts = _parts(s)
        wanted = _loads(parts) & self.foldable
        rebound = set()
        for k in range(len(out) - 1, -1, -1):
            if not wanted:
                break
            p = out[k]
            name = self.defined(p)
            value_loads = name_ids(_value(p), gast.Load) if name else None
            if name in wanted and not (value_loads & rebound):
                folds = self.folded(s, p)
                if folds > MAX_FOLDS:
                    break
                _fold(parts, name, _value(p))
                self.mark(s)
                self.folds[id(s)] = folds
                wanted = (wanted - {name}) | (value_loads & self.foldable)
                out.pop(k)
                continue
            if not self.passable(p):
                break
            rebound |= view.stores(p)
        return s

    def defined(self, p):
        """The foldable temporary p defines (`t = e`, e pure), else None."""
        if isinstance(p, Accumulate) and p.node is None and p.mode == "set" or \
                isinstance(p, Bind) and p.node is None:
            target, value = p.target, _value(p)
        elif isinstance(p, (Emitted, Control, Generated, Accumulate)) or p.node is None:
            return None
        elif isinstance(p.node, gast.Assign) and len(p.node.targets) == 1 and \
                isinstance(p.node.targets[0], gast.Name):
            target, value = p.node.targets[0].id, p.node.value
        else:
            return None
        return target if target in self.foldable and _pure(value, self.modules) else None

    def extends(self, p, s):
        """`a = e1` (set) right before `a = a + e2` (sum), e1 pure, a not in e2."""
        return isinstance(s, Accumulate) and s.node is None and s.mode == "sum" and \
            isinstance(p, Accumulate) and p.node is None and p.mode == "set" and \
            p.target == s.target and s.target not in name_ids(s._value, gast.Load) and \
            _pure(p._value, self.modules)

    def passable(self, p):
        """What a pure expression may move past, as fuse._can_pass on the lowered p."""
        if isinstance(p, (Pop, Push, Comment)):
            return True
        if isinstance(p, Accumulate) and p.node is None:
            helper = {"set": None, "sum": None, "own": "own"}.get(p.mode, p.mode)
            return p.mode != "in_place" and (helper is None or helper in _PURE_HELPERS) \
                and _pure(p._value, self.modules)
        if isinstance(p, Reset) and p.node is None:
            return True
        if isinstance(p, Bind) and p.node is None:
            return _pure(p._value, self.modules)
        if isinstance(p, (ZeroBuffer, ProductSum)) and p.node is None:
            return _HELPERS[type(p)] in _PURE_HELPERS and \
                (isinstance(p.like, str) or _pure(p.like, self.modules))
        if isinstance(p, (Generated, Control)) or p.node is None:
            return False
        return _can_pass(p.node, self.modules)


def _value(p):
    if isinstance(p, (Accumulate, Bind)) and p.node is None:
        return p._value
    return p.node.value


def _previous(out):
    for k in range(len(out) - 1, -1, -1):
        if not isinstance(out[k], Comment):
            return k
    return None


class FusePullback(Pass):
    """Fuse's folds in the typed pullback body (FuseForward then folds the forward
    sweep's); provides `fused`: the typed statements rewritten."""
    phase = "typed"
    needs = ("temporaries",)

    def run(self, facts):
        names = facts.names            # (none given: no module's function counts as pure)
        modules = frozenset() if names is None else frozenset({names.name("np"),
                                                               names.name("math")})
        facts.fused = fuse_pullback(facts.backward, facts.forward, facts.temporaries,
                                    facts.adjoints, facts.params, modules)

