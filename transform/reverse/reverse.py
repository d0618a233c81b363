"""Stage 6, reverse: the forward sweep (primal + tape pushes) and the backward sweep.

    def f(W, x):                       def f_rrule(W, x):
        z = W @ x                          z = W @ x
        return np.sum(z)         ->        y = np.sum(z)
                                           def pullback(dy):
                                               dz = Thunk(lambda dy=dy, z=z: unreduce(dy, z))
                                               dW = Thunk(lambda dz=dz, ...: matmul_lhs(...))
                                               return (dW,)
                                           return y, pullback

The backward sweep runs in the forward's namespace: a value the forward overwrites is
pushed before the overwrite and popped after its adjoint (restore discipline).
"""
import operator

import gast

from ..ir import generated as gen
from ..ir import statements as ir
from ..ir import templates
from ..analysis.activity import defined, needed_names, pullback_name, target_names
from .backward_lists import ListEmitter, appended_lists, packed_sequences
from .backward_loops import LoopEmitter
from ..analysis.accumulation import Form
from ..ir.nodes import assign, const, load, thunk_of
from ..analysis.shapes import shape_of
from .fresh_buffers import fresh_array, moved, owned_cuts
from .rule_terms import rule_call_values
from .slice_adds import (adds_in_place, axes_view, fills_index, slice_add,
                         split_written_out)


