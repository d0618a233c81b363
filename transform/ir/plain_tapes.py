"""Where the plain lowering (ir/lower_plain.py) keeps what the forward sweep saves: one
slot per push (by `pair_id`), a name at the top level, else a tape indexed by the
iterations of the loops around the push (docs/ir.md, "Second lowering").

A loop at the top level over a whole range (no trip counter: its count `len(steps)` is
known before it starts) keeps its own pushes in lists allocated before the loop from the
value each saves first (`tape = [h] * n`), except for a name the loop binds before it
saves it (`after`: unbound before the loop, bound once per iteration at the loop body's
top level, saved nowhere else): its value is appended after that assignment
(`tape.append(t)`) and read back one iteration down (`if k > 0: t = tape[k - 1]`), so
no entry is ever an unbound name's (None: untyped for numba).

Every other push in a loop (a nested loop's, a loop over a sequence's, a `while`'s or a
loop with `break`: trip counts known only once the loop has run) goes in a dict keyed by
the iteration indices of its loops, outermost first (`tape_t[k, k_1] = t`), made empty
before the outermost loop and read back by the same key (`t = tape_t[k, k_1]`): a key no
forward iteration wrote is a KeyError, never another iteration's value. A name bound
once in the whole nest, at the top of its loop's body, and unbound before the nest (its
first entry would be None: numba types no such dict) is `after` there too: appended
after its assignment to a list in execution order, its position keyed by the iterations
(`at_t[k, k_1] = len(tape_t)`), and read back one entry down (`at = at_t[k, k_1]; if at
> 0: t = tape_t[at - 1]`): the value before this iteration's assignment, which is an
earlier outer iteration's where this inner loop starts (or ran no iteration at all).
"""
import copy

import gast

from .generated import RruleCall
from .nodes import assign, const, load, store
from .statements import Count, For, Loop, Push, Simple, While

KINDS = ("range", "seq", "enumerate", "zip", "items")   # the `for` headers it walks


class Slot:
    """A push's slot: its `name`, its `loops` (outermost first; () at the top level),
    whether it is `after` and whether it is `keyed` (a dict, not a list); `saved`, the
    pushed expression; `at`, a keyed `after` slot's dict of positions in its list."""

    def __init__(self, name, loops, after=False, keyed=False, saved=None, at=None,
                 logged=False):
        self.name, self.loops, self.after, self.keyed = name, loops, after, keyed
        self.saved, self.at, self.logged = saved, at, logged

    @property
    def loop(self):
        return self.loops[-1] if self.loops else None


