"""vjp's pullback checks an array cotangent's shape against the output's (session 32):
NumPy broadcast ones(1) or ones((3, 1)) against a (3,) output, a silently wrong product;
the error names both shapes. And arrays inside a dataclass output are copies, like those
inside tuples and dicts (transform/public/aux.py copied_arrays): a write into them before
the pullback ran changed the cotangents (a wrong gradient)."""
import dataclasses

import numpy as np
import pytest

from tests.fd import assert_close, numerical_vjp
from tests.gradcheck import POLICIES, rng
from transform import vjp

X = np.array([0.1, 0.5, -0.3])


def layer(x):
    return np.tanh(x)


def total(x):
    return np.sum(x * x)


def pair(x):
    return np.tanh(x), {"s": np.sum(x), "m": np.outer(x, x)}


@pytest.mark.parametrize("cot", [np.ones(1), np.ones((3, 1)), np.ones((1, 3)), np.ones(4),
                                 np.array(1.0)], ids=lambda c: str(c.shape))
def test_an_array_output_s_cotangent_of_another_shape_is_refused(cot):
    _, pullback = vjp(layer, X)
    with pytest.raises(ValueError) as caught:
        pullback(cot)
    assert str(caught.value) == ("the pullback needs a cotangent shaped like the output, "
                                 f"(3,); the array given has shape {cot.shape}")


@pytest.mark.parametrize("cot", [np.ones(3), np.ones(1)], ids=lambda c: str(c.shape))
def test_a_number_output_s_cotangent_is_a_number(cot):
    _, pullback = vjp(total, X)
    with pytest.raises(ValueError, match=r"shaped like the output, \(\); the array given "
                                         rf"has shape \({cot.shape[0]},\)"):
        pullback(cot)


def test_parts_of_a_structured_output_are_checked_by_position_and_key():
    _, pullback = vjp(pair, X)
    with pytest.raises(ValueError, match=r"like the output\[1\]\['m'\], \(3, 3\); the "
                                         r"array given has shape \(3,\)"):
        pullback((np.ones(3), {"s": 1.0, "m": np.ones(3)}))
    with pytest.raises(ValueError, match=r"like the output\[0\], \(3,\)"):
        pullback([np.ones((3, 3)), {"s": 1.0, "m": np.ones((3, 3))}])


@pytest.mark.parametrize("policy", POLICIES)
def test_right_shapes_still_give_the_vjp(policy):
    g = rng("vjp_cotangent_shapes", "layer").normal(size=3)
    assert_close(vjp(layer, X, policy=policy)[1](g)[0], numerical_vjp(layer, [X], 0, g))
    assert_close(vjp(total, X, policy=policy)[1](np.array(2.0))[0], 4.0 * X)
    assert_close(vjp(layer, X, policy=policy)[1](2.0)[0], 2.0 * (1 - np.tanh(X) ** 2))


@dataclasses.dataclass
class Out:
    y: np.ndarray
    s: float


@dataclasses.dataclass(frozen=True)
class Frozen:
    y: np.ndarray
    parts: list


def record(x):
    return Out(np.tanh(x), np.sum(x))


def frozen(x):
    return Frozen(np.tanh(x), [np.exp(x)])


@pytest.mark.parametrize("policy", POLICIES)
def test_arrays_inside_a_dataclass_output_are_copies(policy):
    out, pullback = vjp(record, X, policy=policy)
    out.y[:] = 100.0
    assert_close(pullback({"y": np.ones(3), "s": 1.0})[0], 2.0 - np.tanh(X) ** 2)
    out, pullback = vjp(frozen, X, policy=policy)
    assert isinstance(out, Frozen)
    out.y[:] = 100.0
    out.parts[0][:] = -5.0
    assert_close(pullback({"y": np.ones(3), "parts": [np.ones(3)]})[0],
                 1.0 - np.tanh(X) ** 2 + np.exp(X))


def test_a_dataclass_cotangent_is_checked_by_field():
    _, pullback = vjp(record, X)
    with pytest.raises(ValueError, match=r"like the output\['y'\], \(3,\); the array given "
                                         r"has shape \(2,\)"):
        pullback(Out(np.ones(2), 1.0))
    with pytest.raises(ValueError, match=r"like the output\['y'\]"):
        pullback({"y": np.ones((3, 1)), "s": 1.0})
