"""stop_gradient (issue 20): the identity whose derivative is zero.

Each realistic use is checked under every policy against finite differences of a
reference in which the stopped value is an argument held fixed at the value the primal
computed (that is what "no derivative through it" means), and against the plain
function's value. Called from plain Python it returns an equal copy."""
import collections

import numpy as np
import pytest

import transform
from tests.fd import assert_close, numerical_grad, numerical_tree_grad
from tests.gradcheck import POLICIES, readonly, rng
from transform import grad, stop_gradient, value_and_grad
from transform import stop_gradient as sg


def quantise(x):
    return np.round(x * 4.0) / 4.0


def straight_through(x, w):
    """x + stop_gradient(q(x) - x): q's value, the identity's derivative."""
    y = x + stop_gradient(quantise(x) - x)
    return np.sum(np.tanh(w * y))


def straight_through_ref(x, w, c):
    return np.sum(np.tanh(w * (x + c)))


def td_loss(W, s, s_next, reward):
    """A TD target computed by a frozen copy of the network (a target network)."""
    target = reward + 0.9 * np.max(np.tanh(stop_gradient(W) @ s_next))
    q = np.tanh(W @ s)
    return (q[0] - target) ** 2


def td_loss_ref(W, s, s_next, reward, W_frozen):
    target = reward + 0.9 * np.max(np.tanh(W_frozen @ s_next))
    return (np.tanh(W @ s)[0] - target) ** 2


def detached_norm(x):
    """A normaliser treated as a constant (as in weight normalisation's variants)."""
    n = stop_gradient(np.sqrt(np.sum(x ** 2)))
    return np.sum(np.sin(x / n))


def detached_norm_ref(x, n):
    return np.sum(np.sin(x / n))


def ema_in_a_loop(x, steps):
    """A running average that the loss reads but does not differentiate through."""
    avg = np.zeros_like(x)
    total = 0.0
    for _ in range(steps):
        x = np.tanh(x * 1.3 + 0.1)
        avg = 0.8 * avg + 0.2 * stop_gradient(x)
        if np.sum(x) > 0:
            total = total + np.sum((x - avg) ** 2)
        else:
            total = total + np.sum(x * avg)
    return total


def ema_in_a_loop_ref(x, steps, stopped):
    avg = np.zeros_like(x)
    total = 0.0
    for k in range(steps):
        x = np.tanh(x * 1.3 + 0.1)
        avg = 0.8 * avg + 0.2 * stopped[k]
        if np.sum(x) > 0:
            total = total + np.sum((x - avg) ** 2)
        else:
            total = total + np.sum(x * avg)
    return total


def _ema_iterates(x, steps):
    out = []
    for _ in range(steps):
        x = np.tanh(x * 1.3 + 0.1)
        out.append(x)
    return out


def container(params, x):
    """stop_gradient of a dict holding a tuple, through the module attribute too."""
    frozen = transform.stop_gradient({"w": params["w"], "pair": (params["b"], x)})
    return np.sum(frozen["w"] * params["w"] * x) + frozen["pair"][0] * params["b"] + \
        frozen["pair"][1] * x


def container_ref(params, x, frozen):
    return np.sum(frozen["w"] * params["w"] * x) + frozen["pair"][0] * params["b"] + \
        frozen["pair"][1] * x


def write_into_result(x):
    """The result is a copy: writing into it leaves x (and x's gradient) alone."""
    y = sg(x)
    y[0] = 10.0
    return np.sum(x * y) + np.sum(x ** 2)


def helper_stops(x):
    return x * stop_gradient(x)


def calls_helper(x):
    return np.sum(helper_stops(x) + np.exp(x))


@pytest.mark.parametrize("policy", POLICIES)
def test_straight_through_estimator(policy):
    x, w = readonly([rng("stop.ste").normal(size=5), rng("stop.ste.w").normal(size=5)])
    gx, gw = grad(straight_through, wrt=(0, 1), policy=policy)(x, w)
    c = quantise(x) - x
    assert_close(gx, numerical_grad(straight_through_ref, [x, w, c], 0))
    assert_close(gw, numerical_grad(straight_through_ref, [x, w, c], 1))
    assert not np.allclose(gx, numerical_grad(straight_through, [x, w], 0), atol=1e-3)