class Reverser:
    """The two sweeps over a normalized body; loops and list building by its parts."""

    def __init__(self, ctx, typed):
        self.ctx = ctx                 # Compilation: names, activity, saved, policy...
        self.lists = appended_lists(typed)   # names certainly bound to lists
        self.sequences = self.lists | packed_sequences(typed)   # lists and tuples, at times
        self.restored_lists = set()          # lists the backward sweep reads
        if self.lists:
            read = needed_names(typed, ctx.activity, ctx.shapes)
            self.restored_lists = self.lists & (read[0] | read[1])
        self.act = ctx.activity
        self.saved = ctx.saved | ctx.shape_saved
        self.lp = ctx.loop_pass
        self.loops = []                # enclosing loops (innermost last), for crossing
        self.forward_depth = 0         # loops around the forward statement being emitted
        self.maybe_read = set()
        self.seed = None               # (the seed's name, its Form): build_sweeps'
        self.entries = set()           # ids of contributions that may be lists of entries
        self.moves = set()             # ids of copies' cotangents whose buffer moves
        self.pairs = {}                # (id of a statement, name) -> its push and pop's id
        self.call = ctx.names.call      # calls of the compiler's vocabulary (marked nodes)
        self.loop_sweep = LoopEmitter(self)     # `for` and `while`, backward
        self.list_sweep = ListEmitter(self)     # appends and extends, backward; list copies

    # ---- forward ----------------------------------------------------------
    def forward(self, block):
        """The forward sweep of typed statements (ir/statements.py): the statements
        with tape pushes (`ir.Push`) before overwrites, rrule calls and copies
        (ir/generated.py), typed still."""
        out = []
        for s in block:
            out.extend(self.forward_stmt(s))
        return out

    def forward_stmt(self, s):
        match s:
            case ir.Simple(node=gast.Assign()):
                return [_typed(n, s) for n in self.forward_assign(s)]
            case ir.If():
                s.body = self.forward(s.body) or [ir.Pass(gast.Pass())]
                s.orelse = self.forward(s.orelse)
            case ir.For() | ir.While():
                self.forward_depth += 1
                s.body = self.forward(s.body)
                self.forward_depth -= 1
                if isinstance(s, ir.For):
                    pushes = [self.push(n, s.node, "the loop rebinds it")
                              for n in target_names(s.target) if n in self.saved]
                    return pushes + [s]
            case ir.Return():
                pullback = self.ctx.names.ref("pullback")
                pair = gast.Tuple(elts=[s.value, pullback], ctx=gast.Load())
                return [ir.Return(gast.Return(value=pair))]
        return [s]

    def forward_assign(self, st):
        """An assignment's forward form: pushes (typed), the statement (a call's rule call)."""
        s = st.node
        names = defined(st)[0]
        first = id(s) in self.ctx.first_defs
        pushes = [self.push(n, st.node) for n in names if n in self.saved and not first]
        if isinstance(st, (ir.Custom, ir.Call)) and self.act.is_active(st.target):
            pb = pullback_name(st)
            if pb in self.saved and not first:
                pushes.append(self.push(pb, st.node))
            s = self.rule_call(s, names[0], pb)
        if isinstance(st, ir.SetItem) and self.reads_old(names[0]):
            # the backward sweep reads the old array: write into a copy
            pushes.append(gen.CopyBeforeStore(names[0]))
        if names and names[0] in getattr(self.ctx, "owned_views", ()):
            # a view of an array a later element store changes: keep its own copy
            return pushes + [s, gen.Unview(names[0])]
        return pushes + [s]

    def reads_old(self, name):
        """Whether the backward sweep reads the array a store into `name` changes: its
        old value, or, for a name a swap exchanged (`u, un = un, u`), any swapped
        name's, which may be that same array (alias/swaps.py)."""
        if name in self.ctx.saved or name in getattr(self.ctx, "aliased_stores", ()):
            return True
        swapped = getattr(self.ctx.src, "swapped", ())
        return name in swapped and bool(swapped & self.ctx.saved)

    def pair_id(self, node, name):
        """The id the push of `name` at statement `node` (a user's statement or loop)
        and the pop restoring it share: one per pair, whichever sweep asks first."""
        return self.pairs.setdefault((id(node), name), len(self.pairs) + 1)

    def push(self, name, node, why="overwritten next, read by the backward sweep"):
        """`tape.append(name)` (an `ir.Push`) with an end-of-line comment saying why."""
        self.ctx.uses_tape = True
        append = gast.Attribute(value=self.ctx.names.ref("tape"), attr="append",
                                ctx=gast.Load())
        value = load(name)
        if name in self.ctx.shape_saved:      # the backward sweep reads only its shape
            value = self.call("shape_only", value)
            why = "only its shape is read back"
        stmt = gast.Expr(value=gast.Call(func=append, args=[value], keywords=[]))
        return ir.Push(stmt, self.ctx.end_comment(f"save {name}: {why}"),
                       self.pair_id(node, name))

    def pop(self, name, node):
        """`name = pop()`, an `ir.Pop` (its push's pair_id)."""
        return ir.Pop(assign(name, self.call("pop")), self.pair_id(node, name))

    def rule_call(self, s, target, pb):
        """`t = f(a, b)` becomes `t, t_pullback = f_rrule(a, b)` (a `gen.RruleCall`)."""
        rule_name = self.ctx.rule_global(s.prim, in_loop=self.forward_depth > 0, call=s.value)
        args, keywords = s.value.args, s.value.keywords
        if rule_name in self.ctx.split_backward:     # a split forward half: by position
            args, keywords = self.ctx.split_arguments(s.prim, s.value), []
        elif getattr(s.prim, "method", None):
            args = [s.prim.receiver] + args
        elif getattr(s.prim, "receiver_first", False):   # x.m(a) mapped to fn(x, a)
            args = [s.value.func.value] + args
        return gen.RruleCall(target, pb, rule_name, args, keywords, s.prim,
                             s.origin_line)

    # ---- backward ---------------------------------------------------------
    def backward(self, block, state):
        out = []
        for s in reversed(block):
            out.extend(self.backward_stmt(s, state))
        return out

    def backward_stmt(self, s, state):
        """The backward sweep's typed statements for one typed statement."""
        match s:
            case ir.Simple(node=gast.Assign()):
                return self.backward_assign(s, state)
            case ir.Append():
                return self.list_sweep.backward_append(s, state)
            case ir.If():
                return self.backward_if(s, state)
            case ir.For() | ir.While():
                return self.loop_sweep.backward_loop(s, state)
        return []

    def backward_assign(self, st, state):
        s = st.node
        names = defined(st)[0]
        out = []
        target = names[0] if names else None
        if target is not None and self.act.is_active(target):
            out.extend(self.adjoint_of(st, target, state))
        first = id(s) in self.ctx.first_defs
        for name in reversed(names):
            if name in self.saved and not first:
                out.append(self.pop(name, s))
        if isinstance(st, (ir.Custom, ir.Call)) and target:
            pb = pullback_name(st)
            if pb in self.saved and self.act.is_active(target) and not first:
                popped = sum(n in self.saved for n in names)
                out.insert(len(out) - popped, self.pop(pb, s))
        return out

    def adjoint_of(self, st, target, state):
        """Comment, contributions to active inputs, reset of the target's adjoint."""
        s = st.node
        d = self.ctx.adjoint(target)
        form = state.form(d)
        inputs = self.act.active_inputs(s.prim)
        reassigned = self.ctx.assign_count(target) > 1
        out = [gen.Comment(self.ctx.comment(s))]
        if form.thunk and form.nullable and inputs:
            # a thunk that may evaluate to zero: force it so the None guard below sees it
            out.append(gen.Unthunk(d))
            form = state[d] = Form("maybe", False, form.owned)
        if form.zero == "yes" or not inputs:
            if reassigned and form.zero != "yes":
                out.append(gen.Reset(d))
                state[d] = Form()
            return out if len(out) > 1 else []
        if form.zero == "maybe":
            self.maybe_read.add(d)
            before = state.copy()
            state[d] = Form("no", form.thunk, form.owned)
            body = self.contributions(st, target, d, inputs, state)
            body = [gen.typed_if(gen.not_none(d), body)]
            self.join_into(state, before)
        else:
            body = self.contributions(st, target, d, inputs, state)
        out.extend(body)
        if reassigned and not any(a == target for _, a in inputs):
            out.append(gen.Reset(d))
            state[d] = Form()
        return out

    def contributions(self, st, target, d, inputs, state):
        """The contributions of a typed assignment to its active inputs' adjoints."""
        s, prim = st.node, st.prim
        g = self.lp.cotangent(d, state.form(d), bool(self.loops))
        values = []         # (input, value, computed here?, may be a Thunk?, may be None?, numeric?)
        view = axes_view(self, prim, g) if prim.fn is operator.getitem and inputs else None
        if view is not None:                    # `q[:, None, :]`: g[:, 0, :]
            return self.accumulate([(inputs[0][1], view[0], True, False, view[1], True)],
                                   target, d, state)
        if isinstance(st, ir.RuleCall) and prim.fn is operator.getitem and \
                adds_in_place(self, inputs, state, prim.inputs["index"]):
            return slice_add(self, inputs[0][1], prim.inputs["index"], g, state)
        if prim.cuts is not None:           # slices of g to each part (analysis/joins.py)
            values = owned_cuts(self, prim.cuts, g, state.form(d), target)
            return self.accumulate(values, target, d, state)
        if isinstance(st, ir.RuleCall):
            values = rule_call_values(self, prim, g, target, inputs)
        elif isinstance(st, ir.Copy):
            values.append((inputs[0][1], g, False, state.form(d).thunk, False, False))
            if moved(state.form(d), self.ctx.assign_count(target) > 1 and
                     inputs[0][1] != target):
                self.moves.add(id(g))       # d is reset right after: its buffer moves
        elif isinstance(st, ir.Pack):    # (the seed's entries ctx.dense come as values)
            keys = getattr(prim, "keys", None)
            dense = self.ctx.dense if not keys and self.seed == (d, state.form(d)) else ()
            for k, name in inputs:
                part = self.call("part", g, const(keys[k] if keys else k))
                values.append((name, part, True, False, k not in dense, False))
        elif isinstance(st, ir.SetItem):
            return self.setitem_contributions(s, d, inputs, state)
        else:                              # custom rule or compiled user function
            return self.pullback_contributions(s, target, d, inputs, state)
        return self.accumulate(values, target, d, state)

    def setitem_contributions(self, s, d, inputs, state):
        """`x[i] = v`: v gets dx[i]; the old x gets dx with zeros at i."""
        form = state.form(d)
        part = self.ctx.temp(("part", d))
        index = templates.as_value(self.ctx.names, s.prim.inputs["index"])
        split = split_written_out(self, s.prim, d, part, form) or \
            gen.SplitStore(part, d, index, form.owned and not form.thunk)
        out = [split]
        state[d] = Form("no", False, True)
        value = s.prim.args[1]
        piece = load(part) if fills_index(self, s.prim) else \
            self.call("unbroadcast", load(part), value)
        array = bool(shape_of(self.ctx.shapes.cls.get(s.prim.args[0].id)))  # never None
        values = [(value.id, piece, True, False, not array, array) for k, name in inputs if k == 1]
        return out + self.accumulate(values, None, d, state)

    def pullback_contributions(self, s, target, d, inputs, state):
        cots = self.ctx.temp(("cots", target))
        values = []
        for k, name in inputs:           # k: the argument's position in the callee's pullback
            cot = gast.Subscript(value=load(cots), slice=const(k), ctx=gast.Load())
            cot = self.call("list_cotangent", cot, load(name)) if name in self.sequences else cot
            values.append((name, cot, False, True, True, False))    # (a list's: a list)
        return [gen.CallPullback(cots, pullback_name(s), d, s.prim)] + \
            self.accumulate(values, target, d, state)

    def was_entries(self, expr):
        """Whether `expr` was marked a possible list of entries (the mark is used once,
        so an id reused by a later node is never taken for it)."""
        found = id(expr) in self.entries
        self.entries.discard(id(expr))
        return found

    def accumulate(self, values, target, d, state):
        """Contributions in order; a contribution to the target itself replaces it last."""
        out, own = [], []
        in_loop = bool(self.loops)
        for name, expr, computed, lazy, maybe_none, numeric in values:
            original = expr
            if computed and self.lp.defers(in_loop):
                # lists popped in place are captured as copies (not those on the tape,
                # which backward_append rebinds: `traj = np.array(traj)` is no list)
                expr = thunk_of(expr, self.ctx.captures(expr), self.ctx.names,
                                self.restored_lists - self.saved)
                lazy = True
            if name == target:
                own.append((expr, lazy, maybe_none))
                continue
            da = self.ctx.adjoint(name)
            if self.ctx.explain:
                out.append(gen.Comment(self.ctx.note(self.why(da, self.crossing(name)))))
            fresh = id(original) in self.moves or computed and not lazy and \
                fresh_array(original, self.ctx.shapes.cls, name)
            self.moves.discard(id(original))
            out.extend(self.lp.contribute(
                da, expr, lazy, maybe_none, state, in_loop, self.crossing(name), numeric,
                container=self.was_entries(original), fresh=fresh))
        if own:
            out.extend(self.replace_self(d, own, state, in_loop))
        return out

    def why(self, da, crossing):
        """--explain: why this accumulation is deferred or materialised."""
        policy = self.lp.policy
        if policy != "loop":
            return {"eager": f"{da}: materialised at once (eager policy)",
                    "flat": f"{da}: deferred into one flat pending sum (flat policy)",
                    "nested": f"{da}: deferred, wrapping the previous thunk (nested policy)"
                    }[policy]
        if not self.loops and self.lp.materialised:
            return f"computed at once: {da} (this callee is called in a loop body)"
        if not self.loops:
            return f"deferred: {da} stays a Thunk until a consumer forces it"
        line = self.ctx.line_of(self.loops[-1].node)
        if crossing:
            return (f"unthunk: {da} accumulates across iterations of the loop at line {line}; "
                    "added in place into a buffer this code owns")
        return f"computed at once: {da} lives within one iteration of the loop at line {line}"

    def replace_self(self, d, own, state, in_loop):
        """`x = f(x)`: the new adjoint of x is the sum of its own contributions."""
        out, temps = [], []
        for k, (expr, lazy, maybe_none) in enumerate(own):
            temp = self.ctx.temp(("self", d, k))
            out.append(gen.Bind(temp, expr))
            temps.append((temp, lazy, maybe_none))
        state[d] = Form()
        for temp, lazy, maybe_none in temps:
            out.extend(self.lp.contribute(d, load(temp), lazy, maybe_none, state, in_loop,
                                          False))
        return out

    def crossing(self, name):
        """Whether adjoint of `name` accumulates across iterations of the innermost loop."""
        if not self.loops:
            return False
        return name not in self.loops[-1].assigned or name in self.loops[-1].inplace

    def backward_if(self, s, state):
        then_state, else_state = state.copy(), state.copy()
        body = self.backward(s.body, then_state)
        orelse = self.backward(s.orelse, else_state)
        if not body and not orelse:
            return []
        for name in sorted(set(then_state) | set(else_state)):
            a, b = then_state.form(name), else_state.form(name)
            if self.lp.at_join(name, a, b):
                side, branch = (then_state, body) if a.thunk else (else_state, orelse)
                branch.append(gen.Unthunk(name))
                side[name] = Form(side.form(name).zero, False, side.form(name).owned)
        state.clear()
        state.update(then_state)
        self.join_into(state, else_state)
        return [gen.typed_if(s.test, gen.pass_if_empty(body), orelse)]

    def join_into(self, state, other):
        """state := the join of two paths; a name bound on one path only is read as
        "maybe" later, so it gets `dx = None` at the top of the pullback."""
        merged = state.join(other)
        self.maybe_read.update(k for k, form in merged.items() if form.zero == "maybe")
        state.clear()
        state.update(merged)


def _typed(node, original):
    """A forward-sweep statement: the typed original for its own node, else the one
    typed here (a push, an rrule call, a copy: ir/generated.py)."""
    return original if node is original.node else node
