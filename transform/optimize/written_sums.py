"""Optimization: where shapes are known, an unbroadcast is written out as the sum it does.

    dt26 = unbroadcast(dt27 * t25, t26)    t26 16x16x1  ->  (dt27 * t25).sum(axis=2, keepdims=True)
    dt17 = unbroadcast(dd, t17)            t17 16x1x3   ->  dd.sum(axis=1, keepdims=True)
    dt24 = unbroadcast(g, t24)             t24 1x16x1, g 2x16x16x3
        ->  g.sum(axis=(0, 1, 3), keepdims=True).reshape((1, 16, 1))

`unbroadcast` finds at run time which axes to sum; in a loop over small arrays its
Python overhead costs about as much as the sum. With the shapes of both operands known
(transform/optimize/expr_shapes.py), the sum is written out: the leading axes the
operand lacks and its size-1 axes the cotangent has wider, nothing when the shapes are
equal. Only in a rule that already assumes real arguments (it makes no complex value,
transform/analysis/complex_seeds.py, and refuses a complex argument because a rule for
real values in it went unguarded or a scalar stood in for a shape): unbroadcast takes
the real part of a complex cotangent of a real operand, a sum does not. A scalar
operand (shape ()) keeps its unbroadcast (a Python number's cotangent is a number).
"""
import gast

from .expr_shapes import ExprShapes, parents_of, replace_child
from .passes import Pass
from .typed_expressions import rewrite_expressions
from ..ir.statements import Accumulate
from ..ir.typed_names import typed_statements
from ..ir.nodes import const, walk
from ..ir.recognize import is_call


# ---- unbroadcast, written out ---------------------------------------------------------
def summed_axes(g, x):
    """(axes g has in front of x's, x's size-1 axes g has wider) for a cotangent of
    shape g of an operand of shape x that broadcast to it; None if it did not."""
    if g is None or not x or len(g) < len(x):
        return None
    lead = len(g) - len(x)
    if any(n != 1 and n != g[lead + k] for k, n in enumerate(x)):
        return None
    return tuple(range(lead)), tuple(lead + k for k, n in enumerate(x)
                                      if n == 1 and g[lead + k] != 1)


def _axis_node(axes):
    if len(axes) == 1:
        return const(axes[0])
    return gast.Tuple(elts=[const(a) for a in axes], ctx=gast.Load())


def _method(value, name, args, keywords=()):
    func = gast.Attribute(value=value, attr=name, ctx=gast.Load())
    return gast.Call(func=func, args=list(args),
                     keywords=[gast.keyword(arg=k, value=v) for k, v in keywords])


def written_sum(g, x, lead, kept):
    """The expression summing `g` (a node) to shape `x` over the given axes."""
    if not kept:
        return _method(g, "sum", [], [("axis", _axis_node(lead))])
    summed = _method(g, "sum", [], [("axis", _axis_node(lead + kept)),
                                    ("keepdims", const(True))])
    if not lead:
        return summed
    shape = gast.Tuple(elts=[const(n) for n in x], ctx=gast.Load())
    return _method(summed, "reshape", [shape])


def write_out_unbroadcasts(root, shapes):
    """Replace each `unbroadcast(g, x)` below root whose shapes are known (root itself
    only if it has a parent: never); how many."""
    parents, done = parents_of(root), 0
    for call in [n for n in walk(root) if is_call(n, "unbroadcast")]:
        if not 2 <= len(call.args) <= 3 or type(call.args[1]) is not gast.Name or \
                id(call) not in parents:
            continue
        x = shapes.name(call.args[1].id)
        axes = summed_axes(shapes.of(call.args[0]), x)
        if axes is None:
            continue
        g = call.args[0]
        new = written_sum(g, x, *axes) if axes[0] or axes[1] else g
        replace_child(parents[id(call)], call, new)
        done += 1
    return done


class WriteOutUnbroadcasts(Pass):
    """`unbroadcast(g, x)` of known shapes as the sum it does (module docstring).

    Typed (session 39): in the gast operands of the typed pullback body before it is
    lowered (rewrite_expressions), but an `Accumulate` "accumulate_unbroadcast", whose
    value `unbroadcast(c, x)` lowers to `accumulate_unbroadcast(d, c, x)`: only below
    its root, as the gast pass saw it."""
    phase = "typed"
    needs = ("shape_of", "primal_of", "real_arguments")

    def applies(self, facts):
        return facts.real_arguments

    def run(self, facts):
        shapes = ExprShapes(facts.shape_of, facts.primal_of)
        kept = {id(s.value) for s in typed_statements(facts.backward)
                if isinstance(s, Accumulate) and s.node is None
                and s.mode == "accumulate_unbroadcast"}
        rewrite_expressions(facts.backward, _WrittenOut(shapes, kept))


class _WrittenOut:
    """write_out_unbroadcasts for rewrite_expressions: the root too, unless kept."""

    def __init__(self, shapes, kept):
        self.shapes, self.kept = shapes, kept

    def visit(self, root):
        if id(root) in self.kept:
            write_out_unbroadcasts(root, self.shapes)
            return root
        holder = gast.Expr(value=root)
        write_out_unbroadcasts(holder, self.shapes)
        return holder.value
