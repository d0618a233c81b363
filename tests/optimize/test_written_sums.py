"""Where shapes are known, `unbroadcast(g, x)` is written out as the sum it does
(transform/optimize/written_sums.py) and a partial reduction's spread `unreduce(g, x,
axis, keepdims)` as a view its arithmetic broadcasts (transform/optimize/spread_views.py).
Every program runs against finite differences under every policy, including those where
the rewrites must not apply (shapes unknown, size-1 axes that broadcast and that do not,
keepdims, negative and tuple axes, float32, scalars, a spread accumulated into or passed
on); the specialised sources show which rewrites applied.
"""
import ast
import textwrap

import gast
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform.api import _wrt_names, compiled, signature_of
from transform.optimize.expr_shapes import ExprShapes
from transform.optimize.spread_views import literal_axes, spread_views
from transform.optimize.written_sums import summed_axes


def pair_forces(q, m):
    """N-body accelerations: pair differences, a sum over the last axis, `** -1.5`."""
    d = q[:, None, :] - q[None, :, :]
    inv3 = (np.sum(d ** 2, axis=2) + 0.1) ** -1.5
    a = np.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
    return np.sum(a ** 2)


def leapfrog(q, v, m, dt, steps):
    for _ in range(steps):
        d = q[:, None, :] - q[None, :, :]
        inv3 = (np.sum(d ** 2, axis=2) + 0.01) ** -1.5
        v = v - 0.5 * dt * np.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
        q = q + dt * v
    return np.sum(q ** 2) + np.sum(v ** 2)


def kept_axis(x, y):
    """keepdims: the spread is g itself; s's cotangents sum with kept dims."""
    s = np.sum(x * y, axis=1, keepdims=True) + 3.0
    return np.sum(np.tanh(x / s) ** -0.5 + y * s)


def negative_axis(x, y):
    """`axis=-1` becomes a temporary the shape analysis does not follow: shapes unknown."""
    s = np.sum(x * y, axis=-1, keepdims=True) + 3.0
    return np.sum(np.tanh(x / s) ** 1.5 + y * s)


def tuple_axes(x):
    """A tuple of axes becomes a temporary too: shapes unknown."""
    s = np.sum(x * x, axis=(0, 2)) + 1.0
    return np.sum(np.sin(s ** -0.5)[None, :, None] * x)


def leading_and_kept(a, b):
    """a 3x1 against b 2x3x4: a's cotangent sums axes 0 and 2 and drops the first."""
    return np.sum((a * b + 2.0) ** -0.5)


def size_one_axes(a, b, c, e):
    """a and b 3x1 (equal: no sum), c 1x1 (widened on axis 0 by a, on both by e 3x4)."""
    return np.sum((a * b + c) ** -0.5 + a * c) + np.sum(c * e)


def scalar_operand(x, k):
    """k a float: its cotangent keeps its unbroadcast (a number's cotangent)."""
    return np.sum((k * x[:, None] * x[None, :] + 4.0) ** 0.5)


def spread_returned(x):
    """x's cotangent is the spread itself, returned: no view."""
    return np.sum(np.sum(x, axis=1) ** 1.5)


def spread_accumulated(x):
    """Two spreads of one array add into its adjoint: as views, 1x4 + 3x1 is 3x4."""
    return np.sum((np.sum(x, axis=1) + 2.0) ** 1.5) + np.sum(np.sum(x, axis=0) ** 3)


def spread_in_a_loop(u, k, steps):
    """A spread added to the carried adjoint: `du + dt1[:, None]` is full (loop policy);
    eager hands the spread to accum_eager, a call: no view there."""
    for _ in range(steps):
        u = u + k * np.tanh(np.sum(u, axis=1))[:, None]
    return np.sum(u ** 2)


def spread_indexed(x):
    """With a slice read's cotangent: added to a full array (loop), or handed to
    accum_eager (eager: no view)."""
    s = np.sum(x, axis=0)
    t = x * 1.0
    return np.sum(s ** 2) + np.sum(t[1:] ** 1.5)


def spread_carried(A, steps):
    """A spread accumulated into an adjoint that may still be zero (accum_eager, a call,
    under every policy): no view."""
    B = A * 1.0
    s = 0.0
    for _ in range(steps):
        s = s + np.sum(np.sum(B, axis=0) ** 2)
        B = B * 0.9
    return s


def dot_by_axis0(x, y):
    """A vector summed over its only axis: the scalar seed's spread keeps unreduce (a
    Python number has no `[None]`)."""
    return np.sum(x * y, axis=0)


def complex_inside(x, y):
    """A complex value: unbroadcast keeps taking real parts."""
    z = x[:, None] * (1 + 2j) * y[None, :]
    return np.sum(np.abs(z) ** 2)


