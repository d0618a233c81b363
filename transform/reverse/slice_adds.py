"""Stage 6, reverse: a slice read's cotangent added in place into its array's adjoint.

    t2 = u[1:-1]        du = accumulate_at(None, u, np.s_[1:-1], dt2)   (du zero here)
                        du[1:-1] += dt2                                 (du a buffer we own)

`x[i]` read in a loop, x's adjoint an owned buffer: add at i, no full-size zeros. Also
`x[1:-1]` where contributions are computed at once (not deferred) and x is an array of
known shape whose adjoint is zero or a buffer this code owns: the first read allocates it
(`accumulate_at(None, ...)`), later ones add into their slice. (An integer index keeps
`getitem_vjp`, which the optimiser may turn into a row update of a matrix product.)

Where the adjoint is certainly an array buffer the code owns (x of known, non-scalar
shape), the index a literal basic index and no value may be complex, the add is written
out (`du[1:-1] += dt2`, behind `if dt2 is not None` for a name: a rule may hand back None
for a zero cotangent, which accumulate_at skips): what `accumulate_at`'s first branch
does, without the call and the `np.s_` index object. A complex cotangent for a real
buffer needs the helper (runtime/accumulate.py: its real part, or the buffer made
complex).
"""
import gast

from ..analysis.accumulation import Form
from ..analysis.index_shapes import indexing_rule, literal_index
from ..analysis.shapes import shape_of
from ..ir import generated as gen
from ..ir import templates
from ..ir.nodes import const, load


def adds_in_place(rev, inputs, state, index):
    """Whether the read `x[index]` adds its cotangent into x's adjoint in place."""
    if rev.lp.policy != "loop" or len(inputs) != 1:
        return False
    name = inputs[0][1]
    if rev.crossing(name):
        return True
    form = state.form(rev.ctx.adjoint(name))
    if not isinstance(index, (gast.Slice, gast.Tuple)) or not form.owned or form.thunk \
            or rev.lp.defers(bool(rev.loops)):
        return False
    if shape_of(rev.ctx.shapes.cls.get(name)) is not None:
        return not form.container
    # the general rule (no argument shapes): accumulate_slice decides when it runs. Not
    # for an adjoint an outer loop accumulates across iterations (whose `dx += c` would
    # not know dx may be a list: `container` is not checked there)
    return rev.ctx.signature is None and not any(
        name not in loop.assigned or name in loop.inplace for loop in rev.loops)


def slice_add(rev, name, index, g, state):
    """The statement adding cotangent `g` of `name[index]` into name's adjoint."""
    da = rev.ctx.adjoint(name)
    form = state.form(da)
    shape = shape_of(rev.ctx.shapes.cls.get(name))
    if shape is None and not rev.crossing(name):
        return general_add(rev, da, name, index, g, state)
    region = index_region(literal_index(index), shape) if shape else None
    if form.zero == "no" and form.owned and not form.thunk and not form.container \
            and shape and literal_index(index) is not None \
            and not rev.ctx.shapes.may_complex and isinstance(g, (gast.Name, gast.BinOp,
                                                                   gast.UnaryOp)):
        written = form.written
        fresh = written is not None and region is not None and \
            all(disjoint(region, w) for w in written)
        state[da] = Form("no", False, True, written=None if written is None or region is None
                         else written | {region})
        # a region still zero (a fresh buffer, written elsewhere only) takes g: 0 + g is g
        add = gen.SliceAdd(da, index, g, fresh)
        if not isinstance(g, gast.Name):            # arithmetic: never None
            return [add]
        # a rule may hand back None for a zero cotangent (sequence_vjp), as accumulate_at
        # takes it: nothing to add
        return [gen.typed_if(gen.not_none(g.id), [add])]
    # accumulate_at(None, ...) allocates zeros and writes g at index: zero elsewhere
    first = form.zero == "yes" and region is not None and not rev.ctx.shapes.may_complex
    state[da] = Form("no", False, True, written=frozenset({region}) if first else None)
    if first and isinstance(g, gast.Name):
        return first_write(rev, da, name, index, g)
    buffer = const(None) if form.zero == "yes" else load(da)
    value = templates.as_value(rev.ctx.names, index)
    return [gen.Spread(da, buffer, name, value, g)]


def general_add(rev, da, name, index, g, state):
    """`dx = accumulate_slice(dx, g, x, np.s_[1:-1])` for x of unknown shape, dx None or
    a value this code owns: in place into dx's slice when the shapes and dtypes seen
    when it runs allow, else `accum_eager(dx, getitem_vjp(...))` (runtime/containers.py).
    Its result is a fresh array or a copied container: owned, never None. (It may be a
    list of entries' cotangents: `container`, which keeps `+=` away from it.)"""
    buffer = const(None) if state.form(da).zero == "yes" else load(da)
    state[da] = Form("no", False, True, container=True)
    value = templates.as_value(rev.ctx.names, index)
    return [gen.Spread(da, buffer, name, value, g, "accumulate_slice")]


