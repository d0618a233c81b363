"""The gast lowering of reverse mode's generated statements (ir/generated.py), a part of
GastLowering (ir/lower_gast.py): each builds the node the sweeps built before they
were typed, node for node, the runtime helpers' names made by the Vocabulary
(`self.names`), and marks it with its statement (`statements.mark_typed`; the first
node where it makes two: `SplitStore`'s written out `p = d[i].copy()`, `TapeReader`'s
assignment, not its end comment), which the optimiser matches (`facts.typed(stmt)`).
"""
import gast

from . import templates
from .nodes import assign, const, load, operand, store
from .recognize import assigns_role, is_call
from .generated import Generated
from .statements import mark_typed


def _marked(lower):
    """A `lower_<class>` whose first node is marked with the statement it lowers."""
    def lowering(self, s):
        if isinstance(s, Generated):
            s.node = None                   # lowered from its fields as built
        nodes = lower(self, s)
        mark_typed(nodes[0], s)
        return nodes
    lowering.__name__, lowering.__doc__ = lower.__name__, lower.__doc__
    return lowering


class GeneratedLowering:
    """`lower_<class>` for the classes of ir/generated.py."""

    @_marked
    def lower_Comment(self, s):
        return [s.node]

    @_marked
    def lower_Reset(self, s):
        return [gast.Assign(targets=[store(t) for t in s.targets], value=const(None),
                            type_comment=None)]

    @_marked
    def lower_ZeroBuffer(self, s):
        return [assign(s.target, self.names.call("cotangent_zeros", operand(s.like)))]

    @_marked
    def lower_Unthunk(self, s):
        return [assign(s.target, self.names.call("unthunk", load(s.target)))]

    @_marked
    def lower_Own(self, s):
        return [assign(s.target, self.names.call("own", load(s.target)))]

    @_marked
    def lower_Spread(self, s):
        if s.helper == "accumulate_slice":
            args = [s.buffer, s.value, operand(s.like), s.index]
        else:
            args = [s.buffer, operand(s.like), s.index, s.value]
        return [assign(s.target, self.names.call(s.helper, *args))]

    @_marked
    def lower_SliceAdd(self, s):
        target = gast.Subscript(value=load(s.target), slice=templates.clone(s.index),
                                ctx=gast.Store())
        if s.fresh:
            return [gast.Assign(targets=[target], value=s.value, type_comment=None)]
        return [gast.AugAssign(target=target, op=gast.Add(), value=s.value)]

    @_marked
    def lower_SplitStore(self, s):
        if s.written_out:
            view = gast.Subscript(value=load(s.target), slice=templates.clone(s.index),
                                  ctx=gast.Load())
            copy = gast.Call(func=gast.Attribute(value=view, attr="copy", ctx=gast.Load()),
                             args=[], keywords=[])
            target = gast.Subscript(value=load(s.target), slice=templates.clone(s.index),
                                    ctx=gast.Store())
            return [assign(s.part, copy),
                    gast.Assign(targets=[target], value=const(0), type_comment=None)]
        split = self.names.call("setitem_vjp", load(s.target), s.index, const(s.owned))
        return [gast.Assign(targets=[gast.Tuple(elts=[store(s.part), store(s.target)],
                                                ctx=gast.Store())],
                            value=split, type_comment=None)]

    @_marked
    def lower_PopEntries(self, s):
        return [gast.Expr(value=entries_popped(s.lst, s.extended, self.names))]

    @_marked
    def lower_ShortenList(self, s):
        lst = s.target
        if s.extended is not None:
            end = gast.BinOp(left=self.names.call("len", load(lst)), op=gast.Sub(),
                             right=self.names.call("len", s.extended))
        else:
            end = const(-1)
        short = gast.Subscript(value=load(lst), slice=gast.Slice(lower=None, upper=end,
                                                                 step=None), ctx=gast.Load())
        return [assign(lst, short)]

    @_marked
    def lower_CopyList(self, s):
        test = gast.Compare(left=load(s.target), ops=[gast.IsNot()], comparators=[const(None)])
        return [gast.If(test=test, body=[assign(s.target, self.names.call("list",
                                                                          load(s.target)))],
                        orelse=[])]

    @_marked
    def lower_ListCotangent(self, s):
        return [assign(s.target, self.names.call("list_cotangent", load(s.target),
                                                 operand(s.like)))]

    @_marked
    def lower_TapeStart(self, s):
        return [self.names.assign("tape", gast.List(elts=[], ctx=gast.Load()))]

    @_marked
    def lower_TapeReader(self, s):
        return [self.names.assign("pop", self.names.call("tape_reader", self.names.ref("tape"))),
                s.comment]

    @_marked
    def lower_RruleCall(self, s):
        value = gast.Call(func=load(s.rule), args=s.args, keywords=s.keywords)
        new = gast.Assign(targets=[gast.Tuple(elts=[store(s.target), store(s.pullback)],
                                              ctx=gast.Store())], value=value, type_comment=None)
        new.prim, new.origin_line = s.prim, s.origin_line
        return [new]

    @_marked
    def lower_CallPullback(self, s):
        call = gast.Call(func=load(s.pullback), args=[operand(s.cotangent)], keywords=[])
        return [assign(s.target, call)]

    @_marked
    def lower_CopyBeforeStore(self, s):
        copy = gast.Attribute(value=load(s.target), attr="copy", ctx=gast.Load())
        return [assign(s.target, gast.Call(func=copy, args=[], keywords=[]))]

    @_marked
    def lower_Unview(self, s):
        return [assign(s.target, self.names.call("unviewed", load(s.target)))]

    @_marked
    def lower_Bind(self, s):
        return [assign(s.target, s.value)]

    @_marked
    def lower_Scale(self, s):
        return [gast.AugAssign(target=store(s.target), op=gast.Mult(), value=operand(s.factor))]

    @_marked
    def lower_ReuseBuffer(self, s):
        return [assign(s.target, self.names.call("reused_cotangent", load(s.target),
                                                 operand(s.like)))]

    @_marked
    def lower_ProductSum(self, s):
        return [assign(s.target, self.names.call("MatmulLhsSum", operand(s.like)))]

    @_marked
    def lower_AddProduct(self, s):
        method = gast.Attribute(value=load(s.batch), attr=s.method, ctx=gast.Load())
        return [gast.Expr(value=gast.Call(func=method, args=list(s.args), keywords=[]))]


