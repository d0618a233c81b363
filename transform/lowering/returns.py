"""Stages 3-4, lowering: early returns, and the guard over what follows a jump.

    if c:                        result = None; returned = False
        return a        ->       cond1 = c
    b = f(x)                     if cond1: result = a; returned = True
    return b                     else: b = f(x); result = b
                                 return result

Control (stage 4) lowers a function's returns and its loops' jumps with it; normalize
(stage 3) lowers the returns of a nested def it inlines.
"""
import gast

from ..ir.nodes import assign, const, load, statements
from ..ir.primitives import Prim


def _tag(node, line=None, prim=None):
    node.prim = prim
    node.origin_line = line
    return node


class ReturnLowering:
    """Early returns as a flag and a single final return; what follows a jump guarded."""

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