class PlainLoop:
    """A forward `for` or `while`: its index `k`, its trip count, its tapes. `steps`: the
    range a loop without trip counter walks (else None); `outer`: the enclosing loop."""

    def __init__(self, names, s, outer):
        self.node, self.outer, self.kind = s.node, outer, "while"
        self.steps = self.items = None
        if isinstance(s, For):
            self.kind, self.seqs = s.iter_kind, list(s.seqs)
            self.target = copy.deepcopy(s.target)
            self.steps = s.iter.id if s.count is None else None
            self.items = names.reserve("items") if self.kind == "items" else None
        self.index = names.reserve("k")
        self.count = names.reserve("n") if s.count is None else s.count
        self.tapes = []                     # the Slots it allocates (outermost loop)
        self.logs = {}                      # name -> its log (every value bound in the nest)
        self.body, self.source = s.body, s

    @property
    def loops(self):
        return (self.outer.loops if self.outer else ()) + (self,)

    @property
    def listed(self):
        """Whether its own pushes go in preallocated lists (a whole range, top level)."""
        return self.steps is not None and self.outer is None

    def lower(self, lowering, s):
        if s.node is self.node:
            return self.forward(lowering, s)
        return self.backward(lowering, s)

    def forward(self, lowering, s):
        """[n = len(steps)]; the tapes; for k, t in enumerate(seq): body (a `while`: its
        index bound after its trip counter's bump)"""
        call = lowering.names.call
        out = [assign(self.count, call("len", load(self.steps)))] if self.listed else []
        for slot in self.tapes:
            if slot.at is not None:             # (a whole range's: one per iteration)
                at = gast.Dict(keys=[], values=[]) if slot.keyed else \
                    gast.BinOp(left=gast.List(elts=[const(0)], ctx=gast.Load()),
                               op=gast.Mult(), right=load(self.count))
                out.append(assign(slot.at, at))
            if slot.logged:
                continue
            if slot.keyed or slot.after:
                empty = gast.List(elts=[], ctx=gast.Load()) if slot.after else \
                    gast.Dict(keys=[], values=[])
                out.append(assign(slot.name, empty))
                continue
            first = gast.List(elts=[copy.deepcopy(slot.saved)], ctx=gast.Load())
            out.append(assign(slot.name, gast.BinOp(left=first, op=gast.Mult(),
                                                    right=load(self.count))))
        out += [assign(log, gast.List(elts=[], ctx=gast.Load()))
                for log in self.logs.values()]
        if isinstance(s, While):                 # n1 += 1 first (lowering/control.py)
            if not (s.body and isinstance(s.body[0], Count)):
                raise lowering.refuse(s, "a `while` loop whose trip counter is not first")
            s.node.body = lowering.loop_body(self, s, True)
            s.node.body.insert(1, assign(self.index, _minus_one(self.count)))
            return out + [s.node]
        s.node.iter = call("enumerate", s.node.iter)
        s.node.target = gast.Tuple(elts=[store(self.index), s.node.target], ctx=gast.Store())
        s.node.body = lowering.loop_body(self, s, True)
        return out + [s.node]

    def backward(self, lowering, s):
        """[n = len(steps)]; for k in range(n - 1, -1, -1): t = <element k>; body"""
        out = []
        if self.steps is not None and self.outer is not None:   # (the outer's iteration's)
            out.append(assign(self.count, lowering.names.call("len", load(self.steps))))
        if self.items is not None:          # a dict's items, listed as the sweep reads them
            items = gast.Call(func=_attribute(self.seqs[0], "items"), args=[], keywords=[])
            out.append(assign(self.items, lowering.names.call("list", items)))
        s.node.iter = lowering.names.call("range", _minus_one(self.count), const(-1),
                                          const(-1))
        header, s.node.target = s.node.target, store(self.index)
        binds = self.binds(header)
        if binds is None:
            raise lowering.refuse(s, "a backward loop header it does not know")
        s.node.body = binds + lowering.loop_body(self, s)
        return out + [s.node]

    def binds(self, header):
        """What the backward header bound: the target from the element at k (and the
        sweep's own index of the element, `k1 = k`, where it walks one); None: unknown."""
        if self.kind == "while":
            return []
        out = []
        if _dump(header) != _dump(self.target):      # `k1, target`: the sweep's index
            if not (isinstance(header, gast.Tuple) and len(header.elts) == 2 and
                    isinstance(header.elts[0], gast.Name) and
                    _dump(header.elts[1]) == _dump(self.target)):
                return None
            out.append(gast.Assign(targets=[header.elts[0]], value=load(self.index),
                                   type_comment=None))
        target = copy.deepcopy(self.target)
        return out + [gast.Assign(targets=[target], value=self.element(), type_comment=None)]

    def element(self):
        k = load(self.index)
        if self.kind == "range":
            step = gast.BinOp(left=k, op=gast.Mult(), right=_attribute(self.seqs[0], "step"))
            start = _attribute(self.seqs[0], "start")
            return gast.BinOp(left=start, op=gast.Add(), right=step)
        if self.kind in ("seq", "items"):
            return _at(self.items or self.seqs[0], k)
        if self.kind == "enumerate":
            start = k if len(self.seqs) == 1 else \
                gast.BinOp(left=load(self.seqs[1]), op=gast.Add(), right=k)
            return gast.Tuple(elts=[start, _at(self.seqs[0], load(self.index))],
                              ctx=gast.Load())
        return gast.Tuple(elts=[_at(seq, load(self.index)) for seq in self.seqs],
                          ctx=gast.Load())

    def key(self):
        """The index of its tapes' entries: `k`, or `(k, k1)` inside another loop."""
        names = [load(loop.index) for loop in self.loops]
        return names[0] if len(names) == 1 else gast.Tuple(elts=names, ctx=gast.Load())


def _minus_one(name):
    return gast.BinOp(left=load(name), op=gast.Sub(), right=const(1))


def _at(name, index):
    return gast.Subscript(value=load(name), slice=index, ctx=gast.Load())


def _attribute(name, attr):
    return gast.Attribute(value=load(name), attr=attr, ctx=gast.Load())


def _dump(node):
    return gast.dump(node).replace("Store()", "Load()")


