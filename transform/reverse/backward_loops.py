"""Stage 6, reverse: loops, the recorded iterations walked last to first.

    for x in xs:                      for x in reversed_prefix(seq1, n1):
        steps += 1           ->           ...adjoint of the body...
        ...body...

`for` loops walk their (unchanged) iterable backwards, so loop variables come
back without the tape; `while` loops replay their trip count. Adjoint forms at
the loop head come from a small fixpoint (entry state joined with the state
after one backward iteration).
"""
import gast

from ..analysis.activity import defined, loop_element_targets, target_names, walk
from ..analysis.accumulation import Form
from ..ir import generated as gen
from ..ir import statements as ir
from ..ir.nodes import const, load


class LoopInfo:
    """assigned: primal names the loop rebinds; inplace: arrays it writes elements of;
    node: the loop's gast node (its line)."""

    def __init__(self, assigned, inplace, node=None):
        self.assigned = assigned
        self.inplace = inplace
        self.node = node


def written_in(loop):
    """Names of containers whose elements a typed loop writes (`x[i] = v`)."""
    return {s.base.id for s, _ in walk(loop.body) if isinstance(s, ir.SetItem)}


def assigned_in(loop):
    """Primal names a typed loop (re)binds: assignment targets, loop targets, tape state."""
    names = set(target_names(loop.target)) if isinstance(loop, ir.For) else set()
    for s, _ in walk(loop.body):
        match s:
            case ir.Simple(node=gast.Assign()):
                names |= set(defined(s)[0])
            case ir.For():
                names |= set(target_names(s.target))
    return names


