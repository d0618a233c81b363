"""Slices, joins and item writes in rules specialised to argument shapes (issue 19).

Literal slice bounds stay literals, the shapes of literal slices and of
concatenate/stack of a list display are known, a slice read adds its cotangent into
a buffer the generated code owns, and a join's cotangent is slices of g. The source
facts are checked on the heat equation; every program runs against finite
differences under every policy, with read-only arguments and cotangents (nothing the
generated code did not allocate is written).
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import vjp
from transform.api import _wrt_names, compiled, signature_of


def heat(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)


def heat_copy(u, k, steps):
    for _ in range(steps):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u ** 2)


def specialised(fn, wrt, args):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, "loop", signature=signature_of(args)).source


HEAT_ARGS = (np.linspace(0.0, 1.0, 12) ** 2, 0.2, 3)


def test_heat_keeps_no_shapes_and_no_constants_on_the_tape():
    text = specialised(heat, ("u", "k"), HEAT_ARGS)
    assert "shape_only" not in text and "= -1" not in text and "= -2" not in text
    assert text.count("tape.append(") == 1          # lap (u: only its last value is read)
    assert "unbroadcast(" not in text and "dk += np.vdot(" in text      # k's: one dot
    assert "product_or_repeat" not in text          # 2 * t of arrays multiplies


def test_heat_slice_reads_add_into_an_owned_buffer():
    # without the pass that then keeps du itself (session 32: test_reused_buffers.py)
    from tests.golden.golden import optimiser
    from transform.optimize.optimize import FINISH, PASSES
    with optimiser([p for p in PASSES + FINISH if repr(p) != "ReuseCutBuffers"]):
        text = specialised(heat, ("u", "k"), HEAT_ARGS)
    assert "getitem_vjp" not in text and "accum_eager" not in text
    # the first read allocates float zeros and writes its cotangent (no helper call)
    assert "du = cotangent_zeros(u)" in text and "du[-1:] = dt10" in text
    assert "accumulate_at(" not in text
    assert "du[1:-1] += " in text                   # an owned buffer: the add written out


def test_heat_copy_item_write_needs_no_unbroadcast():
    text = specialised(heat_copy, ("u", "k"), HEAT_ARGS)
    assert "shape_only" not in text and "unbroadcast(dun_part1, " not in text
    assert "accum_eager" not in text and "unstack_vjp" not in text     # u.copy(): g itself
    assert "du += dun" in text and "if dun_part1 is not None" not in text   # never None


def test_general_rule_keeps_the_safe_forms():
    names, _ = _wrt_names(heat, ("u", "k"))
    text = compiled(heat, names, "loop").source     # no shapes known
    # its slice reads decide when they run (accumulate_slice: in place, or getitem_vjp)
    assert "accumulate_at(None" not in text and "accumulate_slice(" in text


# ---- gradients -------------------------------------------------------------------------
def two_d(A, w):
    inner = A[1:, :-1] * w + A[:-1, 1:]
    return np.sum(np.concatenate([inner, A[:1, :-1]], axis=0) ** 2)


def strided(x):
    return np.sum(x[::2] * x[1::2]) + np.sum(x[::-1][:3] * x[-3:])


def read_twice(x):
    return np.sum(x[1:4] * x[1:4]) + np.sum(x[2:] ** 3)


def stacked(x, y):
    s = np.stack([x[1:], y[:-1]], axis=1)
    return np.sum(np.tanh(s) * np.arange(s.size).reshape(s.shape))


def broadcast_write(u, c):
    un = u.copy()
    un[1:-1] = c                       # a number spread over the slice
    un[:2] = u[3:4] * un[:2]           # a (1,) value broadcast into two entries
    return np.sum(un * u)


def constant_fill(u):
    w = u.copy()
    w[1:-1] = 0.5                      # a literal: no cotangent flows to it
    w[0] = 2.0
    return np.sum(w * u)


def list_slices(xs):
    ys = xs[1:-1]
    return np.sum(ys[0] * ys[-1]) + np.sum(xs[0])


def passthrough_first(u):
    return u * 2.0 + np.concatenate([u[1:], u[:1]])


def slice_loop(u, n):
    total = 0.0
    for _ in range(n):
        total = total + np.sum(u[1:] * u[:-1])
        u = np.concatenate([u[-1:], u[:-1]]) * 0.9
    return total


CASES = [
    (heat, HEAT_ARGS, (0, 1)),
    (heat_copy, HEAT_ARGS, (0, 1)),
    (two_d, (rng("two_d").normal(size=(4, 5)), 0.7), (0, 1)),
    (strided, (rng("strided").normal(size=10),), (0,)),
    (read_twice, (rng("read_twice").normal(size=6),), (0,)),
    (stacked, (rng("stacked", 1).normal(size=5), rng("stacked", 2).normal(size=5)), (0, 1)),
    (broadcast_write, (rng("broadcast_write").normal(size=6), 0.4), (0, 1)),
    (constant_fill, (rng("constant_fill").normal(size=6),), (0,)),
    (list_slices, ([rng("list", k).normal(size=3) for k in range(4)],), (0,)),
    (passthrough_first, (rng("passthrough").normal(size=5),), (0,)),
    (slice_loop, (rng("slice_loop").normal(size=6), 4), (0,)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_against_finite_differences(fn, args, wrt, policy):
    check_function(fn, list(args), wrt if len(wrt) > 1 else wrt[0], policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_read_only_cotangent_is_never_written(policy):
    u = rng("cotangent").normal(size=5)
    g = rng("cotangent", 1).normal(size=5)
    g.flags.writeable = False
    _, pullback = vjp(passthrough_first, u, policy=policy)
    (du,) = pullback(g)
    expected = 2.0 * g + np.concatenate([g[-1:], g[:-1]])
    np.testing.assert_allclose(du, expected, rtol=1e-12)
