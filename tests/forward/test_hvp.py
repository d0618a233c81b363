"""hvp and hessian (reverse mode over the generated `<name>_jvp`, transform/hessians.py):
H v against central finite differences of grad (tests/fd.py) under every policy, on
straight-line code, loops, branches and matrix products; the Hessian symmetric, against
differences and against a closed form; what the route cannot take is refused."""
import math

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import POLICIES, rng
from transform import TransformError, grad, hessian, hvp, jvp


def straight(x):
    y = np.sin(x) * x
    return np.sum(np.tanh(y) ** 2) + np.exp(x[0]) * x[1]


def looped(x, k):
    s = 0.0
    for t in range(4):
        x = np.tanh(k * x + t)
        s = s + np.sum(x * x)
    return s


def branched(x):
    s = np.sum(x ** 3)
    if s > 0:
        s = s * np.cos(s)
    else:
        s = s * s
    return s


def matrices(W, x):
    h = np.tanh(W @ x)
    return np.sum(h * h) + np.sum(np.log(1.0 + W ** 2))


def quadratic(x, A):
    return x @ (A @ x)


def calls(x):
    return cube(x) * 2.0


def cube(x):
    return np.sum(x ** 3)


def method(x):
    return np.exp(x).sum()


def vector(x):
    return np.sin(x)


