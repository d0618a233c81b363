"""jacrev / jacobian (issue 20): the Jacobian of an output of shape S with respect to an
argument of shape A has shape S + A (a tuple for a tuple wrt, the argument's structure for
a container, the output's structure outermost), against finite-difference Jacobians built
row by row from tests/fd.py's numerical_vjp, under every policy. One forward sweep serves
every row: the pullback vjp returns is called once per output entry."""
import collections
import dataclasses

import numpy as np
import pytest

import transform
from runtime import rrule
from tests.fd import assert_close, numerical_tree_vjp, numerical_vjp
from tests.gradcheck import POLICIES, readonly, rng
from transform import TransformError, grad, jacobian, jacrev


def fd_jacobian(f, args, k):
    """d f / d args[k] as out.shape + arg.shape, one finite-difference VJP per row."""
    out = np.asarray(f(*args))
    rows = []
    for index in np.ndindex(out.shape):
        hot = np.zeros(out.shape)
        hot[index] = 1.0
        rows.append(numerical_vjp(f, args, k, hot))
    return np.stack(rows).reshape(out.shape + np.shape(args[k]))


def recurrent(x, W):
    """A loop whose weight's cotangent accumulates across iterations, and a branch."""
    h = x
    for k in range(3):
        h = np.tanh(W @ h + x)
        if np.sum(h) < 0:
            h = h * 0.5
    return h


def matrix_output(x, y):
    return np.outer(np.sin(x), y) + x[:, None] * 0.1


def pair_output(x, y):
    return np.sum(x * y), {"scaled": x * np.exp(y[0]), "norm": np.sqrt(np.sum(x ** 2))}


def layer(params, x):
    return np.tanh(params["W"] @ x + params["b"]) * params["scale"]


def scalar_of_float(t):
    return t ** 3 + np.sin(t)


def vector_of_float(t):
    return np.array([np.cos(t), t ** 2, 2.0 * t])


FORWARDS = []


def counted(x):
    return x * 2.0


@rrule(counted)
def _counted_rule(x):
    FORWARDS.append(1)
    return counted(x), lambda g: (g * 2.0,)


def uses_counted(x):
    return np.sin(counted(x))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_loop_in_both_arguments(policy):
    r = rng("jac.recurrent")
    x, W = readonly([r.normal(size=3), 0.8 * r.normal(size=(3, 3))])
    Jx, JW = jacrev(recurrent, wrt=(0, 1), policy=policy)(x, W)
    assert Jx.shape == (3, 3) and JW.shape == (3, 3, 3)
    assert_close(Jx, fd_jacobian(recurrent, [x, W], 0))
    assert_close(JW, fd_jacobian(recurrent, [x, W], 1))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_matrix_output_by_name(policy):
    x, y = rng("jac.matrix").normal(size=(2, 3))
    J = jacobian(matrix_output, wrt="y", policy=policy)(x, y)
    assert J.shape == (3, 3, 3)
    assert_close(J, fd_jacobian(matrix_output, [x, y], 1))


def test_scalar_outputs_give_the_gradient():
    x = rng("jac.scalar").normal(size=4)
    f = lambda x: np.sum(np.sin(x) * x)                        # noqa: E731
    assert_close(jacrev(f)(x), grad(f)(x), rtol=0, atol=0)
    g = jacrev(scalar_of_float)(0.4)
    assert type(g) is float and g == pytest.approx(3 * 0.16 + np.cos(0.4))
    zero_d = jacrev(lambda x: np.asarray(np.sum(x ** 2)))(x)   # a 0-d array output
    assert_close(zero_d, 2 * x)


def test_a_vector_of_a_float():
    J = jacrev(vector_of_float)(0.7)
    assert J.shape == (3,) and J.dtype == np.float64
    assert_close(J, fd_jacobian(vector_of_float, [0.7], 0))


