"""The general rule (compiled without argument shapes, what a function's 9th distinct
shape runs) adds a slice read's cotangent with `accumulate_slice` (runtime/containers.py):
in place into the slice of a buffer the generated code owns when, as it runs, buffer and
cotangent are float arrays of x's dtype, the buffer of x's shape, the index basic; else
`accum_eager(getitem_vjp(...))` as before. Gradients against finite differences under
every policy with the general rule forced, including the cases where the in-place add
must not happen (a list, a repeated index, float32, a branch), and the helper's decision
case by case."""
import copy
import types

import numpy as np
import pytest

from runtime.accumulate import accum_eager
from runtime.containers import accumulate_slice, getitem_vjp
from runtime.tape import shape_only
from tests.gradcheck import POLICIES, check_function, rng
from transform.api import compiled
from transform.public import cache


def heat(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)


# u rebound by a concatenate at the end of each step (as in heat): its adjoint is zero
# before the step's reads, whose cotangents go through accumulate_slice (a u the loop
# does not rebind accumulates across iterations: accumulate_at)
def grid(u, n):
    s = 0.0
    for _ in range(n):
        s = s + np.sum(u[1:, :-1] * u[:-1, 1:]) + np.sum(np.sin(u[::2, ::-1]))
        u = np.concatenate([np.tanh(u[:1]), u[1:] * 0.9])
    return s


def moving(u, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(u[i:i + 2] ** 2) * np.sum(u[i + 1:] * 3.0)
        u = np.concatenate([u[:1], u[1:] * 0.95])
    return s


def branch(u, n):
    s = 0.0
    for i in range(n):
        if i % 2:
            v = u[1:]
        else:
            v = u[:-1] * u[1:]
        s = s + np.sum(np.tanh(v)) + np.sum(u[:2] * u[-2:])
        u = np.concatenate([np.sin(u[:3]), u[3:]])
    return s


def repeated(u, n):
    s = 0.0
    for _ in range(n):
        s = s + np.sum(u[[0, 0, 2], 1:] ** 2) + np.sum(u[1:, :1])
        u = np.concatenate([np.cos(u[:2]), u[2:]])
    return s


def entries(xs, n):
    s = 0.0
    for _ in range(n):
        a, b = xs[1:3]
        s = s + np.sum(a * b) + np.sum(xs[:1][0] ** 2)
        xs = [xs[0] * 0.9, xs[1], xs[2] * 1.1, xs[3]]
    return s


def whole_too(u, n):
    s = 0.0
    for _ in range(n):
        s = s + np.sum(u[1:] * u[:-1]) + np.sum(u * u[::-1])
        u = np.concatenate([u[-1:], np.sin(u[:-1])])
    return s


def nested(u, n):
    s = 0.0
    for _ in range(n):
        v = u * 1.0
        for _ in range(2):
            s = s + np.sum(v[1:] * v[:-1]) + np.sum(u[:2] ** 2)
            v = v[::-1] * 0.5
        u = u + 0.1 * v
    return s


_R = rng("general_slices", 1)
CASES = [
    (heat, (_R.normal(size=7), 0.2, 3), [0, 1]),
    (grid, (_R.normal(size=(4, 5)), 2), [0]),
    (moving, (_R.normal(size=6), 3), [0]),
    (branch, (_R.normal(size=5), 3), [0]),
    (repeated, (_R.normal(size=(3, 4)), 2), [0]),
    (entries, ([_R.normal(size=3) for _ in range(4)], 2), [0]),
    (whole_too, (_R.normal(size=5), 2), [0]),
    (nested, (_R.normal(size=5), 2), [0]),
]


def fresh(fn):
    return types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_general_rule_against_finite_differences(fn, args, wrt, policy, monkeypatch):
    monkeypatch.setattr(cache, "MAX_SPECIALISATIONS", 0)     # only the general rule
    copy = fresh(fn)
    check_function(copy, list(args), wrt, policy)
    assert all(key[4] is None for key in cache.rules_of(copy))


def test_float32_stays_float32(monkeypatch):
    monkeypatch.setattr(cache, "MAX_SPECIALISATIONS", 0)
    from transform import grad
    u = _R.normal(size=9)
    want = grad(fresh(heat), "u")(u, 0.2, 3)
    got = grad(fresh(heat), "u")(u.astype(np.float32), np.float32(0.2), 3)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-4)


def test_only_the_general_rule_calls_it():
    general = compiled(fresh(heat), ("u", "k"), "loop").source
    assert general.count("accumulate_slice(") == 6
    assert "accumulate_slice(None, dt10, u, np.s_[-1:])" in general
    special = compiled(fresh(heat), ("u", "k"), "loop", signature=((7,), (), None)).source
    assert "accumulate_slice" not in special
    eager = compiled(fresh(heat), ("u", "k"), "eager").source
    assert "accumulate_slice" not in eager


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_the_cases_reach_the_helper(fn, args, wrt):
    """Every case above but the list's runs accumulate_slice (its gradient is checked)."""
    names = tuple(fn.__code__.co_varnames[k] for k in wrt)
    source = compiled(fresh(fn), names, "loop").source
    assert ("accumulate_slice(" in source) == (fn is not entries)


