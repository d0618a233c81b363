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
out (`du[1:-1] += dt2`): what `accumulate_at`'s first branch does, without the call and
the `np.s_` index object. A complex cotangent for a real buffer needs the helper
(runtime/accumulate.py: its real part, or the buffer made complex).
"""
import gast

from ..analysis.accumulation import Form
from ..analysis.index_shapes import literal_index
from ..analysis.shapes import shape_of
from ..ir import templates
from ..ir.nodes import assign, const, load


def adds_in_place(rev, inputs, state, index):
    """Whether the read `x[index]` adds its cotangent into x's adjoint in place."""
    if rev.lp.policy != "loop" or len(inputs) != 1:
        return False
    name = inputs[0][1]
    if rev.crossing(name):
        return True
    form = state.form(rev.ctx.adjoint(name))
    return isinstance(index, (gast.Slice, gast.Tuple)) and form.owned and \
        not form.thunk and not form.container and not rev.lp.defers(bool(rev.loops)) \
        and shape_of(rev.ctx.shapes.cls.get(name)) is not None


def slice_add(rev, name, index, g, state):
    """The statement adding cotangent `g` of `name[index]` into name's adjoint."""
    da = rev.ctx.adjoint(name)
    form = state.form(da)
    state[da] = Form("no", False, True)
    if form.zero == "no" and form.owned and not form.thunk and not form.container \
            and shape_of(rev.ctx.shapes.cls.get(name)) and literal_index(index) is not None \
            and not rev.ctx.shapes.may_complex:
        target = gast.Subscript(value=load(da), slice=templates.clone(index), ctx=gast.Store())
        return [gast.AugAssign(target=target, op=gast.Add(), value=g)]
    buffer = const(None) if form.zero == "yes" else load(da)
    value = templates.as_value(rev.ctx.names, index)
    return [assign(da, rev.call("accumulate_at", buffer, load(name), value, g))]



def axes_view(rev, prim, g):
    """`q[:, None, :]` only adds axes of length 1 to an array of known shape: the
    cotangent is the view `g[:, 0, :]` (no zeros, no scatter), else None."""
    index, x = prim.inputs.get("index"), prim.inputs.get("x")
    shape = shape_of(rev.ctx.shapes.cls.get(getattr(x, "id", None)))
    if not isinstance(index, gast.Tuple) or rev.ctx.shapes.may_complex or not shape:
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
    return gast.Subscript(value=templates.clone(g), slice=gast.Tuple(elts=back, ctx=gast.Load()),
                          ctx=gast.Load())
