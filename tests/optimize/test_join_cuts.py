"""Joins of a list display cut straight to their parts (transform/analysis/joins.py).

In a rule specialised to argument shapes, `np.concatenate([a, b, c])` and
`np.stack([a, b])` on a literal axis send each part its basic slice of g
(`da = du[0:1]`) instead of `concatenate_vjp` + `list_cotangent` + `part`, and the tape
does not keep the list. Cases where a part could be rebound between the display and
the join, the join is returned, or a shape is unknown keep the rule. Every program
runs against finite differences under every policy.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import vjp
from transform.api import _wrt_names, compiled, signature_of


def specialised(fn, wrt, args, policy="loop"):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, policy, signature=signature_of(args)).source


def general(fn, wrt, policy="loop"):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, policy).source


def heat(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)


def columns(A, w):
    B = np.concatenate([A[:, 1:] * w, A[:, :1]], axis=1)
    return np.sum(np.tanh(B) * A)


def stack_last(x, y):
    s = np.stack((x * y, np.sin(x)), axis=1)
    return np.sum(s[:, 0] * s[:, 1] + s[:, 1] ** 2)


def stack_rows(x, y):
    s = np.stack([x, y, x * y])
    return np.sum(np.cos(s) * np.arange(s.size).reshape(s.shape))


def same_part_twice(x):
    z = np.concatenate([x, x * 2.0, x])
    return np.sum(z * np.arange(z.size))


def grows(x, y, n):
    for _ in range(n):
        x = np.concatenate([x[1:], y * x[:1]]) * 0.9
    return np.sum(x ** 3)


def target_is_a_part(x, y):
    x = np.concatenate([x, y])
    return np.sum(x * x[::-1])


def rebound_between(x, y):
    parts = [x, y]
    x = x * 3.0                        # the list holds the old x
    z = np.concatenate(parts)
    return np.sum(z ** 2) + np.sum(x)


def list_read_twice(x, y):
    parts = [np.sin(x), y]
    z = np.concatenate(parts)
    return np.sum(z ** 2) + np.sum(np.stack(parts) * 0.5)


def nested_joins(x, y):
    a = np.concatenate([x[1:], y])
    b = np.stack([a, a[::-1] * y[0]])
    return np.sum(np.concatenate([b[0], b[1] * 2.0]) ** 2)


def in_a_branch(x, y, flag):
    if flag:
        z = np.concatenate([x * y, y[:2]])
    else:
        z = np.concatenate([y[:2], x])
    return np.sum(z ** 2)


def float32_join(x, y):
    return np.sum(np.concatenate([x, y * np.float32(2.0)]) ** 2)


def returned_join(x, y):
    return np.concatenate([x * 2.0, y])


def inactive_part(x):
    z = np.concatenate([x, np.ones(3)])
    return np.sum(z * z[::-1])


_X, _Y = rng("join", 1).normal(size=4), rng("join", 2).normal(size=4)
CASES = [
    (heat, (np.linspace(0.0, 1.0, 10) ** 2, 0.2, 3), (0, 1)),
    (columns, (rng("columns").normal(size=(3, 4)), 0.7), (0, 1)),
    (stack_last, (_X, _Y), (0, 1)),
    (stack_rows, (_X, _Y), (0, 1)),
    (same_part_twice, (_X,), (0,)),
    (grows, (_X, _Y[:1], 3), (0, 1)),
    (target_is_a_part, (_X, _Y[:3]), (0, 1)),
    (rebound_between, (_X, _Y), (0, 1)),
    (list_read_twice, (_X, _Y), (0, 1)),
    (nested_joins, (_X, _Y[:2]), (0, 1)),
    (in_a_branch, (_X, _Y, True), (0, 1)),
    (in_a_branch, (_X, _Y, False), (0, 1)),
    (float32_join, (_X.astype(np.float32), _Y.astype(np.float32)), (0, 1)),
    (returned_join, (_X, _Y[:2]), (0, 1)),
    (inactive_part, (_X[:3],), (0,)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrt", CASES,
                         ids=[f"{c[0].__name__}{k}" for k, c in enumerate(CASES)])
def test_against_finite_differences(fn, args, wrt, policy):
    tol = {"rtol": 1e-3, "atol": 1e-3} if fn is float32_join else {}
    check_function(fn, list(args), wrt if len(wrt) > 1 else wrt[0], policy, **tol)


@pytest.mark.parametrize("policy", POLICIES)
def test_heat_cuts_its_join(policy):
    text = specialised(heat, ("u", "k"), CASES[0][1], policy)
    for gone in ("concatenate_vjp", "list_cotangent", "part("):
        assert gone not in text
    assert "[1:9]" in text                                                # 10 cells
    # the end parts' views, unless they go back into the buffer they were cut from
    # (session 32: ReuseCutBuffers, tests/optimize/test_reused_buffers.py)
    assert "[0:1]" in text and "[9:10]" in text or \
        policy == "loop" and "du = reused_cotangent(du, u)" in text


def test_the_list_is_not_saved():
    text = specialised(heat, ("u", "k"), CASES[0][1])
    assert text.count("tape.append(") == 1 and "t11 = pop()" not in text     # lap only


def test_axes_cut_their_own_dimension():
    text = specialised(columns, ("A", "w"), CASES[1][1])
    assert "[:, 0:3]" in text and "[:, 3:4]" in text
    text = specialised(stack_last, ("x", "y"), CASES[2][1])
    assert "[:, 0]" in text and "[:, 1]" in text and "stack_vjp" not in text


@pytest.mark.parametrize("fn,args", [(rebound_between, (_X, _Y)),
                                     (returned_join, (_X, _Y[:2]))])
def test_cases_that_keep_the_rule(fn, args):
    assert "concatenate_vjp" in specialised(fn, ("x", "y"), args)


def test_general_rule_keeps_the_rule():
    assert "concatenate_vjp" in general(heat, ("u", "k"))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_read_only_cotangent_is_never_written(policy):
    def twice(u):
        return np.concatenate([u[1:], u[:1]]) * 2.0 + u
    u, g = rng("join_ro").normal(size=5), rng("join_ro", 1).normal(size=5)
    g.flags.writeable = False
    _, pullback = vjp(twice, u, policy=policy)
    (du,) = pullback(g)
    np.testing.assert_allclose(du, 2.0 * np.concatenate([g[-1:], g[:-1]]) + g, rtol=1e-12)
