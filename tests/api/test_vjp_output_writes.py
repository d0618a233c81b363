"""A write into what `vjp` returned does not reach its pullback (transform/api.py vjp):
the backward sweep may read the forward's own arrays (tanh's output, a product's
operand), so the caller gets copies; the pullback's cotangents are the finite
differences' whatever the caller does to the output first (2026-12-02, session 31
(lead), found by api31)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_vjp
from tests.gradcheck import POLICIES, rng
from transform import vjp


def layer(x, W):
    return np.tanh(W @ x)                  # tanh's cotangent reads its output


def pair(x):
    return np.exp(x), [np.sin(x), x * 2.0]  # arrays inside a tuple and a list


def loop(x, steps):
    for _ in range(steps):
        x = np.tanh(x) * 1.5
    return x


@pytest.mark.parametrize("policy", POLICIES)
def test_writing_into_the_output_leaves_the_cotangent_alone(policy):
    r = rng("vjp_output_writes", "layer")
    x, W, g = r.normal(size=3), r.normal(size=(3, 3)), r.normal(size=3)
    out, pullback = vjp(layer, x, W, policy=policy)
    want_x, want_W = numerical_vjp(layer, [x, W], 0, g), numerical_vjp(layer, [x, W], 1, g)
    out[:] = 7.0
    dx, dW = pullback(g)
    assert_close(dx, want_x)
    assert_close(dW, want_W)


@pytest.mark.parametrize("policy", POLICIES)
def test_arrays_inside_a_structured_output_are_copies(policy):
    x = rng("vjp_output_writes", "pair").normal(size=4)
    g = (np.ones(4), [np.full(4, 0.5), np.full(4, -1.0)])
    out, pullback = vjp(pair, x, policy=policy)
    want = np.exp(x) + 0.5 * np.cos(x) - 2.0
    out[0][:] = 0.0
    out[1][0][:] = 0.0
    (dx,) = pullback(g)
    assert_close(dx, want)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_loop_s_output_written_before_the_pullback(policy):
    r = rng("vjp_output_writes", "loop")
    x, g = r.normal(size=5), r.normal(size=5)
    want = numerical_vjp(loop, [x, 3], 0, g)
    out, pullback = vjp(loop, x, 3, wrt=0, policy=policy)
    out *= 0.0
    assert_close(pullback(g)[0], want)


def test_the_output_still_equals_the_function_s_value():
    x = rng("vjp_output_writes", "value").normal(size=3)
    W = np.eye(3) * 0.5
    out, _ = vjp(layer, x, W)
    assert np.array_equal(out, layer(x, W))
