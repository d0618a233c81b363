"""The pieces of transform/optimize/written_sums.py, spread_views.py and expr_shapes.py
on their own, on small hand-written pullbacks whose helper names carry the compiler's
role mark (tests/optimize/test_written_sums.py runs them inside the compiler)."""
import ast

import gast
import pytest

from transform.optimize.expr_shapes import ExprShapes, parents_of, replace_child
from transform.optimize.spread_views import literal_axes
from transform.optimize.spread_views import spread_views as _spread_views
from transform.optimize.written_sums import summed_axes, write_out_unbroadcasts


# ---- the pieces, on their own -------------------------------------------------------------
@pytest.mark.parametrize("g,x,want", [
    ((3, 4), (3, 4), ((), ())),
    ((3, 4), (3, 1), ((), (1,))),
    ((3, 4), (1, 1), ((), (0, 1))),
    ((2, 3, 4), (3, 1), ((0,), (2,))),
    ((2, 3, 4), (4,), ((0, 1), ())),
    ((3, 0), (3, 1), ((), (1,))),          # an empty axis is widened (summed to zeros)
    ((3, 4), (2, 4), None),                # not a broadcast
    ((3,), (2, 3), None),                  # x wider than g
    ((3, 4), (), None),                    # a scalar keeps its unbroadcast
    (None, (3,), None),
])
def test_summed_axes(g, x, want):
    assert summed_axes(g, x) == want


@pytest.mark.parametrize("text,ndim,want", [
    ("1", 3, (1,)), ("-1", 3, None), ("(0, 2)", 3, (0, 2)), ("(2, 0)", 3, (0, 2)),
    ("(0, -3)", 3, None), ("3", 3, None), ("None", 3, None), ("x", 3, None),
])
def test_literal_axes(text, ndim, want):
    node = gast.parse(text).body[0].value
    if text == "-1":                        # the normalizer's form of -1 is Constant(-1)
        node = gast.Constant(value=-1, kind=None)
        want = (2,)
    if text == "(0, -3)":
        node.elts[1] = gast.Constant(value=-3, kind=None)
        want = None                          # -3 is axis 0 again: repeated
    assert literal_axes(node, ndim) == want


class _GastTree:
    """A hand-written pullback as SpreadViews' Views reads the lowered one
    (optimize/lowered_reads.py): its root, parents, every node writable in place."""

    def __init__(self, root):
        self.root, self.parents = root, parents_of(root)

    def writable(self, node):
        return True

    def put(self, parent, old, new):
        replace_child(parent, old, new)


def spread_views(tree, shapes):
    return _spread_views(_GastTree(tree), shapes)


def _marked(text):
    """A parsed pullback whose helper names carry the compiler's role mark."""
    tree = gast.parse(text).body[0]
    for n in gast.walk(tree):
        if isinstance(n, gast.Name) and n.id in ("unreduce", "unbroadcast"):
            n.role = n.id
    return tree


def test_two_views_never_rely_on_each_other():
    """dx * dy is 4x3 with at most one of them a 1x3 view: the first is taken, the
    second (which would make the product 1x3) is not."""
    tree = _marked("def pullback(g1, g2):\n"
                   "    dx = unreduce(g1, x, 0, False)\n"
                   "    dy = unreduce(g2, y, 0, False)\n"
                   "    return np.sum(dx * dy)\n")
    shapes = {"x": (4, 3), "y": (4, 3), "g1": (3,), "g2": (3,)}
    primal = {"dx": "x", "dy": "y"}
    assert spread_views(tree, ExprShapes(shapes.get, primal)) == 1
    text = ast.unparse(gast.gast_to_ast(tree))
    assert "dx = g1[None, :]" in text and "dy = unreduce(g2, y, 0, False)" in text


def test_a_view_needs_g_of_the_reduced_shape():
    tree = _marked("def pullback(g):\n"
                   "    return np.sum(unreduce(g, x, 1, False) * x)\n")
    for g_shape, applied in (((4,), 1), ((1,), 0), (None, 0)):
        t = _marked(ast.unparse(gast.gast_to_ast(tree)))
        shapes = {"x": (4, 3), "g": g_shape}
        assert spread_views(t, ExprShapes(shapes.get, {})) == applied


