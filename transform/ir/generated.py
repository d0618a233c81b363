"""The typed statements reverse mode generates besides the tape traffic (docs/ir.md),
lowered by ir/lower_generated.py. None keeps a node: the lowering builds it, marking
the runtime helpers' names (the Vocabulary); expressions (values, indices) stay gast.
Lowered, a statement's fields read through to its node (`Through`), as `Push`'s, `Pop`'s
and `Accumulate`'s do, so a pass reads `s.value`, `s.index`, `s.like` off the class and
sees what earlier passes made of the gast; `built(field)` answers as built.

    d = None                        Reset       targets [d] (several: `a = b = None`)
    d = cotangent_zeros(x)          ZeroBuffer  target d, like x
    d = unthunk(d)                  Unthunk     target d
    d = own(d)                      Own         target d
    d = accumulate_at(b, x, i, g)   Spread      target d, buffer b, like x, index i, value g
    d = accumulate_slice(b, g, x, i)            (helper "accumulate_slice")
    d[i] += g  /  d[i] = g          SliceAdd    target d, index i, value g, fresh
    p, d = setitem_vjp(d, i, o)     SplitStore  part p, target d, index i, owned o
    p = d[i].copy(); d[i] = 0                   (written_out)
    xs.pop()  /  pop_last(xs, v)    PopEntries  lst xs, extended v (None: an append)
    xs = xs[:-1]                    ShortenList target xs, extended v
    if xs is not None: xs = list(xs)  CopyList  target xs
    d = list_cotangent(d, x)        ListCotangent target d, like x
    tape = []                       TapeStart
    pop = tape_reader(tape)         TapeReader  comment (the end-of-line marker)
    t, t_pb = f_rrule(a, b)         RruleCall   target t, pullback t_pb, rule, args, prim
    t_cots = t_pb(dt)               CallPullback target t_cots, pullback t_pb, cotangent dt, prim
    x = x.copy()                    CopyBeforeStore target x
    x = unviewed(x)                 Unview      target x
    t = expr                        Bind        target t, value expr (a cotangent kept)
    # ...                           Comment     the marker node (Compilation.comment)

The optimiser (stage 7) adds `Scale` `d *= f`, `ReuseBuffer` `d = reused_cotangent(d, x)`,
`ProductSum` `dW_products = MatmulLhsSum(W)` and `AddProduct` `dW_products.add(g, x)`,
built typed and lowered where they go (`lower_gast.lowered`). The sweep's own branches
and loops are `If` and `For` of ir/statements.py (`typed_if`, `typed_for`), lowered with
their bodies.
"""
import gast

from .nodes import const, load
from .statements import For, If, Pass, Statement
from .vocabulary import role_of


class Through:
    """A field of a generated statement: as built until the statement is lowered, then
    read through to its node (`read(node)`), so a pass rewriting the lowered gast (a
    value folded, an index replaced) is seen, as `Push`'s, `Pop`'s and `Accumulate`'s
    fields are. Set before lowering (a typed pass); `Generated.built` answers as built."""

    def __init__(self, read):
        self.read = read

    def __set_name__(self, owner, name):
        self.slot = "_" + name

    def __get__(self, s, owner=None):
        if s is None:
            return self
        node = s.node
        return s.__dict__[self.slot] if node is None else self.read(node)

    def __set__(self, s, value):
        s.__dict__[self.slot] = value


class Generated(Statement):
    """A statement reverse mode made; no node until lowered."""

    def __init__(self, **fields):
        super().__init__(None)
        for k, v in fields.items():
            setattr(self, k, v)

    def built(self, field):
        """A field as the statement was built (not read through to its node)."""
        return self.__dict__.get("_" + field, self.__dict__.get(field))

    def __repr__(self):
        shown = ", ".join(f"{k.lstrip('_')}={_shown(v)}" for k, v in vars(self).items()
                          if k != "node" and isinstance(v, (str, bool, list)))
        return f"<{type(self).__name__} {shown}>"


def _name(node):
    """A Name's id, else the expression (a pass put something else there)."""
    return node.id if isinstance(node, gast.Name) else node


def _target(node):
    """The name `target = ...` or `target op= ...` binds."""
    return _name(node.target if isinstance(node, gast.AugAssign) else node.targets[0])


def _arg(k):
    return lambda node: node.value.args[k]


class Reset(Generated):
    """`d = None` (`a = b = None` for several): the adjoints are zero from here."""
    targets = Through(lambda node: [_name(t) for t in node.targets])

    def __init__(self, *targets):
        super().__init__(targets=list(targets))


