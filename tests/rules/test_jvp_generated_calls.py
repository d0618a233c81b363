"""The JVPs of the rules generated code calls with a function or a registered step:
run_checkpointed (a checkpointed loop's driver, runtime/checkpoint_forward.py), call_jvp
(forward mode's call of a user function, transform/forward_nested.py) and
call_jvp_tangent (call_jvp's tangent, which forward mode over forward code calls).
As tests/rules/test_jvp_rules.py checks every other rule: each tangent against central
differences of the whole output (tests/fd.py), and <v, J t> == <J^T v, t> against the
rule's own pullback, for random t and v."""
import functools

import numpy as np
import pytest

import transform.api  # noqa: F401  (call_jvp's rules)
from runtime import registry
from runtime.checkpoint import STEPS, run_checkpointed
from tests.fd import numerical_jvp
from tests.rules.jvp_structures import assert_all_close, like, pairing, zero_or
from transform import checkpointed, checkpointed_while, grad
from transform.forward_api import call_jvp
from transform.forward_nested import call_jvp_tangent


def _marked(u, k, ws):
    for w in checkpointed(ws, snapshots=2):
        u = u + k * np.sin(u) * w
    return np.sum(u ** 2)


def _chunked(u, k, n):
    for t in checkpointed(range(n), snapshots=2, chunk=2):
        u = np.tanh(u * k) + 0.1 * t
    return np.sum(u)


def _while(x, w, n):
    k = 0
    while checkpointed_while(k < n, snapshots=2):
        x = np.sin(w * x) + 0.1
        k = k + 1
    return x


def _breaking(x, ws):
    for w in checkpointed(ws, snapshots=2):
        x = np.sin(w * x) + 0.3
        if x > 0.9:
            break
    return x


U, WS = np.array([0.3, -0.5]), np.array([0.5, 1.5, -0.7])
# (function, its arguments, the driver's (carry, invariants, iterable) at the loop)
LOOPS = {"items": (_marked, (U, 0.4, WS), ((U,), (0.4,), WS)),
         "chunks": (_chunked, (U, 0.8, 5), ((U,), (0.8,), range(5))),
         "while": (_while, (0.3, 1.2, 4), ((0.3, 0), (4, 1.2), True)),
         "break": (_breaking, (0.2, np.array([0.9, 1.4, 2.0, 0.5])),
                   ((0.2,), (), np.array([0.9, 1.4, 2.0, 0.5])))}


def _key(fn, args):
    grad(fn, 0)(*args)                          # compiles and registers the step
    return next(k for k in STEPS if f".{fn.__name__}:" in k)


def _driver_call(case):
    fn, args, (carry, invariants, iterable) = LOOPS[case]
    return (_key(fn, args), carry, invariants, iterable, 2, "here"), _tangents(
        carry, invariants, iterable)


def _tangents(carry, invariants, iterable):
    """Tangents for the carry, the invariants and the items (floats only)."""
    items = like(iterable, 5) if isinstance(iterable, np.ndarray) else None
    return [None, like(carry, 3), like(invariants, 4), items, None, None]


@pytest.mark.parametrize("case", sorted(LOOPS))
def test_run_checkpointed_tangent_against_differences_and_its_pullback(case):
    args, t = _driver_call(case)
    rule = registry.lookup(run_checkpointed)
    ans, tangent = rule.frule(t, *args)
    moving = lambda c, i, x: run_checkpointed(args[0], c, i, x, *args[4:])  # noqa: E731
    want = _difference(moving, args[1:4], t[1:4])
    assert_all_close(zero_or(tangent, ans), want, rtol=1e-5, atol=1e-7)
    v = like(ans, 11)
    _, g_carry, g_inv, g_items, _, _ = rule.rrule(*args)[1](v)
    reverse = pairing(g_carry, t[1]) + pairing(g_inv, t[2]) + pairing(g_items, t[3])
    assert pairing(v, tangent) == pytest.approx(reverse, rel=1e-9, abs=1e-12)


