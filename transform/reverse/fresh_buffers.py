"""Stage 6, reverse: contributions that are buffers no other name holds, so the adjoint
they start may be updated in place (`Form.owned`) without a copy first.

    du = unreduce(dy, t, None, False) * 2 * u    a new array of u's shape: du owned
    (u = un)  dun = du                            du moved (reset right after): dun owned

Fresh: an arithmetic operator (`+ - * / **`) one of whose operands (or theirs, down a
chain of such operators) is certainly an array of the very shape of the array the adjoint
belongs to: a name the shape analysis knows an array of that shape (never a scalar), or
`unreduce(g, x, None, False)` of such an x. NumPy then returns a new array, never an
operand or a view of one; the other operands (cotangents, numbers) broadcast to that
shape as a cotangent does to its value's. Not fresh: a call's result (a rule's output may
be its input or a view), a name alone (two names would share the buffer), a matrix
product, a result whose arrays the analysis cannot size.

Moved: the cotangent of a copy `u = un` where u's adjoint is an owned array buffer
(certainly not None, not a Thunk, not a list of entries) and is reset right after (u is
assigned again): the buffer changes names, no copy needed.

Cut from an owned buffer (`owned_cuts`): a join's cotangent cut into views of such a
buffer (`dt6 = du[0:1]`) is marked, so the optimiser may keep the buffer where the views
would be written back into fresh zeros (transform/optimize/reused_buffers.py).
"""
import gast

from ..analysis.joins import cut_contributions
from ..analysis.shapes import shape_of
from ..ir.recognize import is_call

_ARITHMETIC = (gast.Add, gast.Sub, gast.Mult, gast.Div, gast.Pow)


def fresh_array(expr, classes, name):
    """Whether `expr` certainly makes a new array shaped like `name` (a primal name)."""
    return isinstance(expr, gast.BinOp) and \
        shape_of(classes.get(name)) in array_shapes(expr, classes)   # never () or None


def array_shapes(expr, classes):
    """Shapes of the arrays (ndim >= 1) `expr`'s arithmetic certainly applies to."""
    if isinstance(expr, gast.Name):
        shape = shape_of(classes.get(expr.id))
        return {shape} if shape else set()
    if isinstance(expr, gast.BinOp):
        if not isinstance(expr.op, _ARITHMETIC):
            return set()
        return array_shapes(expr.left, classes) | array_shapes(expr.right, classes)
    if _is_unreduce(expr):                  # np.full or np.broadcast_to: x's shape
        return array_shapes(expr.args[1], classes)
    return set()


def _is_unreduce(expr):
    """`unreduce(g, x, None, False)`: an array of x's shape."""
    return is_call(expr, "unreduce") and len(expr.args) == 4 and \
        isinstance(expr.args[1], gast.Name) and \
        all(isinstance(a, gast.Constant) for a in expr.args[2:]) and \
        expr.args[2].value is None and expr.args[3].value is False


def moved(form, reset):
    """Whether a copy's cotangent, adjoint of `form`, moves to its source's adjoint."""
    return reset and form.zero == "no" and form.owned and not form.thunk and \
        not form.container


def owned_cuts(rev, cuts, g, form, target):
    """The contributions of a join cut into its parts (analysis/joins.py), each view
    marked where d, the adjoint of `target`, is certainly an array buffer this code owns
    (computed at once, target of known shape): `dt6 = du[0:1]` gets `owned_cut = (256,)`,
    and transform/optimize/reused_buffers.py may then write into du once no view is read
    any more."""
    values = cut_contributions(cuts, g, rev.act.is_active)
    shape = shape_of(rev.ctx.shapes.cls.get(target))
    if shape and form.zero == "no" and form.owned and not form.thunk and \
            not form.container and not rev.lp.defers(bool(rev.loops)):
        for value in values:
            value[1].owned_cut = tuple(shape)
    return values
