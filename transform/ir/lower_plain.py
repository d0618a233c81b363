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
themselves, so `e` has the value the thunk would have forced); a user's lambda stays as
written when it reads no name the function binds (a constant function); `unthunk(v)` stays, a
plain function (a runtime rule may still hand back a deferred cotangent). A call of a
compiled function is split, `t, t_pullback = g_forward(a, b)` and `t_cots =
g_backward(dt, t_pullback)` (the name now holds the callee's saved values, a tuple, in a
tape slot: reverse/plain_split.py); a registered
rule, a method, or a call the split is not shown for stays `t, t_pullback = g_rrule(a,
b)`, the pullback data in a tape slot, called in the backward sweep. The subset: straight-line code, branches, calls, `for`
loops over a `range` or a sequence (a list, an array's rows, enumerate or zip of those:
walked by `enumerate`, read back by index), `while` loops and `break` (read back under
the trip counter), nested (an inner loop's tapes keyed by every enclosing index:
ir/plain_tapes.py); no loop `else`. Anything else is refused with a TransformError at
the user's line that names the construct: never a gradient computed some other way.
"""
import copy

import gast

from .lower_gast import GastLowering
from .lower_generated import _marked
from .nodes import assign, const, free_names, load, operand
from .plain_tapes import PlainLoop, TapeSlots, _defined  # noqa: F401  (plain_rule's)
from .statements import Push
from .typed import _where
from .vocabulary import role_of


class PlainLowering(GastLowering):
    """Typed statements -> gast with no closures; `tapes` the pushes' slots (TapeSlots)."""

    def __init__(self, src, names, slots):
        super().__init__(src, names)
        self.slots = slots
        self.stack = []                     # the PlainLoops around, outermost first
        self.forwards = []                  # for each: whether it is the forward loop
        self.pending = []                   # `after` pushes: appended after the next statement
        self.lambdas = []                   # (names a user's lambda reads, its statement)
        self.splits = {}                    # id(a call's prim) -> its backward half, or None
        self.split_names = set()            # the pullback names a split call binds

    def block(self, stmts):
        out = []
        for s in stmts:
            nodes = self.statement(s)
            for node in nodes:
                _Eager(self, s).visit(node)
            out.extend(nodes)
            out.extend(self.logged(s))
            if not isinstance(s, Push):
                out.extend(self.pending)
                self.pending = []
        return out

    def logged(self, s):
        """`log_v.append(v)` after a forward statement of a loop nest binding a name the
        nest logs (a `logged` slot's: ir/plain_tapes.py), in the order bound."""
        if not (self.forwards and self.forwards[-1]) or getattr(s, "body", None) is not None:
            return []
        logs = self.stack[0].logs
        out = []
        for v in sorted(_defined(s) & set(logs)):
            append = gast.Attribute(value=load(logs[v]), attr="append", ctx=gast.Load())
            out.append(gast.Expr(value=gast.Call(func=append, args=[load(v)], keywords=[])))
        return out

    def check_lambdas(self, lowered, params):
        """Refuse a user's lambda reading a name the function binds (`lowered`, its
        statements, or `params`): only a constant function is kept. (One inlined from a
        nested def reads the def's parameters, `lambda z: z ** power_k`: a derivative
        through `power_k` is not taken by the call's rule, and in one scope a pullback
        calling it would read what the backward sweep restores.)"""
        bound = set(params) | {n.id for node in lowered for n in gast.walk(node)
                               if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
        for names, s in self.lambdas:
            if names & bound:
                raise self.refuse(s, "a lambda reading a local variable "
                                     f"({', '.join(sorted(names & bound))})",
                                  hint="pass the value as an argument, or use the default "
                                       "lowering (lowering='gast')")

    def refuse(self, s, construct, hint="use the default lowering (lowering='gast')"):
        where = _where(getattr(s, "node", s), getattr(s, "prim", None))  # (a loop's: its node's line)
        return self.src.error(f"lowering='plain' does not support {construct}", where,
                              hint=hint)

    # ---- a split callee: its backward half called with the saved values ----
    @_marked
    def lower_CallPullback(self, s):
        call = id(s.prim)
        if call not in self.splits:
            if s.pullback in self.split_names:  # (every CallPullback has its call's prim)
                raise self.refuse(s, f"a split call's pullback {s.pullback} with no call")
            return super().lower_CallPullback(s)
        backward = self.splits[call]
        if backward is None:                # a rule's pullback, called
            return super().lower_CallPullback(s)
        call = gast.Call(func=load(backward), args=[operand(s.cotangent), load(s.pullback)],
                         keywords=[])
        return [assign(s.target, call)]

    # ---- the tape: one slot per push, a list indexed by iteration inside a loop ----
    def lower_TapeStart(self, s):
        return []

    def lower_TapeReader(self, s):
        return []

    def lower_Push(self, s):
        slot = self.slots.of(s.pair_id)
        value = copy.deepcopy(s.saved)
        if slot.loop is None:
            return [assign(slot.name, value)]
        if slot.logged:                     # at_v[k] = len(log_v): v is its last entry
            where = gast.Subscript(value=load(slot.at), slice=self.key(slot),
                                   ctx=gast.Store())
            return [gast.Assign(targets=[where], type_comment=None,
                                value=self.names.call("len", load(slot.name)))]
        if slot.after:                      # tape.append(v), after v's assignment
            if slot.at is not None:         # at_v[k, k1] = len(tape_v): where it goes
                where = gast.Subscript(value=load(slot.at), slice=self.key(slot),
                                       ctx=gast.Store())
                self.pending.append(gast.Assign(targets=[where], type_comment=None,
                                                value=self.names.call("len",
                                                                      load(slot.name))))
            append = gast.Attribute(value=load(slot.name), attr="append", ctx=gast.Load())
            self.pending.append(gast.Expr(value=gast.Call(func=append, args=[value],
                                                          keywords=[])))
            return []
        target = gast.Subscript(value=load(slot.name), slice=self.key(slot),
                                ctx=gast.Store())
        return [gast.Assign(targets=[target], value=value, type_comment=None)]

    def lower_Pop(self, s):
        slot = self.slots.of(s.pair_id)
        if slot.loops != tuple(self.stack):
            raise self.refuse(s, "a value saved inside a loop and read back outside it")
        if slot.loop is None:
            return [assign(s.target, load(slot.name))]
        if not slot.after:
            return [assign(s.target, gast.Subscript(value=load(slot.name),
                                                    slice=self.key(slot), ctx=gast.Load()))]
        index, out = slot.loop.index, []
        if slot.at is not None:             # the entry before this iteration's (or the push's)
            index = self.names.reserve("at")
            self.slots.positions.add(index)     # (bound here before read: no prelude entry)
            out.append(assign(index, gast.Subscript(value=load(slot.at), slice=self.key(slot),
                                                    ctx=gast.Load())))
        down = gast.BinOp(left=load(index), op=gast.Sub(), right=const(1))
        read = assign(s.target, gast.Subscript(value=load(slot.name), slice=down,
                                               ctx=gast.Load()))
        test = gast.Compare(left=load(index), ops=[gast.Gt()], comparators=[const(0)])
        return out + [gast.If(test=test, body=[read], orelse=[])]   # (the first: unbound)

    def key(self, slot):
        """Where a slot's entry for this iteration is: `k` (a list) or `k, k1` (a dict)."""
        return slot.loop.key() if slot.keyed else load(slot.loop.index)

    def lower_While(self, s):
        if s.orelse:
            raise self.refuse(s, "a `while` loop with an `else`")
        loop = self.slots.loop_of(s)
        if loop is None:                    # (inside a loop it does not take)
            raise self.refuse(s, "a `while` loop here")
        return loop.lower(self, s)

    def lower_For(self, s):
        if s.orelse:
            raise self.refuse(s, "a `for` loop with an `else`")
        loop = self.slots.loop_of(s)
        if loop is None:                    # (every header stage 4 makes has one)
            raise self.refuse(s, "a `for` loop over this iterable")
        return loop.lower(self, s)

    def lower_Control(self, s):
        s.node.body = self.block(s.body) or [gast.Pass()]
        s.node.orelse = self.block(s.orelse)
        return [s.node]

    def loop_body(self, loop, s, forward=False):
        """The typed body of a loop lowered inside `loop` (a PlainLoop)."""
        self.stack.append(loop)
        self.forwards.append(forward)
        try:
            return self.block(s.body) or [gast.Pass()]
        finally:
            self.stack.pop()
            self.forwards.pop()


class _Eager(gast.NodeTransformer):
    """Thunk(lambda a=a: e) -> e; a thunk of another form is refused. A lambda the user
    wrote stays as written, a constant function (stage 3 keeps one that reads only its
    parameters and globals, lowering/functions_as_values.py); the names it reads are
    noted, and `check_lambdas` refuses one that reads a local after all.
    (`unthunk(v)` stays: a plain function, which forces what a runtime rule may still
    return deferred.)"""

    def __init__(self, lowering, statement):
        self.lowering, self.statement = lowering, statement

    def visit_Call(self, node):
        role = role_of(node.func)
        if role == "Thunk" and len(node.args) == 1 and _captures_itself(node.args[0]):
            return self.visit(node.args[0].body)
        if role == "Thunk":
            raise self.lowering.refuse(self.statement, "a deferred value (a Thunk closure)")
        return self.generic_visit(node)

    def visit_Lambda(self, node):
        at = node if getattr(node, "lineno", None) is not None else self.statement
        self.lowering.lambdas.append((free_names(node), at))
        return node                         # the user's constant function, kept as written


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

