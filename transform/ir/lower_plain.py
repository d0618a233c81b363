"""The plain lowering (issue 20's second lowering): the typed sweeps as one function with
no closures, no thunks, no `del`, and tapes read by index (docs/ir.md, "Second lowering").

    for i in steps1:                     n1 = len(steps1)
        tape.append(h)          ->       tape_h = [h] * n1
        h = np.tanh(...)                 for k1, i in enumerate(steps1):
                                             tape_h[k1] = h
    for i in reversed(steps1):               h = np.tanh(...)
        ...                              for k1 in range(n1 - 1, -1, -1):
        h = pop()                            i = steps1.start + k1 * steps1.step
                                             ...
                                             h = tape_h[k1]

A tape is allocated from the value it saves first (its type, for a compiler that types
a list by its entries: numba); the loop's element is computed from the range (numba has
no `range[k]`).

A `Thunk(lambda a=a: e)` becomes `e` (computed at once: its defaults are the names
themselves, so `e` has the value the thunk would have forced); `unthunk(v)` stays, a
plain function (a runtime rule may still hand back a deferred cotangent). The subset:
straight-line code, `for` loops over a `range` (one level, no `break`, no `else`),
branches. Anything else is refused with a TransformError at the user's line
that names the construct: never a gradient computed some other way.
"""
import copy

import gast

from .lower_gast import GastLowering
from .nodes import assign, const, load, store
from .statements import For, Push, Loop
from .typed import _where
from .vocabulary import role_of


class PlainLowering(GastLowering):
    """Typed statements -> gast with no closures; `tapes` the pushes' slots (TapeSlots)."""

    def __init__(self, src, names, slots):
        super().__init__(src, names)
        self.slots = slots
        self.index = None                   # the enclosing loop's iteration index name

    def block(self, stmts):
        out = []
        for s in stmts:
            nodes = self.statement(s)
            for node in nodes:
                _Eager(self, s).visit(node)
            out.extend(nodes)
        return out

    def refuse(self, s, construct, hint="use the default lowering (lowering='gast')"):
        where = _where(s, getattr(s, "prim", None))
        return self.src.error(f"lowering='plain' does not support {construct}", where,
                              hint=hint)

    # ---- the tape: one slot per push, a list indexed by iteration inside a loop ----
    def lower_TapeStart(self, s):
        return []

    def lower_TapeReader(self, s):
        return []

    def lower_Push(self, s):
        name, loop = self.slots.of(s.pair_id)
        value = copy.deepcopy(s.saved)
        if loop is None:
            return [assign(name, value)]
        target = gast.Subscript(value=load(name), slice=load(self.index), ctx=gast.Store())
        return [gast.Assign(targets=[target], value=value, type_comment=None)]

    def lower_Pop(self, s):
        name, loop = self.slots.of(s.pair_id)
        if (loop is None) != (self.index is None):
            raise self.refuse(s, "a value saved inside a loop and read back outside it")
        value = load(name) if loop is None else \
            gast.Subscript(value=load(name), slice=load(self.index), ctx=gast.Load())
        return [assign(s.target, value)]

    # ---- no closures ------------------------------------------------------------------
    def lower_RruleCall(self, s):
        raise self.refuse(s, "a call of a compiled function or a custom rule (its "
                          "pullback is a closure)", hint="inline the callee, or use the "
                          "default lowering (lowering='gast')")

    def lower_CallPullback(self, s):
        raise self.refuse(s, "a callee's pullback (a closure)")

    def lower_While(self, s):
        raise self.refuse(s, "a `while` loop", hint="write it as `for i in range(n)`, or "
                          "use the default lowering (lowering='gast')")

    def lower_For(self, s):
        if s.orelse:
            raise self.refuse(s, "a `for` loop with an `else`")
        if self.index is not None:
            raise self.refuse(s, "a nested loop")
        loop = self.slots.loop_of(s)
        if loop is None:
            raise self.refuse(s, "a `for` loop over anything but range(...) (or one "
                              "with `break`)")
        return loop.lower(self, s)

    def lower_Control(self, s):
        s.node.body = self.block(s.body) or [gast.Pass()]
        s.node.orelse = self.block(s.orelse)
        return [s.node]

    def loop_body(self, index, s):
        """The typed body of a loop lowered with `index` as its iteration index."""
        self.index = index
        try:
            return self.block(s.body) or [gast.Pass()]
        finally:
            self.index = None


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
        for tape, saved in self.tapes:
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
    """Where each push's entries go (by `pair_id`): a name, or a list per loop."""

    def __init__(self, names):
        self.names = names
        self.by_pair = {}                   # pair id -> (slot name, PlainLoop or None)
        self.loops = {}                     # forward For node id / steps name -> PlainLoop
        self.saved_in_loops = set()         # names a loop saves (pushes)
        self.counters = set()               # loop indices and range loops' targets: ints

    def of(self, pair_id):
        return self.by_pair[pair_id]

    def collect(self, stmts, loop=None):
        """Give every push of the forward sweep its slot; every range loop its index."""
        for s in stmts:
            if isinstance(s, Push):
                self.by_pair[s.pair_id] = (self._slot(s, loop), loop)
            elif isinstance(s, For) and loop is None and _over_range(s):
                inner = PlainLoop(self.names, s.node, s.iter.id)
                self.loops[id(s.node)] = self.loops[s.iter.id] = inner
                self.counters.add(inner.index)
                if isinstance(s.target, gast.Name):
                    self.counters.add(s.target.id)
                self.collect(s.body, inner)
            elif isinstance(s, Loop):
                continue                    # refused when lowered
            elif hasattr(s, "body"):
                self.collect(s.body, loop)
                self.collect(s.orelse, loop)

    def _slot(self, s, loop):
        name = self.names.reserve("tape_" + s.value)
        if loop is not None:
            loop.tapes.append((name, s.saved))
            self.saved_in_loops.add(s.value)
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


def _over_range(s):
    return s.iter_kind == "range" and s.count is None and isinstance(s.iter, gast.Name)


class _Eager(gast.NodeTransformer):
    """Thunk(lambda a=a: e) -> e; any other lambda is refused. (`unthunk(v)` stays: a
    plain function, which forces what a runtime rule may still return deferred.)"""

    def __init__(self, lowering, statement):
        self.lowering, self.statement = lowering, statement

    def visit_Call(self, node):
        role = role_of(node.func)
        if role == "Thunk" and len(node.args) == 1 and _captures_itself(node.args[0]):
            return self.visit(node.args[0].body)
        return self.generic_visit(node)

    def visit_Lambda(self, node):
        raise self.lowering.refuse(self.statement, "a lambda (a closure)")


def _captures_itself(fn):
    """`lambda a=a, b=list(b): e`: every parameter's default is its own name's value."""
    if not isinstance(fn, gast.Lambda) or fn.args.vararg or fn.args.kwarg or \
            fn.args.kwonlyargs or len(fn.args.defaults) != len(fn.args.args):
        return False
    for param, default in zip(fn.args.args, fn.args.defaults):
        if isinstance(default, gast.Call) and role_of(default.func) == "list":
            default = default.args[0] if len(default.args) == 1 else None
        if not (isinstance(default, gast.Name) and default.id == param.id):
            return False
    return True

