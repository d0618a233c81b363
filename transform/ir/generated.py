"""The typed statements reverse mode generates besides the tape traffic (docs/ir.md),
lowered by ir/lower_generated.py. None keeps a node: the lowering builds it, marking
the runtime helpers' names (the Vocabulary); expressions (values, indices) stay gast.

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
    t_cots = t_pb(dt)               CallPullback target t_cots, pullback t_pb, cotangent dt
    x = x.copy()                    CopyBeforeStore target x
    x = unviewed(x)                 Unview      target x
    t = expr                        Bind        target t, value expr (a cotangent kept)
    # ...                           Comment     the marker node (Compilation.comment)

and the sweep's own branches and loops as `If` and `For` of ir/statements.py (`typed_if`,
`typed_for`), lowered with their bodies.
"""
import gast

from .nodes import const, load
from .statements import For, If, Pass, Statement


class Generated(Statement):
    """A statement reverse mode made; no node until lowered."""

    def __init__(self, **fields):
        super().__init__(None)
        self.__dict__.update(fields)

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in vars(self).items()
                          if k != "node" and isinstance(v, (str, bool, list)))
        return f"<{type(self).__name__} {shown}>"


class Reset(Generated):
    """`d = None` (`a = b = None` for several): the adjoints are zero from here."""

    def __init__(self, *targets):
        super().__init__(targets=list(targets))


class ZeroBuffer(Generated):
    """`target = cotangent_zeros(like)`: an owned float zero buffer shaped like `like`."""

    def __init__(self, target, like):
        super().__init__(target=target, like=like)


class Unthunk(Generated):
    """`target = unthunk(target)`: a deferred cotangent computed."""

    def __init__(self, target):
        super().__init__(target=target)


class Own(Generated):
    """`target = own(target)`: a buffer the generated code owns (a copy if need be)."""

    def __init__(self, target):
        super().__init__(target=target)


class Spread(Generated):
    """`target = accumulate_at(buffer, like, index, value)` (or `accumulate_slice(buffer,
    value, like, index)`, `helper`): value added at index into `buffer` (an expression;
    None: zeros shaped like `like`)."""

    def __init__(self, target, buffer, like, index, value, helper="accumulate_at"):
        super().__init__(target=target, buffer=buffer, like=like, index=index, value=value,
                         helper=helper)


class SliceAdd(Generated):
    """`target[index] += value`, or `target[index] = value` where the region is still
    zero (`fresh`): a slice's cotangent added into an owned buffer."""

    def __init__(self, target, index, value, fresh=False):
        super().__init__(target=target, index=index, value=value, fresh=fresh)


class SplitStore(Generated):
    """A store's cotangent split: `part, target = setitem_vjp(target, index, owned)`, or
    written out (`written_out`) `part = target[index].copy(); target[index] = 0`."""

    def __init__(self, part, target, index, owned=None, written_out=False):
        super().__init__(part=part, target=target, index=index, owned=owned,
                         written_out=written_out)


class PopEntries(Generated):
    """`lst.pop()` (an append's entry), or `pop_last(lst, extended)` (an extend's),
    dropped: `lst` an expression."""

    def __init__(self, lst, extended=None):
        super().__init__(lst=lst, extended=extended)


class ShortenList(Generated):
    """`target = target[:-1]` (or `[:len(target) - len(extended)]`): a shorter copy."""

    def __init__(self, target, extended=None):
        super().__init__(target=target, extended=extended)


class CopyList(Generated):
    """`if target is not None: target = list(target)`: the pullback's own copy."""

    def __init__(self, target):
        super().__init__(target=target)


class ListCotangent(Generated):
    """`target = list_cotangent(target, like)`: one array's cotangent as entries."""

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

    def __init__(self, target, pullback, rule, args, keywords, prim, origin_line):
        super().__init__(target=target, pullback=pullback, rule=rule, args=args,
                         keywords=keywords, prim=prim, origin_line=origin_line)


class CallPullback(Generated):
    """`target = pullback(cotangent)`: a callee's cotangents (a tuple)."""

    def __init__(self, target, pullback, cotangent):
        super().__init__(target=target, pullback=pullback, cotangent=cotangent)


class CopyBeforeStore(Generated):
    """`target = target.copy()`: the backward sweep reads the old array."""

    def __init__(self, target):
        super().__init__(target=target)


class Unview(Generated):
    """`target = unviewed(target)`: a view's own copy."""

    def __init__(self, target):
        super().__init__(target=target)


class Bind(Generated):
    """`target = value`: a cotangent kept under a name."""

    def __init__(self, target, value):
        super().__init__(target=target, value=value)


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
