"""Stage 3b, control: structured jumps and loop counters, so the backward sweep can
replay exactly the statements that ran.

    for x in xs:                     steps = 0
        a = f(x)                     for x in xs:
        if a > 1:            ->          steps += 1
            break                        a = f(x)
        s = s + a                        cond1 = a > 1
                                         if cond1: break
                                         else: s = s + a

Statements after a jump move into the branch that does not jump; where that is
not possible a flag (`skip1`, `returned`) guards them. An early `return`
becomes `result = ...; returned = True` (plus `break` inside loops).
"""
import gast

from ..ir.nodes import assign, const, load, statements
from ..ir.primitives import Prim


def _tag(node, line=None, prim=None):
    node.prim = prim
    node.origin_line = line
    return node


class ControlLowering:
    def __init__(self, names):
        self.names = names
        self.result = None
        self.returned = None

    # ---- early returns ----------------------------------------------------
    def lower_returns(self, body, result=None):
        """Replace non-final returns by flag + break; end with one `return result`."""
        final = body[-1]
        if not any(isinstance(n, gast.Return) for s in body[:-1] for n in statements(s)):
            return body
        self.result = result or self.names.reserve("result")
        self.returned = self.names.new("returned") if result else self.names.reserve("returned")
        body = self.returns_in(body[:-1] + [final], in_loop=False)
        start = [_tag(assign(self.result, const(None)), prim=Prim("nondiff", "init")),
                 _tag(assign(self.returned, const(False)), prim=Prim("nondiff", "init"))]
        body = self.guard(start + body, "return")
        ret = _tag(gast.Return(value=load(self.result)))
        return body + [ret]

    def returns_in(self, block, in_loop):
        out = []
        for s in block:
            if isinstance(s, gast.Return):
                out.append(_tag(assign(self.result, s.value), s.origin_line,
                                Prim("copy", "copy", args=[s.value])))
                flag = _tag(assign(self.returned, const(True)), s.origin_line,
                            Prim("nondiff", "flag"))
                flag.jump = "return"
                out.append(flag)
                if in_loop:
                    out.append(_tag(gast.Break(), s.origin_line))
                return out
            if isinstance(s, gast.If):
                s.body = self.returns_in(s.body, in_loop) or [gast.Pass()]
                s.orelse = self.returns_in(s.orelse, in_loop)
            elif isinstance(s, (gast.For, gast.While)) and _contains_return(s):
                s.body = self.returns_in(s.body, True)
                out.append(s)
                if in_loop:
                    out.extend(self.recorded_if(load(self.returned), [_tag(gast.Break())],
                                                s.origin_line))
                else:
                    s.sets_returned = True
                continue
            out.append(s)
        return out

    # ---- guarding what follows a jump ---------------------------------------
    def guard(self, block, kind, flag=None):
        """Make statements after a possible jump run only when it did not happen."""
        out = []
        for k, s in enumerate(block):
            if _is_jump(s, kind):
                out.append(s)
                return out                         # the rest is dead code
            if not _may_jump(s, kind):
                out.append(s)
                continue
            rest = block[k + 1:]
            if isinstance(s, gast.If):
                if _always_jumps(s.body, kind) and not _may_jump_block(s.orelse, kind):
                    s.body = self.guard(s.body, kind, flag)
                    s.orelse = self.guard(s.orelse + rest, kind, flag)
                    return out + [s]
                if _always_jumps(s.orelse, kind) and not _may_jump_block(s.body, kind):
                    s.orelse = self.guard(s.orelse, kind, flag)
                    s.body = self.guard(s.body + rest, kind, flag) or [gast.Pass()]
                    return out + [s]
                s.body = self.guard(s.body, kind, flag) or [gast.Pass()]
                s.orelse = self.guard(s.orelse, kind, flag)
            out.append(s)
            if rest:
                flag_name = self.returned if kind == "return" else flag()
                test = gast.UnaryOp(op=gast.Not(), operand=load(flag_name))
                out.extend(self.recorded_if(test, self.guard(rest, kind, flag)))
            return out
        return out

    def recorded_if(self, test, body, line=None):
        """`cond = test; if cond: body`: the backward sweep replays the recorded outcome."""
        cond = self.names.new("cond")
        record = _tag(assign(cond, test), line, Prim("nondiff", "test"))
        return [record, _tag(gast.If(test=load(cond), body=body, orelse=[]), line)]

    # ---- loops ------------------------------------------------------------
    def lower_loops(self, block):
        """Add trip counters and guard the statements after break/continue."""
        out = []
        for s in block:
            if isinstance(s, gast.If):
                s.body = self.lower_loops(s.body) or [gast.Pass()]
                s.orelse = self.lower_loops(s.orelse)
            elif isinstance(s, (gast.For, gast.While)):
                out.extend(self.lower_loop(s))
                continue
            out.append(s)
        return out

    def lower_loop(self, loop):
        body = self.lower_loops(loop.body)
        whole_range = isinstance(loop, gast.For) and loop.iter_kind == "range" \
            and not _has_break(body)
        flag_holder = []

        def flag():
            if not flag_holder:
                flag_holder.append(self.names.new("skip"))
            return flag_holder[0]
        body = self.guard(body, "loop", flag)
        if flag_holder:
            body = self.flagged_jumps(body, flag_holder[0])
        if whole_range:          # it runs the whole range: the backward walks it reversed
            loop.count, loop.body = None, body
            return [loop]
        count = loop.count = self.names.new("n")
        bump = _tag(gast.AugAssign(target=gast.Name(id=count, ctx=gast.Store(), annotation=None,
                                                    type_comment=None),
                                   op=gast.Add(), value=const(1)))
        bump.counter = True
        loop.body = [bump] + body
        init = _tag(assign(count, const(0)), loop.origin_line, Prim("nondiff", "counter"))
        init.counter = True
        return [init, loop]


    def flagged_jumps(self, body, skip):
        """Jumps become flags: the iteration runs to its end (guards skip the rest), so
        every recorded guard is pushed and the backward sweep replays it in step; a
        `break` then leaves the loop from the body's last statement."""
        stop = []

        def flag_for(kind):
            if kind == "break" and not stop:
                stop.append(self.names.new("stop"))
            return stop[0] if kind == "break" else None
        body = _set_flags(body, skip, flag_for)
        start = [_tag(assign(skip, const(False)), prim=Prim("nondiff", "flag"))]
        if stop:
            start.append(_tag(assign(stop[0], const(False)), prim=Prim("nondiff", "flag")))
            body = body + self.recorded_if(load(stop[0]), [_tag(gast.Break())])
        return start + body


