"""The typed form (ir/statements.py) of the Prim-tagged gast stages 3-4 produce: one
class per statement kind, chosen by the statement's Prim and its shape. A statement
of a kind it does not know is refused at the user's line, never passed on untyped.

    typed_form(ctx.src, body)  ->  [NonDiff, RuleCall, For([...], []), Return]
"""
import gast

from . import statements as ir

_CONTROL = {gast.For: ir.For, gast.While: ir.While, gast.If: ir.If}
_JUMPS = {gast.Return: ir.Return, gast.Break: ir.Break, gast.Continue: ir.Continue,
          gast.Pass: ir.Pass}
_EFFECTS = (gast.Assign, gast.Expr, gast.Raise, gast.Assert)


def typed_form(src, body):
    """The typed statements of a lowered block (bodies of loops and branches too)."""
    return [typed_statement(src, s) for s in body]


def walk(block, loop_depth=0):
    """(typed statement, loop depth) for every statement of a typed block, the bodies
    of loops and branches included (a loop's body one deeper)."""
    for s in block:
        yield s, loop_depth
        match s:
            case ir.If():
                yield from walk(s.body, loop_depth)
                yield from walk(s.orelse, loop_depth)
            case ir.Loop():
                yield from walk(s.body, loop_depth + 1)


def stale(block):
    """Whether a pass gave a statement of `block` another Prim since it was typed (stage
    5 turns a refused `x.shape` or an object's `fill` into a nondiff check): its class
    may no longer be its kind's, so the typed form is built again."""
    return any(isinstance(s, ir.Simple) and s.prim is not getattr(s.node, "prim", None)
               for s, _ in walk(block))


def typed_statement(src, s):
    control = _CONTROL.get(type(s))
    if control is not None:
        return control(s, typed_form(src, s.body), typed_form(src, s.orelse))
    if type(s) in _JUMPS:
        return _JUMPS[type(s)](s)
    prim = getattr(s, "prim", None)
    kind = getattr(prim, "kind", None)
    made = _simple(s, prim, kind)
    if made is None:
        raise _unknown(src, s, prim, kind)
    return made


def _simple(s, prim, kind):
    if isinstance(s, gast.AugAssign) and getattr(s, "counter", False):
        return ir.Count(s, prim)
    if kind == "nondiff" and isinstance(s, _EFFECTS):
        return ir.NonDiff(s, prim)
    if isinstance(s, gast.Expr) and kind in ("append", "extend"):
        return ir.Append(s, prim)
    if not isinstance(s, gast.Assign) or len(s.targets) != 1:
        return None
    if kind == "setitem" and isinstance(s.targets[0], gast.Subscript):
        return ir.SetItem(s, prim)
    if kind in ir.BY_KIND and isinstance(s.targets[0], gast.Name):
        return ir.BY_KIND[kind](s, prim)
    return None


class _Line:
    """A stand-in node for a compiler-made statement: the user's line it came from."""

    def __init__(self, lineno):
        self.lineno, self.col_offset = lineno, 0


def _where(s, prim):
    """The user's node behind `s`: its Prim's site, itself, or the line lowering noted."""
    for node in (getattr(prim, "site", None), s):
        if getattr(node, "lineno", None) is not None:
            return node
    line = getattr(s, "origin_line", None)
    return _Line(line) if line is not None else s


def _unknown(src, s, prim, kind):
    where = _where(s, prim)
    tag = f" tagged {kind!r}" if kind is not None else " without a Prim"
    return src.error(f"internal compiler error: a lowered `{type(s).__name__}` "
                     f"statement{tag}, a kind the typed form does not know", where,
                     hint="please report this with the function's source; meanwhile "
                     "use vjp or jacrev")