def old(buffer, g, x, index):
    return accum_eager(buffer, getitem_vjp(g, x, index))


def test_in_place_into_an_owned_buffer():
    x = _R.normal(size=(5, 3))
    for like in (x, shape_only(x)):
        for index in (np.s_[1:4], np.s_[1:, ::2], np.s_[::-1, 0], np.s_[..., None, 1]):
            g = _R.normal(size=x[index].shape)
            buffer = _R.normal(size=x.shape)
            want = old(buffer.copy(), g, x, index)
            got = accumulate_slice(buffer, g, like, index)
            assert got is buffer
            np.testing.assert_array_equal(got, want)
    g = _R.normal(size=3)
    buffer = np.zeros((5, 3))
    assert accumulate_slice(buffer, g[:1], x, np.s_[2]) is buffer      # broadcasts
    np.testing.assert_array_equal(buffer[2], np.full(3, g[0]))


class Sub(np.ndarray):
    pass


def _others():
    """(buffer, g, x, index) where the in-place add must not happen."""
    x = _R.normal(size=5)
    g, b = _R.normal(size=3), _R.normal(size=5)
    f32 = np.float32
    return [
        (None, g, x, np.s_[1:4]),
        (b.astype(f32), g, x, np.s_[1:4]),                  # buffer of another dtype
        (b, g.astype(f32), x, np.s_[1:4]),                  # g of another dtype
        (b, g, x.astype(f32), np.s_[1:4]),                  # x of another dtype
        (b.astype(f32), g.astype(f32), x, np.s_[1:4]),
        (b.astype(int), g.astype(int), x.astype(int), np.s_[1:4]),   # not float
        (b.astype(complex), g.astype(complex), x.astype(complex), np.s_[1:4]),
        (b, g + 1j, x, np.s_[1:4]),
        (b[None, :], g, x, np.s_[1:4]),                     # buffer not shaped like x
        (b, _R.normal(size=2), x, [0, 0]),                  # a repeated index adds twice
        (b, g, x, (np.array([0, 0, 1]),)),
        (list(b), g, x, np.s_[1:4]),
        (b, list(g), x, np.s_[1:4]),
        (b, g, x.view(Sub), np.s_[1:4]),
        (b.view(Sub), g, x, np.s_[1:4]),
        (b, g.view(Sub), x, np.s_[1:4]),
        (b, 2.0, x, np.s_[1:4]),
        (b, g[:1], x, (slice(1, 4), True)),                 # a bool index: not basic
    ]


@pytest.mark.parametrize("case", range(len(_others())))
def test_other_values_take_the_old_path(case):
    buffer, g, x, index = _others()[case]
    kept = np.array(buffer, copy=True) if buffer is not None else None
    try:
        want = old(copy.deepcopy(buffer), g, x, index)
    except (TypeError, ValueError, IndexError) as e:
        with pytest.raises(type(e)):
            accumulate_slice(buffer, g, x, index)
        return
    got = accumulate_slice(buffer, g, x, index)
    assert got is not buffer
    if buffer is not None:
        np.testing.assert_array_equal(np.asarray(buffer), kept)    # not touched
    assert type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_a_list_cotangent_is_copied_entries_too():
    xs = [_R.normal(size=2) for _ in range(3)]
    g = [_R.normal(size=2), _R.normal(size=2)]
    got = accumulate_slice(None, g, xs, np.s_[1:])
    assert got[0] is None and got[1] is not g[0] and got[2] is not g[1]
    np.testing.assert_array_equal(got[1], g[0])
    again = accumulate_slice(got, g, xs, np.s_[:2])
    assert again is not got and again[1] is not got[1]
    np.testing.assert_array_equal(again[1], g[0] + g[1])
    np.testing.assert_array_equal(got[1], g[0])             # the old list: not touched


def _first_reads():
    """(g, x, index) for a first read (no buffer yet): zeros with g at index."""
    x = _R.normal(size=(4, 3))
    g = _R.normal(size=(2, 3))
    f32, f16 = np.float32, np.float16
    return [
        (g, x, np.s_[1:3]), (g.astype(f32), x.astype(f32), np.s_[1:3]),
        (g.astype(f16), shape_only(x.astype(f16)), np.s_[::2]), (g[0], x, np.s_[3, :]),
        (g.astype(f32), x, np.s_[1:3]), (g, x.astype(f32), np.s_[1:3]),
        (g[:, :1], x, ([0, 0], slice(0, 1))), (g.astype(complex), x, np.s_[1:3]),
        (g.astype(int), x.astype(int), np.s_[1:3]), (g[0].tolist(), x, np.s_[0]),
    ]


@pytest.mark.parametrize("case", range(len(_first_reads())))
def test_a_first_read(case):
    g, x, index = _first_reads()[case]
    want = old(None, g, x, index)
    got = accumulate_slice(None, g, x, index)
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == x.shape
    np.testing.assert_array_equal(got, want)