def _set_flags(block, skip, flag_for):
    """Replace this loop's break/continue (not inner loops') by setting the flags."""
    out = []
    for s in block:
        if isinstance(s, (gast.Break, gast.Continue)):
            line = getattr(s, "origin_line", None)
            out.append(_tag(assign(skip, const(True)), line, Prim("nondiff", "flag")))
            if isinstance(s, gast.Break):
                out.append(_tag(assign(flag_for("break"), const(True)), line,
                                Prim("nondiff", "flag")))
            continue
        if isinstance(s, gast.If):
            s.body = _set_flags(s.body, skip, flag_for) or [gast.Pass()]
            s.orelse = _set_flags(s.orelse, skip, flag_for)
        out.append(s)
    return out


def _has_break(block):
    """Whether a break of this loop (not of an inner one) is in `block`."""
    for s in block:
        if isinstance(s, gast.Break):
            return True
        if isinstance(s, gast.If) and (_has_break(s.body) or _has_break(s.orelse)):
            return True
    return False


def _is_jump(s, kind):
    if kind == "return":
        return getattr(s, "jump", None) == "return"
    return isinstance(s, (gast.Break, gast.Continue))


def _may_jump(s, kind):
    if _is_jump(s, kind):
        return True
    if isinstance(s, gast.If):
        return _may_jump_block(s.body, kind) or _may_jump_block(s.orelse, kind)
    if kind == "return" and isinstance(s, (gast.For, gast.While)):
        return getattr(s, "sets_returned", False)
    return False


def _may_jump_block(block, kind):
    return any(_may_jump(s, kind) for s in block)


def _always_jumps(block, kind):
    if not block:
        return False
    last = block[-1]
    if _is_jump(last, kind):
        return True
    if kind != "return" and isinstance(last, gast.Break):
        return True
    if isinstance(last, gast.If):
        return _always_jumps(last.body, kind) and _always_jumps(last.orelse, kind)
    return False


def _contains_return(node):
    return any(isinstance(n, gast.Return) for n in statements(node))


def lower_control(body, names):
    """Early returns, then loops: the body with structured jumps and counters."""
    lowering = ControlLowering(names)
    body = lowering.lower_returns(body)
    return lowering.lower_loops(body)