def only_products(x, y):
    """No rule assumes real arguments here: the unbroadcasts stay. The spread of the
    sum over axis 1 stays too: with the view (3x1), `dt3 * t1` (t1 = x[:, None], 3x1)
    would be 3x1 where it is 3x4, and its unbroadcast would sum the wrong thing."""
    return np.sum(np.sum(x[:, None] * y[None, :], axis=1) * x)


def _pos(r, *shape):
    return r.uniform(0.5, 1.5, size=shape)


CASES = [
    (pair_forces, lambda r: [r.normal(size=(5, 3)), _pos(r, 5)], (0, 1)),
    (pair_forces, lambda r: [r.normal(size=(4, 3)).astype(np.float32),
                             _pos(r, 4).astype(np.float32)], (0, 1)),
    (leapfrog, lambda r: [r.normal(size=(4, 3)), r.normal(size=(4, 3)), _pos(r, 4),
                          0.01, 3], (0, 1, 2)),
    (kept_axis, lambda r: [_pos(r, 3, 4), _pos(r, 3, 4)], (0, 1)),
    (tuple_axes, lambda r: [r.normal(size=(2, 3, 4))], (0,)),
    (leading_and_kept, lambda r: [_pos(r, 3, 1), _pos(r, 2, 3, 4)], (0, 1)),
    (size_one_axes, lambda r: [_pos(r, 3, 1), _pos(r, 3, 1), _pos(r, 1, 1), _pos(r, 3, 4)],
     (0, 1, 2, 3)),
    (scalar_operand, lambda r: [_pos(r, 4), 0.7], (0, 1)),
    (spread_returned, lambda r: [_pos(r, 3, 4)], (0,)),
    (spread_accumulated, lambda r: [_pos(r, 3, 4)], (0,)),
    (spread_in_a_loop, lambda r: [r.normal(size=(3, 4)), 0.3, 3], (0, 1)),
    (spread_indexed, lambda r: [_pos(r, 3, 4)], (0,)),
    (complex_inside, lambda r: [r.normal(size=3), r.normal(size=4)], (0, 1)),
    (only_products, lambda r: [r.normal(size=3), r.normal(size=4)], (0, 1)),
    (negative_axis, lambda r: [_pos(r, 3, 4), _pos(r, 3, 4)], (0, 1)),
    (spread_carried, lambda r: [r.normal(size=(3, 4)), 3], (0,)),
    (dot_by_axis0, lambda r: [_pos(r, 4), _pos(r, 4)], (0, 1)),
]


def _tolerance(args):
    f32 = any(getattr(a, "dtype", None) == np.float32 for a in args)
    return {"rtol": 2e-3, "atol": 2e-3} if f32 else {}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt", CASES,
                         ids=[f"{c[0].__name__}{k}" for k, c in enumerate(CASES)])
def test_gradients_match_finite_differences(fn, make, wrt, policy):
    args = make(rng("written_sums", fn.__name__))
    check_function(fn, args, wrt if len(wrt) > 1 else wrt[0], policy, **_tolerance(args))


def specialised(fn, wrt, args, policy="loop"):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, policy, signature=signature_of(args))


def pullback_of(rule):
    text = rule.source[rule.source.index("    def pullback"):]
    return text[:text.index("\n    return (")]


def partial_spreads(text):
    """The `unreduce(...)` calls in the source text other than full reductions' (axis None)."""
    tree = ast.parse(textwrap.dedent(text))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and getattr(n.func, "id", None) == "unreduce"
            and not (isinstance(n.args[2], ast.Constant) and n.args[2].value is None)]


def _args(k):
    fn, make, wrt = CASES[k]
    return fn, wrt, make(rng("written_sums", fn.__name__))


@pytest.mark.parametrize("policy", ["loop", "eager"])
def test_pair_forces_sum_and_view_with_no_helper(policy):
    fn, wrt, args = _args(0)
    text = pullback_of(specialised(fn, wrt, args, policy))
    assert "unbroadcast(" not in text
    assert not partial_spreads(text)
    assert ".sum(axis=2, keepdims=True)" in text          # inv3[:, :, None]'s cotangent
    assert ".sum(axis=(0, 2), keepdims=True)" in text     # m[None, :, None]'s
    assert ".sum(axis=1, keepdims=True)" in text and ".sum(axis=0, keepdims=True)" in text
    assert "[:, None, :]" in text and "[:, :, None]" in text       # the two spreads


def test_the_loop_body_calls_neither_helper():
    fn, wrt, args = _args(2)
    text = pullback_of(specialised(fn, wrt, args))
    body = text[text.index("for _ in reversed"):]
    assert "unbroadcast(" not in body and "unreduce(" not in body