def _views(text, shapes, primal=None):
    tree = _marked(text)
    return spread_views(tree, ExprShapes(shapes.get, primal or {})), \
        ast.unparse(gast.gast_to_ast(tree))


def test_a_name_bound_otherwise_too_keeps_its_spread():
    # `dx += w` would write into the view, that is into g
    done, text = _views("def pullback(g, w):\n"
                        "    dx = unreduce(g, x, 0, False)\n"
                        "    dx += w\n"
                        "    return np.sum(dx * y)\n",
                        {"x": (4, 3), "y": (4, 3), "g": (3,), "w": (4, 3)}, {"dx": "x"})
    assert done == 0 and "unreduce(g, x, 0, False)" in text


def test_a_spread_of_another_shape_than_its_name_stays():
    # dx is x's adjoint (1x3) but holds the spread over z (5x3): the reads' shapes would
    # be judged against x's
    done, _ = _views("def pullback(g):\n"
                     "    dx = unreduce(g, z, 0, False)\n"
                     "    return np.sum(dx * y)\n",
                     {"x": (1, 3), "z": (5, 3), "y": (5, 3), "g": (3,)}, {"dx": "x"})
    assert done == 0


@pytest.mark.parametrize("body", ["    return dx\n", "    return f(dx) * y\n",
                                  "    return np.sum(dx[0] * y)\n"])
def test_a_view_of_the_full_shape_still_only_feeds_arithmetic(body):
    # x 4x1 summed over its axis 1: the view g[:, None] is 4x1 already, but writable
    # and g's memory; handed on, something may write into it
    done, _ = _views("def pullback(g):\n    dx = unreduce(g, x, 1, False)\n" + body,
                     {"x": (4, 1), "y": (4, 1), "g": (4,)}, {"dx": "x"})
    assert done == 0
    done, _ = _views("def pullback(g):\n    return " + body.split("return ")[1]
                     .replace("dx", "unreduce(g, x, 1, False)"),
                     {"x": (4, 1), "y": (4, 1), "g": (4,)})
    assert done == 0




@pytest.mark.parametrize("text,want", [
    ("a * b", (3, 4)), ("-a + 2.0", (3, 1)), ("a ** b / 2", (3, 4)), ("+b", (1, 4)),
    ("a @ b", None), ("a // b", None), ("a % b", None), ("~a", None), ("not a", None),
    ("a * c", None), ("f(a)", None), ("'s'", None), ("a * (3, 5)", None),
])
def test_expression_shapes(text, want):
    node = gast.parse(text).body[0].value
    shapes = {"a": (3, 1), "b": (1, 4), "c": (2, 5)}
    assert ExprShapes(shapes.get, {}).of(node) == want


@pytest.mark.parametrize("call", ["unreduce(g, x, 0, k)", "unreduce(g, x, 0)",
                                  "unreduce(g, x, n, False)", "unreduce(g, 2.0, 0, False)"])
def test_spreads_not_written_literally_stay(call):
    done, _ = _views(f"def pullback(g, k, n):\n    return np.sum({call} * y)\n",
                     {"x": (4, 3), "y": (4, 3), "g": (3,)})
    assert done == 0


@pytest.mark.parametrize("call,done", [("unbroadcast(g, x)", 1), ("unbroadcast(g, x, 1)", 1),
                                       ("unbroadcast(g)", 0), ("unbroadcast(g, x, 1, 2)", 0),
                                       ("unbroadcast(g, 0.0)", 0)])
def test_unbroadcasts_written_out_only_when_well_formed(call, done):
    tree = _marked(f"def pullback(g):\n    return {call}\n")
    shapes = {"x": (3, 1), "g": (3, 4)}
    assert write_out_unbroadcasts(tree, ExprShapes(shapes.get, {})) == done
