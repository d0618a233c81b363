"""np.piecewise's JVP (session 33, runtime/rules/piecewise.py piecewise_jvp): each piece's
tangent by forward mode on the elements it owns (a later condition overwriting), a
constant's from funclist's tangent; against central differences and against the rule's
pullback (<v, J t> == <J^T v, t>); forward mode compiled through it; a piece reading
differentiated values (a closure) is refused."""
import numpy as np
import pytest

import runtime
import transform.api  # noqa: F401  (the pullback's pieces: reverse mode)
import transform.forward_api  # noqa: F401  (the pieces' tangents: forward mode)
from tests.fd import assert_close, numerical_jvp
from transform import TransformError, jvp

X = np.array([-0.9, -0.6, -0.3, 0.2, 0.4, 0.7, 0.95])     # away from the kinks


def smooth_step(t):
    return 3 * t ** 2 - 2 * t ** 3


def scaled(t, a, b=1.0):
    return a * np.tanh(b * t)


def square(t):
    return t ** 2


def cubed_times(t, a):
    return a * t ** 3


CASES = [  # (condlist maker, funclist, args, kwargs, positions with a tangent)
    (lambda x: [x < 0, x >= 0], [square, np.sin], (), {}, (0,)),
    (lambda x: [x < -0.5, x > 0.5], [smooth_step, 0.25, np.exp], (), {}, (0, 2)),
    (lambda x: [x > 0, x < 0.5], [np.exp, smooth_step], (), {}, (0,)),     # overlapping
    (lambda x: [x < 0], [cubed_times, scaled], (1.7,), {}, (0, 3)),       # 'otherwise'
    (lambda x: [x < 0, x >= 0], [scaled, scaled], (0.8,), {"b": 2.0}, (0, 3)),
]


def _tangent(value, k):
    if isinstance(value, list):             # funclist: its constants' tangents
        return [None if callable(f) else 0.7 for f in value]
    return np.random.default_rng(k).normal(size=np.shape(value)) if np.ndim(value) else 0.6


@pytest.mark.parametrize("case", range(len(CASES)))
def test_against_differences_and_the_pullback(case):
    conds, funcs, extra, kw, positions = CASES[case]
    args = (X, conds(X), funcs, *extra)
    rule = runtime.lookup(np.piecewise)
    for k in positions:
        t = _tangent(args[k], k)
        ans, tangent = rule.frule([None] * k + [t], *args, **kw)
        if k == 2:
            want = sum(0.7 * c for c, f in zip(_owned(X, conds(X), funcs), funcs)
                       if not callable(f))
        else:
            want = numerical_jvp(lambda *a: np.piecewise(*a, **kw), list(args), k, t)
        assert_close(tangent, want, rtol=1e-6, atol=1e-9)
        v = np.random.default_rng(11).normal(size=ans.shape)
        cot = runtime.unthunk(rule.rrule(*args, **kw)[1](v)[k])
        reverse = sum(c * d for c, d in zip(cot, t) if d is not None) if k == 2 else \
            np.sum(cot * t)
        assert np.sum(v * tangent) == pytest.approx(reverse, rel=1e-9)


def _owned(x, conds, funcs):
    """Per piece, the elements it writes last (1.0) or not (0.0)."""
    rows = np.asarray(conds, dtype=bool)
    if len(rows) == len(funcs) - 1:
        rows = np.concatenate([rows, ~np.any(rows, axis=0, keepdims=True)])
    last = np.full(x.shape, -1)
    for k, row in enumerate(rows):
        last[row] = k
    return [(last == k).astype(float) for k in range(len(funcs))]


def through_piecewise(x, a):
    y = np.piecewise(x, [x < 0], [cubed_times, scaled], a)
    return np.sum(y ** 2)


def test_forward_mode_compiles_through_it():
    t = np.linspace(-1.0, 1.0, len(X))
    _, got = jvp(through_piecewise, (X, 1.7), (t, 0.3))
    want = numerical_jvp(through_piecewise, [X, 1.7], 0, t) + \
        numerical_jvp(through_piecewise, [X, 1.7], 1, 0.3)
    assert_close(got, want, rtol=1e-6)


def reads_a(x, a):
    return np.sum(np.piecewise(x, [x < 0], [lambda t: a * t, lambda t: t]))


def test_a_piece_reading_differentiated_values_is_refused():
    with pytest.raises(TransformError, match="closure") as info:   # at the user's line
        jvp(reads_a, (X, 1.7), (np.ones_like(X), 0.3))         # (NoJvp bare before)
    assert info.value.filename == __file__