def test_keepdims_and_tuple_axes():
    fn, wrt, args = _args(3)
    rule = specialised(fn, wrt, args)
    assert rule.real_arguments
    text = pullback_of(rule)
    assert not partial_spreads(text)                  # g itself: keepdims
    assert ".sum(axis=1, keepdims=True)" in text                   # s's
    fn, wrt, args = _args(4)                    # a tuple of axes: s's shape unknown
    assert partial_spreads(pullback_of(specialised(fn, wrt, args)))


def test_leading_axes_are_summed_away():
    fn, wrt, args = _args(5)
    text = pullback_of(specialised(fn, wrt, args))
    assert ".sum(axis=(0, 2), keepdims=True).reshape((3, 1))" in text


def test_equal_size_one_shapes_need_no_sum():
    fn, wrt, args = _args(6)
    text = pullback_of(specialised(fn, wrt, args))
    assert "unbroadcast(" not in text
    assert ".sum(axis=0, keepdims=True)" in text          # c's from a: 3x1 to 1x1
    assert ".sum(axis=(0, 1), keepdims=True)" in text     # c's from e: 3x4 to 1x1


def test_scalar_operand_keeps_its_unbroadcast():
    fn, wrt, args = _args(7)
    rule = specialised(fn, wrt, args)
    assert rule.real_arguments
    assert "unbroadcast(" in pullback_of(rule) or "vdot(" in pullback_of(rule)


@pytest.mark.parametrize("k,policy", [(8, "loop"), (10, "eager"), (11, "eager"),
                                      (15, "loop"), (15, "eager")])
def test_spreads_not_only_read_by_arithmetic_stay(k, policy):
    fn, wrt, args = _args(k)
    assert partial_spreads(pullback_of(specialised(fn, wrt, args, policy)))


@pytest.mark.parametrize("k", [10, 11])
def test_spreads_added_to_a_full_array_are_views(k):
    fn, wrt, args = _args(k)
    text = pullback_of(specialised(fn, wrt, args))
    assert not partial_spreads(text) and "[:, None]" in text or "[None, :]" in text


def test_two_views_whose_sum_has_the_full_shape():
    fn, wrt, args = _args(9)            # x 3x4: a 4-vector's and a 3-vector's spreads
    text = pullback_of(specialised(fn, wrt, args))
    assert not partial_spreads(text) and "[None, :]" in text and "[:, None]" in text


def test_shapes_unknown_keep_both_helpers():
    fn, wrt, args = _args(0)
    names, _ = _wrt_names(fn, wrt)
    text = pullback_of(compiled(fn, names, "loop"))
    assert "unbroadcast(" in text and partial_spreads(text)
    fn, wrt, args = _args(14)                   # a negative axis: s's shape unknown
    text = pullback_of(specialised(fn, wrt, args))
    assert "unbroadcast(" in text and partial_spreads(text)


def test_complex_values_keep_unbroadcast():
    fn, wrt, args = _args(12)
    assert "unbroadcast(" in pullback_of(specialised(fn, wrt, args))


def test_a_rule_taking_complex_arguments_keeps_unbroadcast():
    fn, wrt, args = _args(13)
    rule = specialised(fn, wrt, args)
    assert not rule.real_arguments               # the rewrite adds no complex refusal
    text = pullback_of(rule)
    assert "unbroadcast(" in text and partial_spreads(text)


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


def test_unbroadcast_of_a_forced_thunk_is_written_out():
    fn, wrt, args = _args(0)
    text = pullback_of(specialised(fn, wrt, args, "flat"))
    assert "unthunk(dd).sum(axis=1, keepdims=True)" in text


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
    from transform.optimize.written_sums import write_out_unbroadcasts
    tree = _marked(f"def pullback(g):\n    return {call}\n")
    shapes = {"x": (3, 1), "g": (3, 4)}
    assert write_out_unbroadcasts(tree, ExprShapes(shapes.get, {})) == done


@pytest.mark.parametrize("policy", POLICIES)
def test_a_python_number_cotangent_of_a_full_sum_by_axis(policy):
    # np.sum(x * y, axis=0) of vectors is a scalar: its spread is no view (1.0[None] fails)
    from transform import vjp
    x, y = _pos(rng("axis0", 1), 4), _pos(rng("axis0", 2), 4)
    _, pullback = vjp(dot_by_axis0, x, y, policy=policy)
    dx, dy = pullback(1.0)
    np.testing.assert_allclose(np.asarray(dx), y)
    np.testing.assert_allclose(np.asarray(dy), x)