class ZeroBuffer(Generated):
    """`target = cotangent_zeros(like)`: an owned float zero buffer shaped like `like`."""
    target = Through(_target)
    like = Through(lambda node: _name(node.value.args[0]))

    def __init__(self, target, like):
        super().__init__(target=target, like=like)


class Unthunk(Generated):
    """`target = unthunk(target)`: a deferred cotangent computed."""
    target = Through(_target)

    def __init__(self, target):
        super().__init__(target=target)


class Own(Generated):
    """`target = own(target)`: a buffer the generated code owns (a copy if need be)."""
    target = Through(_target)

    def __init__(self, target):
        super().__init__(target=target)


def _spread_arg(at, at_slice):
    return lambda node: node.value.args[
        at_slice if role_of(node.value.func) == "accumulate_slice" else at]


class Spread(Generated):
    """`target = accumulate_at(buffer, like, index, value)` (or `accumulate_slice(buffer,
    value, like, index)`, `helper`): value added at index into `buffer` (an expression;
    None: zeros shaped like `like`)."""
    target = Through(_target)
    buffer = Through(_arg(0))
    like = Through(lambda node: _name(_spread_arg(1, 2)(node)))
    index = Through(_spread_arg(2, 3))
    value = Through(_spread_arg(3, 1))

    def __init__(self, target, buffer, like, index, value, helper="accumulate_at"):
        super().__init__(target=target, buffer=buffer, like=like, index=index, value=value,
                         helper=helper)


def _slice_target(node):
    return node.targets[0] if isinstance(node, gast.Assign) else node.target


class SliceAdd(Generated):
    """`target[index] += value`, or `target[index] = value` where the region is still
    zero (`fresh`): a slice's cotangent added into an owned buffer."""
    target = Through(lambda node: _name(_slice_target(node).value))
    index = Through(lambda node: _slice_target(node).slice)
    value = Through(lambda node: node.value)

    def __init__(self, target, index, value, fresh=False):
        super().__init__(target=target, index=index, value=value, fresh=fresh)


def _split(written_out, split):
    """A SplitStore's field off its (first) node, written out or not."""
    def read(node):
        if isinstance(node.targets[0], gast.Tuple):
            return split(node)
        return written_out(node)
    return read


class SplitStore(Generated):
    """A store's cotangent split: `part, target = setitem_vjp(target, index, owned)`, or
    written out (`written_out`) `part = target[index].copy(); target[index] = 0`."""
    part = Through(_split(_target, lambda node: _name(node.targets[0].elts[0])))
    target = Through(_split(lambda node: _name(node.value.func.value.value),
                            lambda node: _name(node.targets[0].elts[1])))
    index = Through(_split(lambda node: node.value.func.value.slice, _arg(1)))

    def __init__(self, part, target, index, owned=None, written_out=False):
        super().__init__(part=part, target=target, index=index, owned=owned,
                         written_out=written_out)


def _popped_list(node):
    call = node.value
    return call.args[0] if call.args else call.func.value


class PopEntries(Generated):
    """`lst.pop()` (an append's entry), or `pop_last(lst, extended)` (an extend's),
    dropped: `lst` an expression."""
    lst = Through(_popped_list)
    extended = Through(lambda node: node.value.args[1] if node.value.args else None)

    def __init__(self, lst, extended=None):
        super().__init__(lst=lst, extended=extended)


def _shortened_by(node):
    upper = node.value.slice.upper
    return upper.right.args[0] if isinstance(upper, gast.BinOp) else None


class ShortenList(Generated):
    """`target = target[:-1]` (or `[:len(target) - len(extended)]`): a shorter copy."""
    target = Through(_target)
    extended = Through(_shortened_by)

    def __init__(self, target, extended=None):
        super().__init__(target=target, extended=extended)


class CopyList(Generated):
    """`if target is not None: target = list(target)`: the pullback's own copy."""
    target = Through(lambda node: _name(node.test.left))

    def __init__(self, target):
        super().__init__(target=target)


class ListCotangent(Generated):
    """`target = list_cotangent(target, like)`: one array's cotangent as entries."""
    target = Through(_target)
    like = Through(lambda node: _name(node.value.args[1]))

    def __init__(self, target, like):
        super().__init__(target=target, like=like)


class TapeStart(Generated):
    """`tape = []`."""