@pytest.mark.parametrize("policy", POLICIES)
def test_target_network(policy):
    r = rng("stop.td")
    W, s, s_next = readonly([r.normal(size=(3, 4)), r.normal(size=4), r.normal(size=4)])
    value, g = value_and_grad(td_loss, policy=policy)(W, s, s_next, 0.5)
    assert_close(value, td_loss(W, s, s_next, 0.5), rtol=1e-12, atol=0)
    assert_close(g, numerical_grad(td_loss_ref, [W, s, s_next, 0.5, W.copy()], 0))


@pytest.mark.parametrize("policy", POLICIES)
def test_detached_normaliser(policy):
    x = readonly([rng("stop.norm").normal(size=4)])[0]
    g = grad(detached_norm, policy=policy)(x)
    n = np.sqrt(np.sum(x ** 2))
    assert_close(g, numerical_grad(detached_norm_ref, [x, n], 0))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_stopped_value_in_a_loop_with_a_branch(policy):
    x = rng("stop.ema").normal(size=3)
    g = grad(ema_in_a_loop, policy=policy)(x, 5)
    stopped = _ema_iterates(x, 5)
    assert_close(g, numerical_grad(ema_in_a_loop_ref, [x, 5, stopped], 0))


@pytest.mark.parametrize("policy", POLICIES)
def test_containers_keep_their_structure_and_stop(policy):
    params = {"w": np.array([0.4, -0.3]), "b": 0.7}
    gp, gx = grad(container, wrt=(0, 1), policy=policy)(params, 0.5)
    frozen = {"w": params["w"].copy(), "pair": (0.7, 0.5)}
    want = numerical_tree_grad(container_ref, [params, 0.5, frozen], 0)
    assert_close(gp["w"], want[("w",)])
    assert type(gp["b"]) is float
    assert_close(gp["b"], want[("b",)])
    assert_close(gx, numerical_grad(container_ref, [params, 0.5, frozen], 1))
    full = numerical_tree_grad(container, [params, 0.5], 0)      # not what is stopped
    assert not np.allclose(gp["w"], full[("w",)])


@pytest.mark.parametrize("policy", POLICIES)
def test_writing_into_the_result_leaves_the_argument(policy):
    x = readonly([np.array([0.5, -1.5, 2.0])])[0]
    g = grad(write_into_result, policy=policy)(x)
    y = x.copy()
    y[0] = 10.0
    assert_close(g, y + 2 * x)


@pytest.mark.parametrize("policy", POLICIES)
def test_inside_a_helper(policy):
    x = rng("stop.helper").normal(size=3)
    assert_close(grad(calls_helper, policy=policy)(x), x + np.exp(x))


def test_float32_and_floats():
    x = rng("stop.f32").normal(size=3).astype(np.float32)
    g = grad(detached_norm)(x)
    assert g.dtype == np.float32
    n = np.sqrt(np.sum(x.astype(np.float64) ** 2))
    assert_close(g, np.cos(x / n) / n, rtol=1e-5)
    assert grad(lambda s: s * stop_gradient(s) + s)(3.0) == pytest.approx(4.0)


def test_grad_of_stop_gradient_itself_is_zero():
    assert grad(stop_gradient)(2.0) == 0.0
    assert_close(grad(lambda x: np.sum(stop_gradient(x)))(np.ones(3)), np.zeros(3))


Pair = collections.namedtuple("Pair", "a b")


def test_plain_python_returns_an_equal_copy():
    x = np.arange(3.0)
    y = stop_gradient(x)
    assert y is not x and np.array_equal(y, x)
    nested = {"a": [x, 2.0], "b": (x, "label", None, 3)}
    copy = stop_gradient(nested)
    assert copy["b"][1:] == ("label", None, 3) and copy["a"][1] == 2.0
    assert copy["a"][0] is not x and np.array_equal(copy["b"][0], x)
    assert type(copy["a"]) is list and type(copy["b"]) is tuple
    pair = stop_gradient(Pair(x, 1.5))
    assert type(pair) is Pair and pair.b == 1.5 and np.array_equal(pair.a, x)
    assert stop_gradient(np.float32(1.5)) == np.float32(1.5)


def test_an_object_is_refused_in_plain_python():
    class Box:
        w = np.ones(2)
    with pytest.raises(TypeError, match="stop_gradient takes arrays, numbers and tuples, "
                                        "lists or dicts of them, not Box"):
        stop_gradient(Box())
