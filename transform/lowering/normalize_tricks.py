"""Stage 3, normalize: rewrites that give a call a rule it did not have by name:

    a.fill(v)             ->  a[...] = v                (when a is an array)
    np.r_[x, 0:3, 2 * x]  ->  t = (x, slice(0, 3), t1); y = np.r_[t]
    y = xs or [x]         ->  y = xs if xs else [x]     (an operand may carry a derivative)
"""
import builtins
import copy

import gast

from ..ir.nodes import assign, const, load
from ..ir.primitives import Prim, from_rule, rule_for
from .numpy_methods import _python_class
from .receiver_kinds import may_be_object
from .receivers import _single_assignment, index_trick, label_of


class TrickNormalizer:
    """A Normalizer's part: rewrites that give a call a rule it did not have by name."""

    def __init__(self, normalizer):
        self.norm = normalizer          # the Normalizer: its output, line, nested defs
        self.src, self.names = normalizer.src, normalizer.names

    def fill(self, call):
        """`a.fill(v)` writes v into every entry of an array: the write `a[...] = v`.
        Where the source shows `a` is an array (receiver_kinds.may_be_object) that write
        alone; else whether `a` is an array is known at run time only, so both are emitted:

            cond = is_ndarray(a)
            if cond: a[...] = v
            else: a.fill(v)             # another object's own method

        The object's own method is an ordinary method call: kept_values.py refuses it
        where a value being differentiated reaches it (its result unused), at compile time
        where the source shows `a` is made by a class written in Python (`c = Canvas(w)`),
        else when the branch runs (`a = helper()`: an array there is filled, session 34)."""
        name = call.func.value.id
        value = self.norm.atom(call.args[0])
        target = gast.Subscript(value=load(name), slice=const(Ellipsis), ctx=gast.Store())
        if not may_be_object(self.src, call.func.value):
            return self.norm.write_item(target, value)
        cond = self.names.new("cond")
        self.norm.emit(assign(cond, self.names.call("is_ndarray", load(name))),
                  Prim("nondiff", "test"))
        write = self.norm.block_of(lambda: self.norm.write_item(target, value))
        method = gast.copy_location(gast.Call(func=call.func, args=[value], keywords=[]), call)
        other = self.norm.block_of(lambda: self.norm.expr(method, None, discard=True))
        shown = _made_by_a_class(self.src, name)
        for node in other:
            if getattr(node, "prim", None) is not None and \
                    getattr(node.prim, "method", None) == "fill":
                node.prim.objects_own = True        # not ndarray.fill: see kept_values
                if not shown:                       # refused when it runs, if at all
                    node.prim.decided_when_run = f"{self.norm.where(call)}:{call.col_offset + 1}"
        self.norm.emit(gast.If(test=load(cond), body=write, orelse=other))

    def index_trick(self, e, target):
        """`np.r_[a, 0:3, b]` -> `t = (a, slice(0, 3), b); y = np.r_[t]`, one Prim;
        `np.r_[t]` with one expression (a name holding a tuple, or an array) is kept:
        its value is the key np.r_ gets, whatever it holds."""
        if not isinstance(e.slice, (gast.Tuple, gast.Slice)):
            item = self.norm.atom(e.slice)
            node = gast.Subscript(value=e.value, slice=item, ctx=gast.Load())
            prim = from_rule(rule_for(index_trick), [e.value, item], {}, label_of(e.value))
            prim.site = e
            return self.norm.finish(target, node, prim)
        parts = e.slice.elts if isinstance(e.slice, gast.Tuple) else [e.slice]
        items = [self.slice_object(p) if isinstance(p, gast.Slice) else self.norm.atom(p)
                 for p in parts]
        packed = load(self.norm.finish(None, gast.Tuple(elts=items, ctx=gast.Load()),
                                  Prim("pack", "tuple", args=items)))
        node = gast.Subscript(value=e.value, slice=packed, ctx=gast.Load())
        prim = from_rule(rule_for(index_trick), [e.value, packed], {}, label_of(e.value))
        prim.site = e
        return self.norm.finish(target, node, prim)

    def slice_object(self, s):
        """`lo:hi:step` inside an index trick, as the value `slice(lo, hi, step)`."""
        norm = self.norm
        bounds = [const(None) if p is None else norm.atom(p) for p in (s.lower, s.upper, s.step)]
        call = self.names.call("slice", *bounds)
        return load(norm.finish(None, call, norm.calls.rule_prim(builtins.slice, bounds, {}, s)))


def _made_by_a_class(src, name):
    """Whether the local `name` is bound once, to a call of a class written in Python."""
    value = _single_assignment(src.node, name)
    return isinstance(value, gast.Call) and _python_class(src, value.func)


def is_fill(call, src):
    """`name.fill(value)` on a local name: an in-place write if the name is an array."""
    return isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) \
        and call.func.attr == "fill" and isinstance(call.func.value, gast.Name) \
        and call.func.value.id in src.locals and len(call.args) == 1 and not call.keywords


def picks_operand(e):
    """Whether `a or b` / `a and b` in a value position may give one of its operands a
    derivative: some operand is more than a comparison, a `not` or a constant (those are
    booleans, which stay one opaque statement)."""
    return isinstance(e, gast.BoolOp) and not all(_boolean(v) for v in e.values)


def _boolean(e):
    if isinstance(e, gast.BoolOp):
        return all(_boolean(v) for v in e.values)
    return isinstance(e, (gast.Compare, gast.Constant)) or \
        isinstance(e, gast.UnaryOp) and isinstance(e.op, gast.Not)


def as_choice(e, first):
    """`a or b` evaluates to a when a is true, else to b (`and`: b when a is true), so it
    is the conditional expression over a, evaluated once into the atom `first`:

        a or b or c   ->   first if first else (b or c)
    """
    rest = e.values[1] if len(e.values) == 2 else gast.BoolOp(op=e.op, values=e.values[1:])
    chosen, other = (copy.deepcopy(first), rest) if isinstance(e.op, gast.Or) \
        else (rest, copy.deepcopy(first))
    return gast.IfExp(test=copy.deepcopy(first), body=chosen, orelse=other)