class TapeSlots:
    """Where each push's entries go (by `pair_id`: a `Slot`), and each loop's PlainLoop."""

    def __init__(self, names, params=()):
        self.names = names
        self.by_pair = {}                   # pair id -> Slot
        self.loops = {}                     # forward node id / steps or count name -> loop
        self.saved_in_loops = set()         # names a loop saves (pushes)
        self.after_names = set()            # names saved after their assignment (`after`)
        self.positions = set()              # names a keyed `after` pop binds first (`at`)
        self.counters = set()               # loop indices and range loops' targets: ints
        self.bound = set(params)            # names bound so far at the top level

    def of(self, pair_id):
        return self.by_pair[pair_id]

    def collect(self, stmts):
        """Give every push of the forward sweep its slot; every loop its PlainLoop."""
        counts = {}
        for s in _walk(stmts):
            if isinstance(s, Push):
                counts[s.value] = counts.get(s.value, 0) + 1
        self._collect(stmts, None, counts, False)
        logged = [slot.saved_name for slot in self.by_pair.values() if slot.logged]
        self.after_names |= {v for v in logged if logged.count(v) == counts[v]}

    def _collect(self, stmts, loop, counts, top):
        for k, s in enumerate(stmts):
            if isinstance(s, Push):
                after = top and self._after(s, stmts[k + 1:], loop, counts)
                self.by_pair[s.pair_id] = self._slot(s, loop, after, self._logs(s, loop, after))
            elif isinstance(s, While) and s.count is not None or isinstance(s, For) and \
                    getattr(s.node, "iter_kind", None) in KINDS:
                inner = self._loop(s, loop)
                self._collect(s.body, inner, counts, True)
            elif hasattr(s, "body") and not isinstance(s, Loop):
                self._collect(s.body, loop, counts, False)
                self._collect(s.orelse, loop, counts, False)
            if loop is None:
                self.bound |= _defined(s)

    def _loop(self, s, outer):
        inner = PlainLoop(self.names, s, outer)
        self.loops[id(s.node)] = self.loops[inner.steps or inner.count] = inner
        self.counters |= {inner.index, inner.count}
        if inner.kind == "range" and isinstance(s.target, gast.Name):
            self.counters.add(s.target.id)
        return inner

    def _after(self, push, rest, loop, counts):
        """Whether a push at the top of `loop`'s body saves a name the loop binds first:
        unbound before the loop, saved once, bound once per iteration, by the simple
        statement after the push (no branch: its value is bound after it)."""
        v = push.value
        following = next((s for s in rest if not isinstance(s, Push)), None)
        return v not in self.bound and counts[v] == 1 and \
            isinstance(following, (Simple, RruleCall)) \
            and v in _defined(following) and \
            sum(v in _own(s) for s in _walk(loop.loops[0].body)) == 1

    def _logs(self, push, loop, after):
        """Whether a push in a loop saves a name unbound before the nest and not `after`
        (bound in a branch, or more than once): its list would start with None. It is
        `logged`: every assignment of it in the nest appends to its log, and the push
        keeps the log's length (the value at the push: the entry one down)."""
        v = push.value
        if loop is None or after or v in self.bound:
            return False
        nest = loop.loops[0]
        headers = set(_own(nest.source))    # (and trip counters: typed `0` stand-ins)
        for s in _walk(nest.body):
            if isinstance(s, Loop):
                headers |= _own(s)
            elif isinstance(s, Count):
                headers.add(s.target)
        return v not in headers

    def _slot(self, s, loop, after, logged=False):
        if logged:
            nest = loop.loops[0]
            if s.value not in nest.logs:
                nest.logs[s.value] = self.names.reserve("log_" + s.value)
            at = self.names.reserve("at_" + s.value)
            slot = Slot(nest.logs[s.value], loop.loops, True, not loop.listed, s.saved, at,
                        logged=True)
            slot.saved_name = s.value       # (no prelude None if every push is logged)
            nest.tapes.append(slot)
            self.saved_in_loops.add(s.value)
            return slot
        name = self.names.reserve("tape_" + s.value)
        if loop is None:
            return Slot(name, ())
        keyed = not loop.listed
        at = self.names.reserve("at_" + s.value) if keyed and after else None
        slot = Slot(name, loop.loops, after, keyed, s.saved, at)
        loop.loops[0].tapes.append(slot)            # made before the nest
        self.saved_in_loops.add(s.value)
        if after:
            self.after_names.add(s.value)
        return slot

    def loop_of(self, s):
        """The PlainLoop of a forward loop, or of the backward loop walking one (its
        header names the range walked again or the trip counter)."""
        found = self.loops.get(id(s.node))
        if found is not None or not isinstance(s, For):
            return found
        names = [n.id for n in gast.walk(s.iter) if isinstance(n, gast.Name)]
        found = [self.loops[n] for n in names if n in self.loops]
        return found[0] if len(found) == 1 else None


def _walk(stmts):
    for s in stmts:
        yield s
        for block in (getattr(s, "body", None), getattr(s, "orelse", None)):
            if block:
                yield from _walk(block)


def _own(s):
    """The names a typed statement binds itself (a loop: its target; a branch: none)."""
    if getattr(s, "body", None) is None:
        return _defined(s)
    target = getattr(s.node, "target", None) if isinstance(s, For) else None
    return {n.id for n in gast.walk(target) if isinstance(n, gast.Name)} if target else set()


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
