"""Tape entries a loop need not keep, new-axis reads and reductions over literal axes in
rules specialised to argument shapes (issue 19, N-body).

A name whose one definition is a number literal (`t = -1.5`) is never pushed; a name
read back only for its shape, of one known array shape, is not pushed either (the
backward sweep reads its last value: transform/analysis/unchanging.py). `q[:, None, :]`
and `np.sum(t, axis=1)` have known shapes, and a read that only adds axes gets the view
`g[:, 0, :]` as its cotangent (transform/reverse/slice_adds.py). Every program runs
against finite differences under every policy.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import vjp
from transform.api import _wrt_names, compiled, signature_of


def specialised(fn, wrt, args, policy="loop"):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, policy, signature=signature_of(args)).source


def nbody(q, v, m, dt, steps):
    for _ in range(steps):
        d = q[:, None, :] - q[None, :, :]
        inv3 = (np.sum(d ** 2, axis=2) + 0.1) ** -1.5
        v = v - dt * np.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
        q = q + dt * v
    return np.sum(q ** 2) + np.sum(v ** 2)


def negative_power(x, n):
    for _ in range(n):
        x = (x ** 2 + 1.0) ** -0.5 + x * -2.0
    return np.sum(x)


def dtype_changes(u, n):
    for _ in range(n):
        t = u * 2.0                    # float32 first, float64 after
        u = np.tanh(t[1:] * u[:-1]).sum() * np.float64(0.5) + u
    return np.sum(u ** 2)


def new_axis_unread(q, y):
    parts = list(q[:, None]) + list(y)          # q's rows unread: list()'s cotangent is None
    return np.sum(parts[-1] * 2.0) + np.sum(q ** 2)


def inner_trips(A):
    s = 0.0
    for i in range(3):                 # the inner loop's trip counter: `n1 = 0`, `n1 += 1`
        for j in range(3):
            if j > i:
                break
            s = s + A[i, j] * A[j, i] * -0.5
    return s


def growing(x, y, n):
    total = 0.0
    for _ in range(n):
        t = x * 2.0                    # read back for its shape, which grows
        total = total + np.sum(t) * np.mean(np.sin(x))
        x = np.concatenate([x, y * total])
    return total


def outer_rows(x, y, n):
    total = 0.0
    for _ in range(n):
        P = x[:, None] * y[None, :]
        total = total + np.sum(np.sin(P) * np.mean(P, axis=0, keepdims=True))
        x = x * 0.9 + np.max(P, axis=1)
    return total


def new_axes(A, w):
    B = A[:, None, :] * w[None, :, None]
    return np.sum(np.tanh(B) * np.var(B, axis=(0, 2))[None, :, None])


def middle_axis(A):
    return np.sum(np.std(A[None, :, None, :] * A[:, None, :, None], axis=1) ** 2)


_Q = rng("fixed_saves", 1).normal(size=(4, 3))
_V = 0.3 * rng("fixed_saves", 2).normal(size=(4, 3))
_M = rng("fixed_saves", 3).uniform(0.5, 1.5, size=4)
CASES = [
    (nbody, (_Q, _V, _M, 0.01, 3), (0, 1, 2)),
    (negative_power, (rng("negpow").normal(size=5), 3), (0,)),
    (dtype_changes, (rng("dtype").normal(size=5).astype(np.float32), 3), (0,)),
    (new_axis_unread, (rng("unread", 1).normal(size=3), rng("unread", 2).normal(size=2)),
     (0, 1)),
    (inner_trips, (rng("trips").normal(size=(3, 3)),), (0,)),
    (growing, (rng("grow", 1).normal(size=2), rng("grow", 2).normal(size=2), 3), (0, 1)),
    (outer_rows, (rng("outer", 1).normal(size=4), rng("outer", 2).normal(size=3), 3), (0, 1)),
    (new_axes, (rng("axes", 1).normal(size=(3, 4)), rng("axes", 2).normal(size=5)), (0, 1)),
    (middle_axis, (rng("middle").normal(size=(3, 2)),), (0,)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_against_finite_differences(fn, args, wrt, policy):
    tol = {"rtol": 2e-3, "atol": 2e-4} if fn is dtype_changes else {}
    check_function(fn, list(args), wrt if len(wrt) > 1 else wrt[0], policy, **tol)


def test_nbody_keeps_no_shapes_and_no_constants():
    text = specialised(nbody, ("q", "v", "m"), CASES[0][1])
    assert "shape_only" not in text and "t6 = pop()" not in text
    assert "unbroadcast(dd, t" not in text or "[:, 0, :]" in text
    assert "getitem_vjp" not in text and "product_or_repeat_vjp" not in text
    assert "[:, 0, :]" in text and "[0, :, :]" in text and "[0, :, 0]" in text


def test_a_literal_definition_is_never_saved():
    text = specialised(negative_power, "x", CASES[1][1])
    literals = [line.split("=")[0].strip() for line in text.splitlines()
                if line.strip().endswith(("= -0.5", "= -2.0"))]
    assert literals
    for name in literals:
        assert f"tape.append({name})" not in text and f"{name} = pop()" not in text


def test_complex_values_keep_the_shapes_on_the_tape():
    def complex_loop(x, n):
        for _ in range(n):
            x = np.real(x * (1 + 1j)) * x
        return np.sum(x)
    args = (rng("complex_loop").normal(size=3), 2)
    assert "shape_only" in specialised(complex_loop, "x", args)
    for policy in POLICIES:
        check_function(complex_loop, list(args), 0, policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_read_only_cotangent_is_never_written(policy):
    def spread(q):
        return q[:, None, :] * 2.0 + q[None, :, :]
    q = rng("spread").normal(size=(3, 2))
    g = rng("spread", 1).normal(size=(3, 3, 2))
    g.flags.writeable = False
    _, pullback = vjp(spread, q, policy=policy)
    (dq,) = pullback(g)
    np.testing.assert_allclose(dq, 2.0 * g.sum(axis=1) + g.sum(axis=0), rtol=1e-12)