def first_write(rev, da, name, index, g):
    """`accumulate_at(None, x, np.s_[1:-1], g)` written out for x of known shape, a
    literal index and no complex value: `dx = cotangent_zeros(x)` (float zeros shaped
    like x, as accumulate_at allocates) and, unless the rule handed back None, `dx[1:-1]
    = g` (0 + g is g; None written into a float array would be NaN)."""
    write = gen.SliceAdd(da, index, load(g.id), fresh=True)
    return [gen.ZeroBuffer(da, name), gen.typed_if(gen.not_none(g.id), [write])]


def split_written_out(rev, prim, d, part, form):
    """For `x[1:-1] = v`, `setitem_vjp(dx, np.s_[1:-1], True)` written out where dx is
    certainly an array buffer this code owns (x of known shape, literal slices only):
    `dx_part = dx[1:-1].copy()` and `dx[1:-1] = 0` (a written-out `gen.SplitStore`);
    else None."""
    index, x = prim.inputs.get("index"), prim.args[0]
    shape = shape_of(rev.ctx.shapes.cls.get(getattr(x, "id", None)))
    at = literal_index(index) if index is not None else None
    if not (shape and form.zero == "no" and form.owned and not form.thunk and
            not form.container and index_region(at, shape) is not None and
            all(isinstance(p, slice) for p in (at if isinstance(at, tuple) else (at,)))):
        return None
    return gen.SplitStore(part, d, index, written_out=True)


def index_region(index, shape):
    """The positions a literal basic index selects in an array of `shape`, as one
    (start, stop, step) per axis, or None (a new axis, an index out of range)."""
    parts = index if isinstance(index, tuple) else (index,)
    if index is None or len(parts) > len(shape) or any(p is None for p in parts):
        return None
    region = []
    for k, n in enumerate(shape):
        p = parts[k] if k < len(parts) else slice(None)
        if isinstance(p, slice):
            region.append(p.indices(n))
        elif isinstance(p, int) and -n <= p < n:
            region.append((p % n, p % n + 1, 1))
        else:
            return None
    return tuple(region)


def disjoint(a, b):
    """Whether two regions (index_region) share no position: along some axis their
    ranges share none."""
    for ra, rb in zip(a, b):
        ra, rb = range(*ra), range(*rb)
        if not ra or not rb:
            return True
        if ra.step == rb.step == 1:
            if max(ra.start, rb.start) >= min(ra.stop, rb.stop):
                return True
        elif len(ra) * len(rb) <= 1 << 16 and not set(ra) & set(rb):
            return True
    return False


def axes_view(rev, prim, g):
    """`q[:, None, :]` only adds axes of length 1 to an array of known shape: (the
    cotangent, the view `g[:, 0, :]` (no zeros, no scatter), whether it may be None), or
    None."""
    index, x = prim.inputs.get("index"), prim.inputs.get("x")
    shape = shape_of(rev.ctx.shapes.cls.get(getattr(x, "id", None)))
    if not isinstance(index, gast.Tuple) or rev.ctx.shapes.may_complex or not shape or \
            not (never_none(g) or isinstance(g, gast.Name)):
        return None
    back = []
    for e in index.elts:
        if isinstance(e, gast.Constant) and e.value is None:
            back.append(const(0))
        elif isinstance(e, gast.Slice) and e.lower is e.upper is e.step is None:
            back.append(gast.Slice(lower=None, upper=None, step=None))
        else:
            return None
    kept = sum(isinstance(e, gast.Slice) for e in back)
    if kept > len(shape) or kept == len(back):
        return None
    view = gast.Subscript(value=templates.clone(g), slice=gast.Tuple(elts=back, ctx=gast.Load()),
                          ctx=gast.Load())
    if never_none(g):
        return view, False
    # a name may hold None (a rule's zero cotangent): zeros shaped like x then, as
    # getitem_vjp gives (`g[:, 0, :] if g is not None else np.zeros(q.shape, q.dtype)`)
    test = gast.Compare(left=load(g.id), ops=[gast.IsNot()], comparators=[const(None)])
    zeros = gast.Call(func=gast.Attribute(value=rev.ctx.names.ref("np"), attr="zeros",
                                          ctx=gast.Load()),
                      args=[gast.Attribute(value=load(x.id), attr=a, ctx=gast.Load())
                            for a in ("shape", "dtype")], keywords=[])
    return gast.IfExp(test=test, body=view, orelse=zeros), False


def never_none(expr):
    """Whether `expr` certainly is not None: arithmetic, or `unbroadcast`/`unreduce` of
    arithmetic (a rule may hand back None for a zero cotangent, which getitem_vjp takes)."""
    if isinstance(expr, (gast.BinOp, gast.UnaryOp)):
        return True
    return isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) and \
        expr.func.id.startswith(("unbroadcast", "unreduce")) and bool(expr.args) and \
        never_none(expr.args[0])


def fills_index(rev, prim):
    """`x[1:-1] = v` with v of x[1:-1]'s known shape: nothing to unbroadcast."""
    x, index, value = prim.args[0], prim.inputs.get("index"), prim.args[1]
    rule = indexing_rule(index) if index is not None else None
    classes = rev.ctx.shapes.cls
    x_shape = shape_of(classes.get(getattr(x, "id", None)))
    v_shape = shape_of(classes.get(getattr(value, "id", None)))
    if rule is None or x_shape is None or v_shape is None:
        return False
    try:
        return rule(x_shape) == v_shape
    except (IndexError, ValueError):
        return False