CASES = [
    (straight, lambda r: (r.normal(size=4),), 0),
    (looped, lambda r: (r.normal(size=3), 0.7), 0),
    (looped, lambda r: (r.normal(size=3), 0.7), 1),
    (branched, lambda r: (r.normal(size=3) + 0.5,), 0),
    (branched, lambda r: (r.normal(size=3) - 2.0,), 0),
    (matrices, lambda r: (r.normal(size=(3, 2)), r.normal(size=2)), 0),
    (matrices, lambda r: (r.normal(size=(3, 2)), r.normal(size=2)), 1),
    (method, lambda r: (r.normal(size=3),), 0),
    (calls, lambda r: (r.normal(size=3),), 0),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_hvp_matches_differences_of_grad(case, policy):
    fn, make, wrt = CASES[case]
    r = rng(32, case)
    args = make(r)
    v = r.normal(size=np.shape(args[wrt])) if np.ndim(args[wrt]) else 0.9
    got = hvp(fn, args, (v,), wrt=wrt, policy=policy)
    expected = numerical_jvp(grad(fn, wrt, policy=policy), args, wrt, v)
    assert np.shape(got) == np.shape(args[wrt])
    assert_close(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", [0, 3, 5])
def test_hessian_is_symmetric_and_matches_differences(case):
    fn, make, wrt = CASES[case]
    args = make(rng(33, case))
    H = hessian(fn, wrt)(*args)
    arg = args[wrt]
    assert H.shape == arg.shape + arg.shape
    flat = H.reshape(arg.size, arg.size)
    assert_close(flat, flat.T, rtol=1e-9, atol=1e-9)
    g = grad(fn, wrt)
    for k in range(arg.size):
        basis = np.zeros(arg.size)
        basis[k] = 1.0
        column = numerical_jvp(g, args, wrt, basis.reshape(arg.shape))
        assert_close(flat[:, k], np.ravel(column), rtol=1e-5, atol=1e-6)


def test_hessian_of_a_quadratic_is_its_symmetric_part():
    r = rng(34)
    A = r.normal(size=(3, 3))
    assert_close(hessian(quadratic)(r.normal(size=3), A), A + A.T, rtol=1e-12, atol=1e-12)


def test_hessian_of_a_float_argument_is_a_float():
    assert_close(hessian(looped, 1)(np.array([0.2, -0.1]), 0.7),
                 numerical_jvp(grad(looped, 1), (np.array([0.2, -0.1]), 0.7), 1, 1.0))


def test_hvp_of_a_tuple_argument_is_shaped_like_it():
    def f(p):
        return np.sum(p[0] ** 2 * p[1])
    x = np.array([0.3, 0.7])
    got = hvp(f, ((x, x + 1),), ((x, 2 * x),))
    expected = numerical_jvp(grad(f), ((x, x + 1),), 0, (x, 2 * x))
    assert isinstance(got, tuple)
    assert_close(got[0], expected[0])
    assert_close(got[1], expected[1])


def divides_at(x):
    a = x * 1.0
    np.divide.at(a, [0, 0], x + 2.0)
    return np.sum(a * a)


def absolute(x):
    return np.sum(np.abs(x) * x ** 2)


def test_helpers_without_reverse_rules_are_refused_at_the_users_function():
    """np.divide.at's tangent term calls at_b_jvp, a helper without a reverse rule of its
    own (tests/rules/second_order_missing.txt; np.sinc's sinc_slope, which this test used
    before, has one since session 38, math.prod's math_prod_vjp is differentiated from
    its source since session 39, eigh_jvp since session 35, np.divide.outer's terms are
    plain templates since session 40)."""
    with pytest.raises(TransformError, match="np.divide.at on this line has a derivative "
                       "rule, but not the second") as info:     # (msgs41's wording)
        hvp(divides_at, (np.arange(1.0, 3.0),), (np.ones(2),), route="reverse_over_forward")
    assert "at_b_jvp" not in str(info.value)   # (a name the user never wrote)
    assert info.value.filename == __file__ and info.value.hint


def test_hvp_through_abs_max_and_sorted():
    """Their JVP terms call VJP helpers (abs_vjp, extremum_vjp, sorted_jvp), which have
    reverse rules of their own now (session 33)."""
    r = rng("hvp abs max sorted")
    x, v = r.normal(size=4), r.normal(size=4)
    for fn in (absolute, extremes, ordered):
        got = hvp(fn, (x,), (v,))
        assert_close(got, numerical_jvp(grad(fn), (x,), 0, v), rtol=1e-5, atol=1e-6)


def extremes(x):
    return np.max(x * x) * np.sum(x) + np.min(np.sin(x))


def ordered(x):
    ys = sorted([x[0] * x[1], x[2], x[3] ** 2])
    return ys[0] * ys[2] + ys[1]


def mixed(x, y):
    return np.sum(np.tanh(x) * y ** 2) + np.sum(x) * calls(y)


@pytest.mark.parametrize("policy", POLICIES)
def test_hvp_with_a_tuple_wrt_is_the_joint_hessian_applied(policy):
    """Entry i is sum_j H_ij v_j: against differences of grad with respect to both,
    both arguments stepped together."""
    r = rng("hvp tuple wrt")
    x, y, vx, vy = (r.normal(size=3) for _ in range(4))
    got = hvp(mixed, (x, y), (vx, vy), wrt=(0, 1), policy=policy)
    g = grad(mixed, (0, 1))
    eps = 1e-6
    plus, minus = g(x + eps * vx, y + eps * vy), g(x - eps * vx, y - eps * vy)
    assert isinstance(got, tuple) and len(got) == 2
    for k in range(2):
        assert_close(got[k], (plus[k] - minus[k]) / (2 * eps), rtol=1e-5, atol=1e-6)
    assert_close(hvp(mixed, (x, y), (vx,), wrt=(0,), policy=policy)[0],
                 hvp(mixed, (x, y), (vx,), wrt=0, policy=policy), rtol=1e-12, atol=0)


def test_non_scalar_output_and_wrong_arguments_are_refused():
    with pytest.raises(TypeError, match="scalar"):
        hvp(vector, (np.ones(2),), (np.ones(2),))
    with pytest.raises(TypeError, match="one entry per"):
        hvp(matrices, (np.ones((3, 2)), np.ones(2)), (np.ones(2),), wrt=(0, 1))
    with pytest.raises(TypeError, match="one entry"):
        hvp(straight, (np.ones(4),), np.ones(4))
    with pytest.raises(ValueError, match="shape"):
        hvp(straight, (np.ones(4),), (np.ones(3),))
    with pytest.raises(TypeError, match="'x': it is str, not a float"):   # as grad says
        hessian(straight)("text")


def keyword_only(x, *, y):
    for t in range(2):
        y = y * x
    return np.sum(y)


@pytest.mark.parametrize("policy", POLICIES)
def test_keyword_only_parameter_reassigned_in_a_loop_keeps_its_value(policy):
    """reverse mode's prelude set it to None (hvp's `x_dot` reassigned in a loop)."""
    x, y = np.array([2.0, -0.5]), np.array([3.0, 1.5])
    got = grad(keyword_only, policy=policy)(x, y=y)
    assert_close(got, numerical_jvp(lambda a: keyword_only(a, y=y), (x,), 0, np.eye(2)[0])
                 * np.eye(2)[0] + numerical_jvp(lambda a: keyword_only(a, y=y), (x,), 0,
                                                np.eye(2)[1]) * np.eye(2)[1])


def pair_loss(p):
    return np.sum(np.tanh(p[0]) * p[1][:2] ** 2) + p[2] * np.sum(p[0] ** 3) * p[1][2]


def dict_loss(d):
    return np.sum(np.sin(d["w"] @ d["v"])) * d["scale"]


def _blocks_against_differences(fn, arg, H):
    """H[i][j][..., e] against differences of grad's leaf i along entry e of leaf j."""
    keys = list(arg) if isinstance(arg, dict) else range(len(arg))
    g = grad(fn)
    for j in keys:
        for e in np.ndindex(np.shape(arg[j])):
            hot = np.zeros(np.shape(arg[j]))
            hot[e] = 1.0
            entries = {k: (hot if np.ndim(arg[j]) else 1.0) if k == j else
                       np.zeros_like(arg[k]) * 1.0 for k in keys}
            direction = entries if isinstance(arg, dict) else \
                type(arg)(entries[k] for k in keys)
            column = numerical_jvp(g, (arg,), 0, direction)
            for i in keys:
                assert np.shape(H[i][j]) == np.shape(arg[i]) + np.shape(arg[j])
                assert_close(np.asarray(H[i][j])[(...,) + e], column[i], rtol=1e-5,
                             atol=1e-6)


def test_hessian_of_a_tuple_argument_is_nested_blocks():
    r = rng("hessian blocks tuple")
    arg = (r.normal(size=2), r.normal(size=3), 0.7)
    H = hessian(pair_loss)(arg)
    assert isinstance(H, tuple) and all(isinstance(row, tuple) for row in H)
    assert isinstance(H[2][2], float)
    _blocks_against_differences(pair_loss, arg, H)
    assert_close(H[0][1], np.swapaxes(H[1][0], 0, 1), rtol=1e-9, atol=1e-12)


def test_hessian_of_a_dict_argument_is_nested_blocks():
    r = rng("hessian blocks dict")
    arg = {"w": r.normal(size=(2, 3)), "v": r.normal(size=3), "scale": 1.3}
    H = hessian(dict_loss)(arg)
    assert set(H) == set(arg) and all(set(row) == set(arg) for row in H.values())
    _blocks_against_differences(dict_loss, arg, H)


def mapped(x):
    w = x * 1.5
    ys = list(map(lambda t: t * w, [x, x * x, 2.0]))
    return np.sum(ys[0] + ys[1] * ys[2])


def test_two_specialisations_alive_at_once():
    """jvp of a number and of an array compiles two `mapped_jvp`s whose texts differ; both
    were registered under one file name, so reverse mode over the first (hvp) read the
    second's text and refused it as changed on disk (session 33: found by the corpus
    runs in one process). Each specialisation's name now says its shapes."""
    jvp(mapped, (0.3,), (1.0,))
    jvp(mapped, (np.ones(3),), (np.ones(3),))
    got = hvp(mapped, (0.3,), (1.0,))
    assert_close(got, numerical_jvp(grad(mapped), (0.3,), 0, 1.0), rtol=1e-5, atol=1e-6)