class LoopEmitter:
    """The backward form of `for` and `while`, for a Reverser (its part, not a mixin)."""

    def __init__(self, sweep):
        self.sweep = sweep              # the Reverser: loops, tape, joins, the recursion
        self.ctx, self.act, self.call = sweep.ctx, sweep.act, sweep.call

    def touched(self, loop):
        """Adjoint names a typed loop's backward body reads or writes."""
        names = set()
        for s, _ in walk([loop]):
            match s:
                case ir.Simple(node=gast.Assign()):
                    targets = defined(s)[0]
                    if targets and self.act.is_active(targets[0]):
                        names.add(targets[0])
                        names |= {n for _, n in self.act.active_inputs(s.prim)}
                case ir.Append(acc=acc, value=value):
                    names |= {a.id for a in (acc, value) if isinstance(a, gast.Name)
                              and self.act.is_active(a.id)}
                case ir.For():
                    for seq, elts in loop_element_targets(s):
                        names |= {n for n in elts + [seq] if self.act.is_active(n)}
                    # an active target's adjoint stops at the header (spent_targets)
                    names |= {n for n in target_names(s.target) if self.act.is_active(n)}
        return names

    def backward_loop(self, loop, state):
        """A typed loop's backward form (its gast node: the comment, the line, the ids
        its pushes and pops share)."""
        touched = self.touched(loop)
        if not touched and not self.needs_replay(loop):
            return self.pops_after(loop)
        assigned, inplace = assigned_in(loop), written_in(loop)
        adjoints = {self.ctx.adjoint(n) for n in touched}
        crossing = {self.ctx.adjoint(n) for n in touched
                    if n not in assigned or n in inplace}
        out = [gen.Comment(self.ctx.comment(loop.node))]
        before = self.sweep.lp.before_loop(adjoints, crossing, state, self.ctx.zero_buffers())
        if before and self.ctx.explain:
            names = ", ".join(st.target for st in before)
            out.append(gen.Comment(self.ctx.note(
                f"unthunk before the loop at line {self.ctx.line_of(loop.node)}: {names} made "
                "concrete; the loop body adds into them")))
        out += before
        head = state.copy()
        for _ in range(6):
            body_state = head.copy()
            self.sweep.loops.append(LoopInfo(assigned, inplace, loop.node))
            body = self.loop_body(loop, body_state)
            self.sweep.loops.pop()
            new_head = head.copy()
            self.sweep.join_into(new_head, body_state)
            if new_head.key() == head.key():
                break
            head = new_head
        state.clear()
        state.update(head)
        target, iterator = self.backward_header(loop)
        node = gen.typed_for(target, iterator, gen.pass_if_empty(body))
        return out + [node] + self.pops_after(loop)

    def needs_replay(self, loop):
        """A loop with no active statement still replays if it restores saved names."""
        restores = self.sweep.saved | self.sweep.restored_lists
        return any(set(defined(s)[0]) & restores for s, _ in walk(loop.body))

    def pops_after(self, loop):
        if not isinstance(loop, ir.For):
            return []
        names = [n for n in target_names(loop.target) if n in self.sweep.saved]
        return [self.sweep.pop(n, loop.node) for n in reversed(names)]

    def loop_body(self, loop, state):
        body = self.sweep.backward(loop.body, state)
        if isinstance(loop, ir.For):
            body.extend(self.element_adjoints(loop, state))
            body.extend(self.spent_targets(loop, state))
        return body

    def spent_targets(self, loop, state):
        """The header binds the targets afresh each trip: their adjoints stop here.

        Without this, `i = x; for i in range(3): ...` would hand the iterations'
        adjoints of `i` on to the `i` bound before the loop."""
        out = []
        for name in target_names(loop.target):
            d = self.ctx.adjoint(name)
            if self.act.is_active(name) and state.form(d).zero != "yes":
                out.append(gen.Reset(d))
                state[d] = Form()
        return out

    def active_elements(self, loop):
        return [(seq, elts) for seq, elts in loop_element_targets(loop)
                if self.act.is_active(seq) and any(self.act.is_active(n) for n in elts)]

    def element_adjoints(self, loop, state):
        """`x` took `seq[k]`: add dx into dseq at k, then dx is spent."""
        out = []
        if loop.iter_kind == "items":
            index = target_names(loop.target.elts[0])[0]
        else:
            index = self.ctx.temp(("index", id(loop.node)))
        for seq, elts in self.active_elements(loop):
            node = element_target(loop, seq)
            if all(state.form(self.ctx.adjoint(n)).zero == "yes" for n in elts):
                continue
            dseq = self.ctx.adjoint(seq)
            if isinstance(node, gast.Name):
                d = self.ctx.adjoint(node.id)
                self.sweep.maybe_read.add(d)
                value = load(d)
            else:                                  # `for a, b in P`: pack (da, db) like P[k]
                parts = self.cotangent_tree(node, state)
                value = gast.Call(func=self.ctx.names.ref("pack_cotangent"),
                                  args=[load(seq), load(index), parts], keywords=[])
            out.append(gen.Spread(dseq, load(dseq), seq, load(index), value))
            for name in elts:
                d = self.ctx.adjoint(name)
                if state.form(d).zero != "yes":
                    out.append(gen.Reset(d))
                state[d] = Form()
            state[dseq] = Form("maybe", False, True)
        return out

    def cotangent_tree(self, node, state):
        """(da, (db, None)) for a target (a, (b, c)): adjoints, None where zero."""
        if isinstance(node, gast.Name):
            d = self.ctx.adjoint(node.id)
            if not self.act.is_active(node.id) or state.form(d).zero == "yes":
                return const(None)
            self.sweep.maybe_read.add(d)
            return load(d)
        return gast.Tuple(elts=[self.cotangent_tree(e, state) for e in node.elts],
                          ctx=gast.Load())

    def backward_header(self, loop):
        """(target, iterator) walking the forward's iterations in reverse."""
        n = load(loop.count)
        if isinstance(loop, ir.While):
            return self.ctx.names.store("_"), self.call("range", n)
        target = _store_copy(loop.target)
        seqs = [load(s) for s in loop.seqs]
        if loop.count is None:                      # a whole range: no trip counter
            return target, self.call("reversed", seqs[0])
        if loop.iter_kind == "items":
            items = self.call("list", _copy(loop.iter))
            return target, self.call("reversed_prefix", items, n)
        if self.active_elements(loop):
            items = seqs[0]
            if loop.iter_kind != "seq":
                items = self.call("list", _copy(loop.iter))
            index = self.ctx.temp(("index", id(loop.node)))
            target = gast.Tuple(elts=[gast.Name(id=index, ctx=gast.Store(), annotation=None,
                                                type_comment=None), target], ctx=gast.Store())
            return target, self.call("reversed_enumerate", items, n)
        if loop.iter_kind in ("range", "seq"):
            return target, self.call("reversed_prefix", seqs[0], n)
        if loop.iter_kind == "enumerate":
            return target, self.call("reversed_enumerate", seqs[0], n, *seqs[1:])
        return target, self.call("reversed_zip", n, *seqs)


def element_target(loop, seq):
    """The target node that receives the elements of `seq` in a typed for loop."""
    if loop.iter_kind == "seq":
        return loop.target
    if loop.iter_kind in ("enumerate", "items"):
        return loop.target.elts[1]
    return loop.target.elts[loop.seqs.index(seq)]


def _copy(node):
    import copy
    return copy.deepcopy(node)


def _store_copy(target):
    node = _copy(target)
    for sub in gast.walk(node):
        if hasattr(sub, "ctx"):
            sub.ctx = gast.Store()
    return node
