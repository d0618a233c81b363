"""The plain lowering's calls (docs/ir.md, "Second lowering", "Calls"): a compiled callee
or a registered rule is called through its rule, `t, t_pullback = g_rrule(a, b)`, and the
pullback it returns is data in a tape slot (a name at the top level, a list indexed by
iteration in a range loop), called in the backward sweep. Gradients against central
finite differences; the generated source."""
import traceback

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.ir.test_plain_lowering import with_callee
from transform import Thunk, TransformError, adjoint_source, rrule, value_and_grad
from transform.api import compiled_split
from transform.public.cache import rules_of


def _step(h, W):
    for j in range(2):                  # (a loop: the callee is called, not inlined)
        h = np.tanh(W @ h)
    return h


def twice(W, h):
    a = _step(h, W)
    b = _step(a * 2.0, W)
    return np.sum(a * b)


def in_a_loop(W, h):
    s = 0.0
    for i in range(3):
        h = _step(h, W) + 0.1 * i
        s = s + np.sum(h * h)
    return s


def in_a_branch_of_a_loop(W, h):
    for i in range(4):
        if i % 2 == 0:                  # the pullback saved under the branch taken
            h = _step(h, W)
        else:
            h = cube(h) + 0.5
    return np.sum(h)


def in_nested_loops(W, h):
    s = 0.0
    for i in range(2):
        for j in range(2):              # the pullbacks keyed by both indices
            h = _step(h, W) * 0.9 + cube(h) * 0.1
            s = s + np.sum(h)
    return s


def in_a_while_loop(W, h):
    s = 0.0
    i = 0
    while i < 3:                        # the pullbacks read back under the trip counter
        h = _step(h, W)
        s = s + np.sum(h * h)
        i = i + 1
    return s


def by_keyword(W, h):
    return np.sum(_step(W=W, h=h) ** 2)


def bound_by_a_call_before_the_loop(W, h):
    a = _step(h, W)                     # a bound by a call, then saved by the loop
    s = np.sum(a * a * a)
    for i in range(3):
        a = np.sin(h) * i
        s = s + np.sum(a * h)
    return s


def cube(x):
    return x ** 3


@rrule(cube)
def cube_rrule(x):
    def pullback(g):
        return (3.0 * x ** 2 * g,)
    return x ** 3, pullback


def scaled(x, n):
    return x * n


@rrule(scaled)
def scaled_rrule(x, n):
    return x * n, lambda g: (Thunk(lambda: g * n), None)     # a deferred cotangent, a None


def powered(x, n):
    for j in range(n):
        x = np.sin(x)
    return x


def deferred_and_integer(W, h):
    s = 0.0
    for i in range(3):
        h = powered(scaled(W @ h, 0.5), 2)      # an integer argument: not varied
        s = s + np.sum(h)
    return s + np.sum(scaled(h, 2.0))


def custom_in_a_loop(W, h):
    for i in range(3):
        h = cube(W @ h) * 0.5 + h
    return np.sum(h)


class Layer:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, h, W):
        for j in range(2):
            h = np.tanh(W @ h) * self.scale
        return h


def method_in_a_loop(W, h):
    layer = Layer(0.9)
    for i in range(2):
        h = layer.apply(h, W)
    return np.sum(h)


def _branchy(h, W):
    for j in range(2):
        if np.sum(h) > 0.1:             # u, t: bound in a branch only (None first, split)
            u = np.sin(W @ h)
        else:
            t = W @ h
            u = np.cos(t) * t
        h = u * h
    return h


def calls_a_branchy_callee(W, h):
    s = 0.0
    for i in range(3):
        h = _branchy(h, W) - 1.5 * i    # both branches taken over the calls
        s = s + np.sum(h)
    return s


CASES = [twice, in_a_loop, in_a_branch_of_a_loop, in_nested_loops, in_a_while_loop,
         by_keyword, bound_by_a_call_before_the_loop, custom_in_a_loop, deferred_and_integer,
         method_in_a_loop, with_callee, calls_a_branchy_callee]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_gradients_match_central_differences(fn):
    r = np.random.default_rng(3)
    args = (0.4 * r.normal(size=(3, 3)), r.normal(size=3))
    value, grads = value_and_grad(fn, (0, 1), lowering="plain")(*args)
    assert_close(value, fn(*args), rtol=1e-12, atol=0)
    for k, g in enumerate(grads):
        assert isinstance(g, np.ndarray)
        assert_close(g, numerical_grad(fn, args, k), rtol=1e-5, atol=1e-7,
                     what=f"gradient of argument {k}")


def test_a_compiled_callee_is_split_and_its_saved_values_taped():
    source = adjoint_source(in_a_loop, (0, 1), lowering="plain")
    assert "t1, t1_pullback = _step_forward(h, W)" in source   # (value, saved): a tuple
    assert "tape_t1_pullback.append(t1_pullback)" in source    # saved by iteration
    assert "t1_cots1 = _step_backward(unbroadcast(dh, t1, 0), t1_pullback)" in source
    assert "t1_pullback = tape_t1_pullback[k - 1]" in source    # read back by index
    assert "_step_rrule" not in source
    assert "= _branchy_forward(" in adjoint_source(calls_a_branchy_callee, (0, 1),
                                                   lowering="plain")
    for word in ("lambda", "def pullback", "del ", "Thunk", "tape_reader"):
        assert word not in source, word


