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

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform.api import _wrt_names, compiled, signature_of


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


@pytest.mark.parametrize("policy", POLICIES)
def test_a_python_number_cotangent_of_a_full_sum_by_axis(policy):
    # np.sum(x * y, axis=0) of vectors is a scalar: its spread is no view (1.0[None] fails)
    from transform import vjp
    x, y = _pos(rng("axis0", 1), 4), _pos(rng("axis0", 2), 4)
    _, pullback = vjp(dot_by_axis0, x, y, policy=policy)
    dx, dy = pullback(1.0)
    np.testing.assert_allclose(np.asarray(dx), y)
    np.testing.assert_allclose(np.asarray(dy), x)


def test_unbroadcast_of_a_forced_thunk_is_written_out():
    fn, wrt, args = _args(0)
    text = pullback_of(specialised(fn, wrt, args, "flat"))
    assert "unthunk(dd).sum(axis=1, keepdims=True)" in text
