"""A Python list as the cotangent of an array, found judging shape_helpers.py:65 in
session 29: the array's other rules then use Python's list arithmetic on it (`g * 2` in
x ** 2's rule repeats a list): a crash, or, when the shapes still broadcast, a silently
wrong gradient. Three sources, each now giving an array:

- the builtin `sum` over an array (its rows): `sum(a ** 2)` and `sum(a * 3.0)` crashed;
  `sum(np.hstack([a, b]) ** 2)` with one entry in all gave half the gradient
  (runtime/rules/operators_helpers.py `sum_entries_vjp`);
- a list given to vjp's pullback for an array output (one entry: twice the gradient;
  transform/public/checks.py `check_cotangent`);
- a user rule's pullback returning a list for an array argument (runtime/registry.py
  `_arrays_for_arrays`)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_vjp
from tests.gradcheck import POLICIES, check_grad, rng
from transform import Thunk, rrule, unthunk, vjp

M = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.2]])


def squares(a):
    return sum(a ** 2)


def scaled(a):
    return sum(a * 3.0)


def cubes_with_start(a):
    return sum(a ** 3, 0.5)


def joined_squares(a, b):
    return sum(np.hstack([a, b]) ** 2)


def rows_squared(m):
    return sum(m.T ** 2)[1] + sum(np.sin(m) ** 2, np.zeros(2))[0] * 3.0


def rows_of_float32(m):
    return float(sum(m ** 2)[0])


CASES = [
    (squares, (np.array([1.0, 2.0, -3.0]),)),
    (squares, (np.array([1.5]),)),                       # one entry: crashed
    (scaled, (np.array([1.0, 2.0]),)),
    (cubes_with_start, (np.array([1.5]),)),
    (joined_squares, (np.array([1.0, -2.0]), np.array([0.5]))),
    (joined_squares, (np.array([1.5]), np.array([]))),   # silently half the gradient
    (squares, (np.array([]),)),                          # no rows: a zero cotangent
    (rows_squared, (M,)),
    (rows_of_float32, (M.astype(np.float32),)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", CASES,
                         ids=[f"{f.__name__}-{np.size(args[0])}" for f, args in CASES])
def test_builtin_sum_over_an_array(f, args, policy):
    tol = {"rtol": 1e-3, "atol": 1e-4} if args[0].dtype == np.float32 else {}
    check_grad(f, args, policy=policy, **tol)


def complex_rows(a, b):
    return np.abs(sum((a + 1j * b) ** 2)) ** 2


@pytest.mark.parametrize("policy", POLICIES)
def test_builtin_sum_over_a_complex_array(policy):
    r = rng("builtin sum complex")
    check_grad(complex_rows, (r.standard_normal(3), r.standard_normal(3)), policy=policy)


def doubled(x):
    return x ** 2 * 2


@pytest.mark.parametrize("seed", [[0.7], (0.7,), [0.7, -1.2, 2.0]])
def test_a_list_cotangent_for_an_array_output_is_read_as_an_array(seed):
    """g * 2 repeated the list: a crash."""
    x = np.array([1.5, -0.5, 2.0])[:len(seed)]
    out, pullback = vjp(doubled, x)
    (got,) = pullback(seed)
    assert_close(got, numerical_vjp(doubled, [x], 0, np.asarray(seed)))


def joined_squared(a, b):
    return np.hstack([a, b]) ** 2


def test_a_one_entry_list_cotangent_of_a_join():
    """[0.7] became [0.7, 0.7] in x ** 2's rule and the join's cut kept the first half:
    half the gradient, silently."""
    a, b = np.array([1.5]), np.array([])
    out, pullback = vjp(joined_squared, a, b)
    got, _ = pullback([0.7])
    assert_close(got, numerical_vjp(joined_squared, [a, b], 0, np.array([0.7])))


def test_a_list_cotangent_of_another_shape_is_refused():
    out, pullback = vjp(doubled, np.array([1.5, -0.5]))
    with pytest.raises(ValueError, match="shaped like the output"):
        pullback([1.0])


def two_outputs(x):
    return x[:2] * 2.0, [x[2] ** 2]


def test_a_tuple_output_keeps_its_tuple_cotangent():
    """Only an array output's list is read as an array: a tuple output's cotangent is a
    tuple of the outputs' cotangents (of different shapes here)."""
    x = np.array([1.5, -0.5, 2.0])
    out, pullback = vjp(two_outputs, x)
    (got,) = pullback((np.array([1.0, -1.0]), [0.5]))
    assert_close(got, np.array([2.0, -2.0, 2.0]))


def weighted(v):
    return float(v[0] * 2.0 + v[-1])


@rrule(weighted)
def _weighted_rule(v):
    def pullback(g):
        g = unthunk(g)
        out = [0.0] * len(v)                 # a list for the array v
        out[0] += 2.0 * g
        out[-1] += g
        return (out,)
    return weighted(v), pullback


def lazily_weighted(v):
    return float(v[0] * 2.0 + v[-1])


@rrule(lazily_weighted)
def _lazily_weighted_rule(v):
    def pullback(g):
        def cotangent():
            return [2.0 * unthunk(g)] + [0.0] * (len(v) - 2) + [unthunk(g)]
        return (Thunk(cotangent),)
    return lazily_weighted(v), pullback


def user_rule_of_squares(a):
    return weighted(a ** 2)


def user_rule_of_a_product(a):
    return weighted(a * 3.0) + lazily_weighted(a ** 2)


def user_rule_of_a_join(a, b):
    return lazily_weighted(np.concatenate([a, b]) ** 2)


USER_CASES = [(user_rule_of_squares, (np.array([1.5]),)),
              (user_rule_of_squares, (np.array([1.5, 2.0, -1.0]),)),
              (user_rule_of_a_product, (np.array([1.5, 2.0]),)),
              (user_rule_of_a_join, (np.array([1.5]), np.array([-0.5])))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", USER_CASES,
                         ids=[f"{f.__name__}-{np.size(args[0])}" for f, args in USER_CASES])
def test_a_user_rule_giving_a_list_for_an_array(f, args, policy):
    check_grad(f, args, policy=policy)


def masked(v, mask):
    return float(np.sum(v * mask))


@rrule(masked)
def _masked_rule(v, mask):
    def pullback(g):
        return (unthunk(g) * mask,)          # none for the mask (not differentiated)
    return masked(v, mask), pullback


def sized(v, w):
    return float(np.sum(w) * len(v))        # v: only its length is read


@rrule(sized)
def _sized_rule(v, w):
    def pullback(g):
        g = unthunk(g)
        return (None, [g * len(v)] * len(w))   # v's: none (a zero)
    return sized(v, w), pullback


def short_pullback(a):
    return masked(a ** 2, np.array([1.0, 0.0, 2.0]))


def zero_for_an_array(a, b):
    return sized(a ** 2, b ** 2) + np.sum(a)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_user_pullback_with_fewer_cotangents_than_arguments(policy):
    """The arrays left out are not differentiated: nothing to read as an array."""
    check_grad(short_pullback, (np.array([1.5, 2.0, -1.0]),), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_user_pullback_giving_none_for_an_array(policy):
    """None (a zero cotangent) for an array stays None: never an array holding None."""
    check_grad(zero_for_an_array, (np.array([1.5, 2.0]), np.array([0.5, -1.0])),
               policy=policy)