def test_the_halves_are_the_plain_function_cut_in_two():
    """g_forward returns (value, saved), g_backward(seed, saved) the cotangents: the
    same as the callee's plain function, and no closure in either."""
    r = np.random.default_rng(4)
    h, W, g = r.normal(size=3), 0.4 * r.normal(size=(3, 3)), r.normal(size=3)
    forward, backward = compiled_split(_step, ("h", "W"), "loop", ("h", "W"))
    value, saved = forward.rrule(h, W)
    assert isinstance(saved, tuple) and not any(callable(v) for v in saved)
    assert_close(value, _step(h, W), rtol=1e-12, atol=0)
    want = value_and_grad(lambda h, W: np.sum(_step(h, W) * g), (0, 1))(h, W)[1]
    for got, w in zip(backward.rrule(g, saved), want):
        assert_close(got, w, rtol=1e-12, atol=1e-14)
    for half in (forward, backward):
        assert "lambda" not in half.source and "def pullback" not in half.source
    assert "def _step_backward(dh, _step_saved):" in backward.source


def test_where_the_split_is_not_shown_the_rule_is_called():
    """A registered rule, a method: the rule and its pullback, as before (a keyword
    call is split, its arguments by position: tests/ir/test_plain_split_sites.py)."""
    assert "_step_forward(h, W)" in adjoint_source(by_keyword, (0, 1), lowering="plain")
    source = adjoint_source(custom_in_a_loop, (0, 1), lowering="plain")
    assert "_forward(" not in source and "_pullback(" in source
    source = adjoint_source(method_in_a_loop, (0, 1), lowering="plain")
    assert "apply_method_rrule" in source and "_backward(" not in source


def recursive(h, n):
    if n == 0:
        return h
    return np.sin(recursive(h, n - 1))


def calls_a_recursive_function(W, h):
    return np.sum(recursive(W @ h, 2))


def test_a_recursive_callee_is_split_once_its_recursion_keeps_the_rule():
    source = adjoint_source(calls_a_recursive_function, (0, 1), lowering="plain")
    assert "recursive_forward(W @ h, 2)" in source     # FuseForward folds t1 (typed)
    halves = {k[2]: c.source for k, c in rules_of(recursive).items()
              if str(k[2]).startswith("plain/")}
    assert sorted(halves) == ["plain/backward", "plain/forward"]
    assert "= recursive_rrule" in halves["plain/forward"]       # inside: the rule
    assert "= recursive_forward" not in halves["plain/forward"]
    r = np.random.default_rng(3)
    args = (0.4 * r.normal(size=(3, 3)), r.normal(size=3))
    grads = value_and_grad(calls_a_recursive_function, (0, 1), lowering="plain")(*args)[1]
    for k, g in enumerate(grads):
        assert_close(g, numerical_grad(calls_a_recursive_function, args, k))


def _leaf(h, W):
    for j in range(2):
        h = np.sin(W @ h)
    return h


def leaf_at_the_top(W, h):
    return np.sum(_leaf(h, W) ** 2)


def test_the_callee_is_compiled_as_two_plain_halves():
    """Called at the top level too, the callee is split: its halves are plain functions
    (their cotangents arrays, never thunks), compiled once each."""
    r = np.random.default_rng(3)
    args = (0.4 * r.normal(size=(3, 3)), r.normal(size=3))
    _, grads = value_and_grad(leaf_at_the_top, (0, 1), lowering="plain")(*args)
    assert_close(grads[1], numerical_grad(leaf_at_the_top, args, 1))
    keys = list(rules_of(_leaf))
    parts = sorted(k[2] for k in keys if str(k[2]).startswith("plain/"))
    assert parts == ["plain/backward", "plain/forward"]


class _Base:
    def __init__(self, w):
        self.w = w

    def score(self, u):
        return np.tanh(self.w * u)


class _Derived(_Base):
    def score(self, u):
        m = super().score               # a method read from super(): refused when compiled
        return m(u) * 2.0


def through_super(W, h):
    return np.sum(_Derived(0.5).score(W @ h))


def test_a_callee_refused_when_it_runs_is_refused_at_its_line():
    """The method's rule is compiled when the call runs (inside the plain function): its
    refusal reaches the caller at the user's line, with no generated frame."""
    with pytest.raises(TransformError) as info:
        value_and_grad(through_super, (0, 1), lowering="plain")(np.eye(3), np.ones(3))
    assert "super() is differentiated only in a method call" in str(info.value)
    assert f"test_plain_calls.py:{_Derived.score.__code__.co_firstlineno + 1}:" \
        in str(info.value)
    assert info.value.__traceback__ is None or not any(
        "<thunkgrad" in frame.filename for frame in traceback.extract_tb(info.value.__traceback__))