def _layer(W, x, *, scale=1.5):
    return np.tanh(W @ x) * x[0] * scale


W0, X0 = np.array([[0.3, -0.2], [0.5, 0.9]]), np.array([0.4, -1.2])
# call_jvp's calls: (given tangents, arguments, keywords); keys by name or position
CALLS = {"x": ({"x": like(X0, 21)}, (W0, X0), {}),
         "both": ({"W": like(W0, 22), "x": like(X0, 23)}, (W0, X0), {}),
         "position": ({1: like(X0, 24)}, (W0, X0), {}),
         "keyword": ({"scale": 0.7, "x": like(X0, 25)}, (W0, X0), {"scale": 1.2}),
         "none": ({}, (W0, X0), {})}


def _call_jvp_tangents(given, args):
    """call_jvp's tangents by position: none for the function, the given tangents', the
    arguments'."""
    return [None, like(given, 31) if given else None] + [like(a, 32 + k)
                                                        for k, a in enumerate(args)]


def _moving(fn, kwargs, n):
    """fn(given, *args) with kwargs held, as a function of (given, args)."""
    return lambda given, args: fn(_layer, given, *args, **kwargs) if n is None else \
        fn(n, _layer, given, *args, **kwargs)


@pytest.mark.parametrize("case", sorted(CALLS))
def test_call_jvp_tangent_against_differences_and_its_pullback(case):
    given, args, kwargs = CALLS[case]
    t = _call_jvp_tangents(given, args)
    rule = registry.lookup(call_jvp)
    ans, tangent = rule.frule(t, _layer, given, *args, **kwargs)
    moving = _moving(call_jvp, kwargs, None)
    want = _difference(moving, (given, args), (t[1], tuple(t[2:])))
    assert_all_close(zero_or(tangent, ans), want, rtol=1e-5, atol=1e-7)
    v = like(ans, 41)
    cots = rule.rrule(_layer, given, *args, **kwargs)[1](v)
    reverse = pairing(cots[1], t[1]) + pairing(cots[2:], t[2:])
    assert pairing(v, tangent) == pytest.approx(reverse, rel=1e-9, abs=1e-12)


def _difference(moving, point, tangents):
    """Central differences of moving(*point) along tangents (None: held)."""
    parts = [numerical_jvp(moving, point, k, t) for k, t in enumerate(tangents)
             if t is not None]
    return functools.reduce(_added, parts)


def _added(a, b):
    if isinstance(a, (tuple, list)):
        return type(a)(_added(x, y) for x, y in zip(a, b))
    return a + b


@pytest.mark.parametrize("case", sorted(CALLS))
def test_call_jvp_tangent_rule_against_differences_and_its_pullback(case):
    """call_jvp_tangent(t, f, given, *args): what forward mode over forward code calls;
    its own tangent (a level up) and its pullback."""
    given, args, kwargs = CALLS[case]
    t = _call_jvp_tangents(given, args)
    rule = registry.lookup(call_jvp_tangent)
    d = [like(tuple(t), 51), None, like(given, 52) if given else None] + \
        [like(a, 53 + k) for k, a in enumerate(args)]
    ans, tangent = rule.frule(d, tuple(t), _layer, given, *args, **kwargs)
    moving = lambda tt, g, a: call_jvp_tangent(tt, _layer, g, *a, **kwargs)  # noqa: E731
    want = _difference(moving, (tuple(t), given, args), (d[0], d[2], tuple(d[3:])))
    assert_all_close(zero_or(tangent, ans), want, rtol=1e-5, atol=1e-7)
    v = like(ans, 61)
    cots = rule.rrule(tuple(t), _layer, given, *args, **kwargs)[1](v)
    reverse = pairing(cots[0], d[0]) + pairing(cots[2], d[2]) + pairing(cots[3:], d[3:])
    assert pairing(v, tangent) == pytest.approx(reverse, rel=1e-9, abs=1e-12)
