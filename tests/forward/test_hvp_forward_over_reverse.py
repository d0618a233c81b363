"""hvp's forward-over-reverse route (transform/hvp_forward.py: forward mode over
reverse mode's gradient written as one function, transform/flat_gradient.py): H v
against central finite differences of grad (tests/fd.py) on straight-line code, loops
(the tape read by position), nested loops, branches, matrix products, indexing
containers and a tuple `wrt`; the same as the other route; what it cannot take is
refused at the user's line; the dump shows the code it runs."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.forward.test_hvp import CASES as ROUTE_CASES, vector
from tests.gradcheck import POLICIES, rng
from transform import TransformError, grad, hvp
from transform.hessians import hvp_source

ROUTE = "forward_over_reverse"


def nested(a):
    s = 0.0
    for i in range(3):
        t = a[i]
        for j in range(2):
            t = t * a[j] + 0.1
        s = s + t
    return s


def rnn(Wh, xs, h):
    for x in xs:
        h = np.tanh(Wh @ h + x)
    return np.sum(h * h)


def softmax_loss(W, X):
    z = X @ W
    z = z - np.max(z, axis=1, keepdims=True)
    return np.mean(np.log(np.sum(np.exp(z), axis=1)))


def indexed(x):
    pair = [x[0] * x[1], np.sin(x)]
    return pair[0] * np.sum(pair[1] ** 2) + x[2] ** 3


def branchy_loop(x):
    s = 0.0
    for k in range(3):
        if np.sum(x) > k - 1:
            s = s + np.sum(np.exp(x * k))
        else:
            s = s - np.sum(x ** 2)
    return s


def stores(x):
    y = np.zeros(4)
    y[1:3] = np.sin(x[:2]) * x[2]
    y[0] = x[3] ** 2
    for k in range(2):
        y[k] = y[k] * x[k] + y[k + 1]
    return np.sum(y * y)


def two(x, y):
    return np.sum(np.sin(x) * y ** 2) + x[0] * y[1] ** 3


CASES = ROUTE_CASES + [
    (nested, lambda r: (r.normal(size=3),), 0),
    (rnn, lambda r: (0.5 * r.normal(size=(3, 3)), r.normal(size=(4, 3)), r.normal(size=3)), 0),
    (rnn, lambda r: (0.5 * r.normal(size=(3, 3)), r.normal(size=(4, 3)), r.normal(size=3)), 2),
    (softmax_loss, lambda r: (r.normal(size=(3, 4)), r.normal(size=(5, 3))), 0),
    (indexed, lambda r: (r.normal(size=3),), 0),
    (branchy_loop, lambda r: (r.normal(size=2),), 0),
    (stores, lambda r: (r.normal(size=4),), 0),
]
TAKEN = range(len(CASES))


@pytest.mark.parametrize("case", TAKEN)
def test_hvp_forward_over_reverse_matches_differences_of_grad(case):
    fn, make, wrt = CASES[case]
    r = rng(35, case)
    args = make(r)
    v = r.normal(size=np.shape(args[wrt])) if np.ndim(args[wrt]) else 0.9
    got = hvp(fn, args, (v,), wrt=wrt, route=ROUTE)
    expected = numerical_jvp(grad(fn, wrt), args, wrt, v)
    assert np.shape(got) == np.shape(args[wrt])
    assert_close(got, expected, rtol=1e-5, atol=1e-6)
    assert_close(got, hvp(fn, args, (v,), wrt=wrt, route="reverse_over_forward"),
                 rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_policy(policy):
    r = rng(36, policy)
    args, v = (r.normal(size=3), 0.7), r.normal(size=3)
    got = hvp(ROUTE_CASES[1][0], args, (v,), route=ROUTE, policy=policy)
    assert_close(got, numerical_jvp(grad(ROUTE_CASES[1][0]), args, 0, v),
                 rtol=1e-5, atol=1e-6)


def test_a_tuple_wrt_gives_the_mixed_products():
    r = rng(37)
    x, y, vx, vy = (r.normal(size=3) for _ in range(4))
    got = hvp(two, (x, y), (vx, vy), wrt=(0, 1), route=ROUTE)
    step = 1e-5
    want = [(a - b) / (2 * step) for a, b in zip(grad(two, (0, 1))(x + step * vx, y + step * vy),
                                                  grad(two, (0, 1))(x - step * vx, y - step * vy))]
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        assert_close(g, w, rtol=1e-5, atol=1e-6)


def layer(W, h):
    return np.tanh(W @ h)


def calls_in_a_loop(W, h):
    for _ in range(3):
        h = layer(W, h) + 0.1 * h
    return np.sum(h ** 2)


def test_calls_of_the_users_functions():
    """A callee's pullback becomes callee_vjp (transform/flat_calls.py): its own gradient
    seeded with the cotangent, forward mode over that one level down."""
    r = rng(38)
    args, v = (0.5 * r.normal(size=(3, 3)), r.normal(size=3)), r.normal(size=(3, 3))
    assert_close(hvp(calls_in_a_loop, args, (v,), route=ROUTE),
                 numerical_jvp(grad(calls_in_a_loop), args, 0, v), rtol=1e-5, atol=1e-6)


def test_an_unknown_route_and_a_non_scalar_output_are_errors():
    with pytest.raises(ValueError, match="route"):
        hvp(nested, (np.ones(3),), (np.ones(3),), route="sideways")
    with pytest.raises(TypeError, match="must return a scalar"):
        hvp(vector, (np.ones(3),), (np.ones(3),), route=ROUTE)


def test_the_dump_shows_the_flat_gradient_and_its_tangent_code():
    text = hvp_source(nested, route=ROUTE)
    assert "def nested_grad(a):" in text and "gradient_seed(s)" in text
    assert "tape[tape_top]" in text and "def nested_grad_tan(a_dot, a):" in text


def test_cli_dump_hvp_with_the_route(capsys):
    from transform.cli import main
    assert main(["dump", f"{__file__}:nested", "--mode", "hvp", "--route", ROUTE]) == 0
    assert capsys.readouterr().out == hvp_source(nested, route=ROUTE)
    assert main(["dump", f"{__file__}:nested", "--route", ROUTE]) == 2
    assert "--route applies to --mode hvp only" in capsys.readouterr().err


def clashing(x):
    tape_top = 0.5                      # the name the tape's reading position takes
    s = 0.0
    for i in range(3):
        s = s + np.sum(np.sin(x * i)) * tape_top
    return s


def test_a_users_name_is_not_taken_by_the_tapes_position():
    x, v = np.array([0.3, 0.5]), np.array([1.0, -2.0])
    assert_close(hvp(clashing, (x,), (v,), route=ROUTE),
                 numerical_jvp(grad(clashing), (x,), 0, v), rtol=1e-5, atol=1e-6)