def test_float32_stays_float32():
    x = rng("jac.f32").normal(size=3).astype(np.float32)
    W = rng("jac.f32W").normal(size=(3, 3)).astype(np.float32)
    J = jacrev(recurrent)(x, W)
    assert J.dtype == np.float32 and J.shape == (3, 3)
    want = fd_jacobian(recurrent, [x.astype(np.float64), W.astype(np.float64)], 0)
    assert_close(J, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_container_argument_gives_its_structure(policy):
    r = rng("jac.layer")
    params = {"W": r.normal(size=(2, 3)), "b": r.normal(size=2), "scale": 1.5}
    x = r.normal(size=3)
    J = jacrev(layer, policy=policy)(params, x)
    assert set(J) == {"W", "b", "scale"}
    assert J["W"].shape == (2, 2, 3) and J["b"].shape == (2, 2) and J["scale"].shape == (2,)
    for index in np.ndindex(2):                 # row by row: the tree VJP of each entry
        hot = np.zeros(2)
        hot[index] = 1.0
        want = numerical_tree_vjp(layer, [params, x], 0, hot)
        for name in ("W", "b", "scale"):
            assert_close(J[name][index], want[(name,)])


@pytest.mark.parametrize("policy", POLICIES)
def test_a_container_output_is_outermost(policy):
    x, y = rng("jac.pair").normal(size=(2, 3))
    value, parts = jacrev(pair_output, wrt=(0, 1), policy=policy)(x, y)
    assert isinstance(value, tuple) and set(parts) == {"scaled", "norm"}
    assert_close(value[0], y)
    assert_close(value[1], x)
    for name, shape in (("scaled", (3,)), ("norm", ())):
        def leaf(x, y, name=name):
            return pair_output(x, y)[1][name]
        for k in (0, 1):
            assert parts[name][k].shape == shape + (3,)
            assert_close(parts[name][k], fd_jacobian(leaf, [x, y], k))


def test_one_forward_serves_every_row():
    FORWARDS.clear()
    x = np.array([0.1, 0.2, 0.3, 0.4])
    J = jacrev(uses_counted)(x)
    assert FORWARDS == [1]
    assert_close(J, np.diag(2.0 * np.cos(2.0 * x)))


def test_a_registered_rule_and_a_bound_method():
    x = np.array([0.3, -0.6])
    assert_close(jacrev(np.tanh)(x), np.diag(1 - np.tanh(x) ** 2))

    class Scaler:
        def __init__(self, w):
            self.w = w

        def apply(self, x):
            return self.w * np.sin(x)
    assert_close(jacrev(Scaler(np.array([2.0, 3.0])).apply)(x),
                 np.diag(np.array([2.0, 3.0]) * np.cos(x)))


def test_an_empty_output():
    J = jacrev(lambda x: x[:0] * 2.0)(np.ones(3))
    assert J.shape == (0, 3)


def test_non_float_outputs_are_refused():
    with pytest.raises(TypeError, match=r"jacrev needs float outputs: the output\[1\] is int"):
        jacrev(lambda x: (x * 2.0, 3))(np.ones(2))
    with pytest.raises(TypeError, match=r"the output is ndarray of int64"):
        jacrev(lambda x: np.argsort(x))(np.ones(2))


def test_jacobian_is_jacrev_and_exported():
    assert jacobian is jacrev
    assert {"jacrev", "jacobian", "stop_gradient"} <= set(transform.__all__)


def test_jacrev_of_jacrev_against_differences_and_a_third_level_refused():
    # session 34: nested Jacobians (transform/nested_jacobians.py, tests/forward/
    # test_nested_jacobians.py); a Jacobian of that is still refused at the def
    x, W = np.array([0.3, -0.2, 0.5]), 0.4 * np.eye(3) + 0.1
    inner = jacrev(recurrent)
    got = jacrev(inner)(x, W)
    assert got.shape == (3, 3, 3)
    for j in range(3):
        e = np.zeros(3)
        e[j] = 1.0
        want = (inner(x + 1e-6 * e, W) - inner(x - 1e-6 * e, W)) / 2e-6
        assert_close(got[..., j], want, rtol=1e-6, atol=1e-8)
    with pytest.raises(TransformError, match="is not supported"):
        jacrev(jacrev(inner))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_pullback_called_again_leaves_its_earlier_results(policy):
    """What jacrev relies on: every call of vjp's pullback is a fresh backward sweep, its
    results new arrays (a buffer the generated code owns is not handed out twice)."""
    r = rng("jac.again")
    x, W = r.normal(size=3), 0.8 * r.normal(size=(3, 3))
    _, pullback = transform.vjp(recurrent, x, W, policy=policy)
    first = pullback(np.array([1.0, 0.0, 0.0]))
    kept = [g.copy() for g in first]
    second = pullback(np.array([0.0, 1.0, 0.0]))
    third = pullback(np.array([1.0, 0.0, 0.0]))
    for a, b, c in zip(first, kept, third):
        assert_close(a, b, rtol=0, atol=0)
        assert_close(c, b, rtol=0, atol=0)
    assert all(a is not b for a, b in zip(first, second))


def scaled_by_keyword(x, scale=1.0):
    return [np.sum(x) * scale, np.sum(x ** 2)]


def test_keywords_pass_through_and_a_list_of_floats():
    x = np.array([1.0, 2.0])
    J = jacrev(scaled_by_keyword)(x, scale=3.0)
    assert type(J) is list and len(J) == 2
    assert_close(J[0], [3.0, 3.0])
    assert_close(J[1], 2 * x)


Point = collections.namedtuple("Point", "x y")


@dataclasses.dataclass
class Weights:
    w: np.ndarray


def of_a_point(p):
    return Point(np.sin(p.x) * p.y, p.x * 2.0)


def of_weights(m, x):
    return m.w * x


def test_python_float_outputs():
    g = jacrev(lambda t: t * t * 3.0 + 1.0)(0.5)       # a Python float out, float in
    assert type(g) is float and g == pytest.approx(3.0)
    assert jacrev(lambda t: [t * 2.0, t * t])(1.5) == [pytest.approx(2.0), pytest.approx(3.0)]


def test_namedtuples_in_and_out():
    p = Point(np.array([0.3, -0.4]), 1.7)
    J = jacrev(of_a_point)(p)
    assert type(J) is Point and type(J.x) is Point and type(J.y) is Point
    assert J.x.x.shape == (2, 2) and J.x.y.shape == (2,) and J.y.x.shape == (2, 2)
    assert_close(J.x.x, np.diag(np.cos(p.x) * 1.7))
    assert_close(J.x.y, np.sin(p.x))
    assert_close(J.y.x, 2.0 * np.eye(2))
    assert_close(J.y.y, np.zeros(2))


def test_an_object_argument_is_refused():
    with pytest.raises(TypeError, match="jacrev: the gradient of an argument came back as "
                                        "Weights"):
        jacrev(of_weights)(Weights(np.ones(2)), np.array([1.0, 2.0]))


def of_a_tuple_and_a_list(pair, items):
    return pair[0] * np.sum(pair[1]) + items[0] * items[1]


def test_tuple_and_list_arguments_keep_their_type():
    pair, items = (np.array([0.5, 2.0]), np.array([1.0, -1.0, 3.0])), [1.5, np.array([2.0, 4.0])]
    Jp, Ji = jacrev(of_a_tuple_and_a_list, wrt=(0, 1))(pair, items)
    assert type(Jp) is tuple and type(Ji) is list
    assert Jp[0].shape == (2, 2) and Jp[1].shape == (2, 3)
    assert Ji[0].shape == (2,) and Ji[1].shape == (2, 2)
    assert_close(Jp[0], 3.0 * np.eye(2))
    assert_close(Jp[1], np.tile(pair[0][:, None], (1, 3)))
    assert_close(Ji[0], items[1])
    assert_close(Ji[1], 1.5 * np.eye(2))


@pytest.mark.parametrize("policy", POLICIES)
def test_has_aux_gives_the_jacobian_and_aux(policy):
    x, W = rng("jac.aux").normal(size=3), 0.8 * rng("jac.auxW").normal(size=(3, 3))

    def with_aux(x, W):
        h = recurrent(x, W)
        return h, {"norm": np.sum(h ** 2), "label": "h"}
    J, aux = jacrev(with_aux, has_aux=True, policy=policy)(x, W)
    assert_close(J, fd_jacobian(recurrent, [x, W], 0))
    assert aux["label"] == "h"
    assert_close(aux["norm"], np.sum(recurrent(x, W) ** 2), rtol=1e-12, atol=0)
