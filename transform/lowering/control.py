"""Stage 4, control: structured jumps and loop counters, so the backward sweep can
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

from ..ir.nodes import assign, const, load
from ..ir.primitives import Prim
from .returns import ReturnLowering, _tag


class ControlLowering(ReturnLowering):
    """ReturnLowering plus loops: trip counters, break and continue as flags."""

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


def lower_control(body, names):
    """Early returns, then loops: the body with structured jumps and counters."""
    lowering = ControlLowering(names)
    body = lowering.lower_returns(body)
    return lowering.lower_loops(body)