def entries_popped(lst, extended, names):
    """`lst.pop()` for an append; `pop_last(lst, v)` (the last len(v), in order) for
    extend: the expression."""
    if extended is not None:
        return names.call("pop_last", lst, extended)
    return gast.Call(func=gast.Attribute(value=lst, attr="pop", ctx=gast.Load()), args=[],
                     keywords=[])


# What a marked generated node must still look like (the pass manager's checked run:
# lower_gast.out_of_step): the statement's shape, its targets and the helper it calls.
# Expressions (values, indices) are the passes' to rewrite and are not compared.
_CALLS = {"ZeroBuffer": "cotangent_zeros", "Unthunk": "unthunk", "Own": "own",
          "ListCotangent": "list_cotangent", "Unview": "unviewed",
          "ReuseBuffer": "reused_cotangent", "ProductSum": "MatmulLhsSum"}


def generated_out_of_step(node, s):
    """Whether a node marked with a generated statement `s` no longer is one (its
    fields as built: lowered, they read through to the node)."""
    kind = type(s).__name__
    if kind in _CALLS or kind == "Spread":
        role = s.helper if kind == "Spread" else _CALLS[kind]
        return _assigned(node) != [s.built("target")] or not is_call(node.value, role)
    if kind == "Reset":
        return _assigned(node) != s.built("targets") or not (
            isinstance(node.value, gast.Constant) and node.value.value is None)
    if kind == "SliceAdd":
        kept = gast.Assign if s.fresh else gast.AugAssign
        target = node.targets[0] if isinstance(node, gast.Assign) else \
            getattr(node, "target", None)
        return not (type(node) is kept and isinstance(target, gast.Subscript)
                    and isinstance(target.value, gast.Name)
                    and target.value.id == s.built("target"))
    if kind == "TapeStart":
        return not (isinstance(node, gast.Assign) and assigns_role(node, "tape"))
    if kind == "TapeReader":
        return not (isinstance(node, gast.Assign) and assigns_role(node, "pop")
                    and is_call(node.value, "tape_reader"))
    return False


def _assigned(node):
    """The names `node` assigns (`a = b = ...`), else None."""
    if isinstance(node, gast.Assign) and all(isinstance(t, gast.Name) for t in node.targets):
        return [t.id for t in node.targets]
    return None
