"""Where the plain lowering (ir/lower_plain.py) keeps what the forward sweep saves: one
slot per push (by `pair_id`), a name at the top level, a list inside a range loop.

A list is indexed by iteration and allocated before the loop from the value it saves
first (`tape = [h] * n`), except for a name the loop binds before it saves it
(`after`: unbound before the loop, bound once per iteration at the loop body's top
level, saved nowhere else): its value is appended after that assignment
(`tape.append(t)`) and read back one iteration down (`if k > 0: t = tape[k - 1]`), so
no entry is ever an unbound name's (None: untyped for numba).
"""
import copy

import gast

from .generated import RruleCall
from .nodes import assign, const, load, store
from .statements import For, Loop, Push, Simple
from .vocabulary import role_of


class Slot:
    """A push's slot: its `name`, its PlainLoop (or None) and whether it is `after`."""

    def __init__(self, name, loop, after=False):
        self.name, self.loop, self.after = name, loop, after


class PlainLoop:
    """A forward `for t in steps:` over a range: its index, its trip count, its tapes."""

    def __init__(self, names, node, steps):
        self.node, self.steps = node, steps
        self.index, self.count = names.reserve("k"), names.reserve("n")
        self.tapes = []                     # the slots pushed inside it

    def lower(self, lowering, s):
        if s.node is self.node:
            return self.forward(lowering, s)
        return self.backward(lowering, s)

    def forward(self, lowering, s):
        """n = len(steps); tape = [v] * n, ...; for k, t in enumerate(steps): body"""
        call = lowering.names.call
        out = [assign(self.count, call("len", load(self.steps)))]
        for tape, saved, after in self.tapes:
            if after:
                out.append(assign(tape, gast.List(elts=[], ctx=gast.Load())))
                continue
            first = gast.List(elts=[copy.deepcopy(saved)], ctx=gast.Load())
            out.append(assign(tape, gast.BinOp(left=first, op=gast.Mult(),
                                               right=load(self.count))))
        s.node.iter = call("enumerate", load(self.steps))
        s.node.target = gast.Tuple(elts=[store(self.index), s.node.target], ctx=gast.Store())
        s.node.body = lowering.loop_body(self.index, s)
        return out + [s.node]

    def backward(self, lowering, s):
        """for k in range(n - 1, -1, -1): t = steps.start + k * steps.step; body"""
        last = gast.BinOp(left=load(self.count), op=gast.Sub(), right=const(1))
        s.node.iter = lowering.names.call("range", last, const(-1), const(-1))
        target, s.node.target = s.node.target, store(self.index)
        step = gast.BinOp(left=load(self.index), op=gast.Mult(), right=_attribute(self.steps,
                                                                                  "step"))
        element = gast.BinOp(left=_attribute(self.steps, "start"), op=gast.Add(), right=step)
        bind = gast.Assign(targets=[target], value=element, type_comment=None)
        s.node.body = [bind] + lowering.loop_body(self.index, s)
        return [s.node]


def _attribute(name, attr):
    return gast.Attribute(value=load(name), attr=attr, ctx=gast.Load())


class TapeSlots:
    """Where each push's entries go (by `pair_id`: a `Slot`), and each range loop's index."""

    def __init__(self, names, params=()):
        self.names = names
        self.by_pair = {}                   # pair id -> Slot
        self.loops = {}                     # forward For node id / steps name -> PlainLoop
        self.saved_in_loops = set()         # names a loop saves (pushes)
        self.after_names = set()            # names saved after their assignment (`after`)
        self.counters = set()               # loop indices and range loops' targets: ints
        self.bound = set(params)            # names bound so far at the top level

    def of(self, pair_id):
        return self.by_pair[pair_id]

    def collect(self, stmts):
        """Give every push of the forward sweep its slot; every range loop its index."""
        counts = {}
        for s in _walk(stmts):
            if isinstance(s, Push):
                counts[s.value] = counts.get(s.value, 0) + 1
        self._collect(stmts, None, counts, False)

    def _collect(self, stmts, loop, counts, top):
        for k, s in enumerate(stmts):
            if isinstance(s, Push):
                after = top and self._after(s, stmts[k + 1:], loop, counts)
                self.by_pair[s.pair_id] = Slot(self._slot(s, loop, after), loop, after)
            elif isinstance(s, For) and loop is None and _over_range(s):
                self._collect(s.body, self._loop(s), counts, True)
            elif hasattr(s, "body") and not isinstance(s, Loop):
                self._collect(s.body, loop, counts, False)
                self._collect(s.orelse, loop, counts, False)
            if loop is None:
                self.bound |= _defined(s)

    def _loop(self, s):
        inner = PlainLoop(self.names, s.node, s.iter.id)
        inner.body = s.body
        self.loops[id(s.node)] = self.loops[s.iter.id] = inner
        self.counters.add(inner.index)
        if isinstance(s.target, gast.Name):
            self.counters.add(s.target.id)
        return inner

    def _after(self, push, rest, loop, counts):
        """Whether a push at the top of `loop`'s body saves a name the loop binds first:
        unbound before the loop, saved once, bound once per iteration, by the simple
        statement after the push (no branch: its value is bound after it)."""
        v = push.value
        following = next((s for s in rest if not isinstance(s, Push)), None)
        return v not in self.bound and counts[v] == 1 and isinstance(following, Simple) \
            and v in _defined(following) and \
            sum(v in _defined(s) for s in _walk(loop.body)) == 1

    def _slot(self, s, loop, after):
        name = self.names.reserve("tape_" + s.value)
        if loop is not None:
            loop.tapes.append((name, s.saved, after))
            self.saved_in_loops.add(s.value)
        if after:
            self.after_names.add(s.value)
        return name

    def loop_of(self, s):
        """The PlainLoop of a forward range loop, or of the backward loop walking one."""
        found = self.loops.get(id(s.node))
        if found is not None:
            return found
        it = s.iter
        if isinstance(it, gast.Call) and role_of(it.func) == "reversed" and \
                len(it.args) == 1 and isinstance(it.args[0], gast.Name):
            return self.loops.get(it.args[0].id)
        return None


def _walk(stmts):
    for s in stmts:
        yield s
        for block in (getattr(s, "body", None), getattr(s, "orelse", None)):
            if block:
                yield from _walk(block)


def _defined(s):
    """Every name a typed statement (its loops' and branches' bodies too) binds; a
    call's `t, t_pullback = g_rrule(...)` (not lowered yet: no node) binds both."""
    names = set()
    for t in _walk([s]):
        if isinstance(t, RruleCall):
            names |= {t.built("target"), t.built("pullback")}
        node = getattr(t, "node", None)
        targets = node.targets if isinstance(node, gast.Assign) else \
            [node.target] if isinstance(node, (gast.AugAssign, gast.For)) else []
        for target in targets:
            names |= {n.id for n in gast.walk(target) if isinstance(n, gast.Name)}
    return names


def _over_range(s):
    return s.iter_kind == "range" and s.count is None and isinstance(s.iter, gast.Name)