class TapeReader(Generated):
    """`pop = tape_reader(tape)` and its end-of-line comment (a marker)."""

    def __init__(self, comment):
        super().__init__(comment=comment)


class RruleCall(Generated):
    """`target, pullback = rule(*args, **keywords)`: a callee's rrule; `prim` and
    `origin_line` are the user's statement's."""
    target = Through(lambda node: _name(node.targets[0].elts[0]))
    pullback = Through(lambda node: _name(node.targets[0].elts[1]))
    rule = Through(lambda node: _name(node.value.func))
    args = Through(lambda node: node.value.args)
    keywords = Through(lambda node: node.value.keywords)

    def __init__(self, target, pullback, rule, args, keywords, prim, origin_line):
        super().__init__(target=target, pullback=pullback, rule=rule, args=args,
                         keywords=keywords, prim=prim, origin_line=origin_line)


class CallPullback(Generated):
    """`target = pullback(cotangent)`: a callee's cotangents (a tuple); `prim` the call's
    that bound the pullback (its RruleCall's: calls binding one name share the
    pullback's name, and the plain lowering's split halves are per call)."""
    target = Through(_target)
    pullback = Through(lambda node: _name(node.value.func))
    cotangent = Through(lambda node: _name(node.value.args[0]))

    def __init__(self, target, pullback, cotangent, prim=None):
        super().__init__(target=target, pullback=pullback, cotangent=cotangent, prim=prim)


class CopyBeforeStore(Generated):
    """`target = target.copy()`: the backward sweep reads the old array."""
    target = Through(_target)

    def __init__(self, target):
        super().__init__(target=target)


class Unview(Generated):
    """`target = unviewed(target)`: a view's own copy."""
    target = Through(_target)

    def __init__(self, target):
        super().__init__(target=target)


class Bind(Generated):
    """`target = value`: a cotangent kept under a name."""
    target = Through(_target)
    value = Through(lambda node: node.value)

    def __init__(self, target, value):
        super().__init__(target=target, value=value)


# Added by the optimiser (stage 7) to the lowered pullback, built typed and lowered
# where they go (`lower_gast.lowered`).

class Scale(Generated):
    """`target *= factor`: a loop-invariant factor applied once (HoistFactors)."""
    target = Through(_target)
    factor = Through(lambda node: _name(node.value))

    def __init__(self, target, factor):
        super().__init__(target=target, factor=factor)


class ReuseBuffer(Generated):
    """`target = reused_cotangent(target, like)`: the owned buffer a cut cotangent came
    from, kept (ReuseCutBuffers)."""
    target = Through(_target)
    like = Through(lambda node: _name(node.value.args[1]))

    def __init__(self, target, like):
        super().__init__(target=target, like=like)


class ProductSum(Generated):
    """`target = MatmulLhsSum(like)`: a batch of a loop's outer products (BatchProducts)."""
    target = Through(_target)
    like = Through(lambda node: _name(node.value.args[0]))

    def __init__(self, target, like):
        super().__init__(target=target, like=like)


class AddProduct(Generated):
    """`batch.method(*args)`: one iteration's outer product into the batch (`method`
    "add", "add_item" or "add_row")."""
    batch = Through(lambda node: _name(node.value.func.value))
    args = Through(lambda node: node.value.args)

    def __init__(self, batch, method, args):
        super().__init__(batch=batch, method=method, args=list(args))


class Comment(Statement):
    """A comment marker (Compilation.comment, .note, .end_comment): its node."""


def not_none(name):
    """The test `name is not None`."""
    return gast.Compare(left=load(name), ops=[gast.IsNot()], comparators=[const(None)])


def typed_if(test, body, orelse=()):
    """A typed `if test: body else: orelse` the sweep made (its node takes the lowered
    bodies)."""
    return If(gast.If(test=test, body=[], orelse=[]), list(body), list(orelse))


def typed_for(target, iterator, body):
    """A typed `for target in iterator: body` the sweep made."""
    node = gast.For(target=target, iter=iterator, body=[], orelse=[], type_comment=None)
    return For(node, list(body), [])


def pass_if_empty(body):
    """`body`, or a typed `pass` for an empty one."""
    return body or [Pass(gast.Pass())]


def _shown(value):
    """A field as its repr, gast operands as their source (a repr never shows an address:
    tests use it as their id, and pytest-xdist's workers must collect the same ids)."""
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, gast.AST):
        return gast.unparse(value).strip()
    return repr(value)
