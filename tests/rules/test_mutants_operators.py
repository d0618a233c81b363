"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/operators.py: the operators declared elementwise keep their operands'
shape, which lets the compiler drop `unbroadcast` where every shape is x's. A value
check cannot see that; the calls of unbroadcast made by the gradient can."""
import threading
import types

import numpy as np
import pytest

import runtime
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad
from transform.api import compiled, signature_of

X = np.array([0.3, -1.2, 0.7])


def sub_of(x):
    return np.sum(np.tanh(x - np.sin(x)))


def add_of(x):
    return np.sum(np.tanh(x + np.sin(x)))


def mul_of(x):
    return np.sum(np.tanh(x * np.sin(x)))


def truediv_of(x):
    return np.sum(np.tanh(x / np.cosh(x)))


def pow_of(x):
    return np.sum(np.tanh(np.cosh(x) ** 2.0) * x)


def neg_of(x):
    return np.sum(np.sin(-x) * x)


def pos_of(x):
    return np.sum(np.sin(+x) * x)


def abs_of(x):
    return np.sum(np.sin(abs(x)) * x)


@pytest.fixture
def unbroadcasts(monkeypatch):
    """The calls of `unbroadcast` the generated code makes (it is bound from the template
    namespace when a gradient is compiled)."""
    calls = []
    real = runtime.TEMPLATE_NAMESPACE["unbroadcast"]

    def counted(*args, **kwargs):
        calls.append(np.shape(args[1]) if len(args) > 1 else None)
        return real(*args, **kwargs)
    monkeypatch.setitem(runtime.TEMPLATE_NAMESPACE, "unbroadcast", counted)
    return calls


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [add_of, sub_of, mul_of, truediv_of, pow_of, neg_of,
                                pos_of, abs_of], ids=lambda f: f.__name__)
def test_elementwise_operators_need_no_unbroadcast_on_one_shape(fn, policy, unbroadcasts):
    """Every value is shaped like x: the gradient is right and calls no unbroadcast (an
    operator not known to keep its operands' shape leaves one per operand)."""
    fresh = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__)   # not cached
    got = grad(fresh, policy=policy)(X.copy())
    assert_close(got, numerical_grad(fn, (X.copy(),), 0), rtol=1e-6)
    assert unbroadcasts == []


def broadcast_of(x, row):
    return np.sum(np.tanh(x[:, None] * row))


@pytest.mark.parametrize("policy", POLICIES)
def test_the_counter_sees_a_needed_unbroadcast(policy, unbroadcasts):
    """The count above can fail: an outer product's operands need their sums."""
    fresh = types.FunctionType(broadcast_of.__code__, broadcast_of.__globals__, "broadcast_of")
    args = (X.copy(), np.array([0.5, -2.0]))
    got = grad(fresh, wrt=(0, 1), policy=policy)(*args)
    for k in (0, 1):
        assert_close(got[k], numerical_grad(broadcast_of, args, k), rtol=1e-6)
    assert len(unbroadcasts) >= 2


def builtin_pow_then_sum(x):
    y = np.sin(x)
    return np.sum(pow(x, 3.0) * y + x)


def test_builtin_pow_cotangent_is_added_in_place(monkeypatch):
    """pow(base, exp) is elementwise, so its cotangents are arrays or numbers (numeric):
    the loop policy adds them with `+` and `+=`, never through the general `accum`."""
    calls = []
    real = runtime.accum

    def counted(*args):
        calls.append(len(args))
        return real(*args)
    monkeypatch.setattr(runtime, "accum", counted)
    fresh = types.FunctionType(builtin_pow_then_sum.__code__, globals(), "builtin_pow_then_sum")
    got = grad(fresh, policy="loop")(X.copy())
    assert_close(got, numerical_grad(builtin_pow_then_sum, (X.copy(),), 0), rtol=1e-6)
    assert calls == []


def scaled_by_float(x):
    s = float(np.sum(x))
    return np.sum(np.sin(x * s))


@pytest.mark.parametrize("policy", POLICIES)
def test_float_is_known_to_be_a_scalar(policy, unbroadcasts):
    """float(...) is a Python float (scalar_result): x * s has x's shape, so x's cotangent
    needs no unbroadcast, and s's is one dot product (np.vdot, session 29), not an
    unbroadcast to shape ()."""
    fresh = types.FunctionType(scaled_by_float.__code__, globals(), "scaled_by_float")
    got = grad(fresh, policy=policy)(X.copy())
    assert_close(got, numerical_grad(scaled_by_float, (X.copy(),), 0), rtol=1e-6)
    text = compiled(fresh, ("x",), policy, signature=signature_of((X,))).source   # grad's
    assert X.shape not in unbroadcasts and "np.vdot(" in text


# The container rules of operators.py, differentiated through compiled code (their own
# tests live in tests/containers, which the mutation run does not stage for this file).
def dict_values(d):
    return sum(np.sum(v * v) for v in d.values())


def dict_items(d):
    total = 0.0
    for k, v in d.items():
        total = total + np.sum(np.sin(v)) * len(k)
    return total


def dict_get(d):
    return np.sum(d.get("a") * d.get("b", 2.0)) + np.sum(d.get("z", d["b"]))


def dict_keys(d):
    total = 0.0
    for k in d.keys():
        total = total + np.sum(d[k] ** 2)
    return total


def dict_copy(d):
    e = d.copy()
    return np.sum(e["a"] * e["b"])


def list_copy(xs):
    ys = xs.copy()
    return np.sum(ys[0] * ys[1])


def columns(rows):
    a, b = zip(*rows)
    return np.sum(np.array(a) * np.array(b) ** 2)


def list_index(xs):
    return np.sum(xs[[1.5, 2.5].index(2.5)] * xs[0]) + [1, 2, 2].count(2)


def listed_values(d):
    vs = list(d.values())
    return np.sum(vs[0] * vs[1])


def listed_items(d):
    pairs = list(d.items())
    return np.sum(pairs[0][1] * pairs[1][1])


def dict_copy_function(d):
    e = dict.copy(d)
    return np.sum(e["a"] * e["b"])


def list_copy_function(xs):
    ys = list.copy(xs)
    return np.sum(ys[0] * ys[1])


def counted_entries(x):
    xs = [x[0], x[1], x[0]]
    return xs.count(x[0]) * np.sum(x) + (x[0], x[1]).index(x[1]) * x[1]


D = {"a": np.array([0.3, -1.2]), "b": np.array([0.8, 0.4])}
L = [np.array([0.3, -1.2]), np.array([0.5, 2.0])]
CONTAINER_CASES = [(listed_values, D), (listed_items, D), (dict_copy_function, D),
                   (list_copy_function, L), (counted_entries, np.array([0.3, 0.2])),
                   (dict_values, D), (dict_items, D), (dict_get, D), (dict_keys, D),
                   (dict_copy, D), (list_copy, [np.array([0.3, -1.2]), np.array([0.5, 2.0])]),
                   (columns, [(0.3, 1.5), (-1.2, 0.7), (0.4, -0.9)]),
                   (list_index, [np.array([0.3, -1.2]), np.array([0.5, 2.0])])]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,arg", CONTAINER_CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_container_rules_against_finite_differences(fn, arg, policy):
    check_grad(fn, [arg], wrt=0, policy=policy)


def concatenated(a, b):
    zs = [a, 2.0 * a] + [b]
    return zs[0] + 3.0 * zs[1] + 5.0 * zs[2] * zs[2]


def remainder(x, y):
    return np.sum((x % y) * np.array([1.0, -2.0, 0.5]))


def absolute(x):
    return np.sum(abs(x) * np.array([1.0, -2.0, 0.5]))


def builtin_power(x, e):
    return np.sum(pow(x, e) * np.array([1.0, -2.0, 0.5]))


OPERATOR_CASES = [
    (concatenated, (0.7, -1.3)),                          # lists of unequal length
    (remainder, (np.array([7.3, -5.2, 4.4]), 2.1)),       # quotients 3, -3, 2
    (absolute, (np.array([0.0, 1.5, -2.0]),)),            # 0 at the kink: sign 0
    (builtin_power, (np.array([0.6, 1.5, 2.5]), 3.0)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", OPERATOR_CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_operator_rules_against_finite_differences(fn, args, policy):
    """`+` on lists of unequal length (each part its own share of the cotangent), `%`'s
    divisor (minus the quotient), abs at 0 (the symmetric difference: 0) and the builtin
    pow's base."""
    check_grad(fn, list(args), policy=policy)


def managed(x):
    with Scale(3.0) as k:
        y = np.sum(np.sin(x)) * k
    return y


class Scale:
    def __init__(self, k):
        self.k = k

    def __enter__(self):
        return self.k

    def __exit__(self, *exc_info):
        return False


@pytest.mark.parametrize("policy", POLICIES)
def test_a_with_block_in_a_differentiated_function(policy):
    """`with m as v:` runs m.__enter__() and m.__exit__(...) (declared methods)."""
    check_grad(managed, [X.copy()], policy=policy)



LOCK = threading.Lock()


def locked(x):
    with LOCK:
        y = np.sum(np.sin(x) * x)
    return y


@pytest.mark.parametrize("policy", POLICIES)
def test_a_with_block_whose_manager_has_no_python_source(policy):
    """A lock's __enter__/__exit__ are C methods: the with statement runs them as the
    declared nondiff helpers enter_context / exit_context (no source is needed)."""
    check_grad(locked, [X.copy()], policy=policy)
    assert not LOCK.locked()


W = np.array([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7], [0.2, 0.9, 1.1]])


def matmul_then_sum(x):
    y = np.sin(x)
    return np.sum((x @ W) * y + x)


def test_matmul_cotangent_is_added_in_place(monkeypatch):
    """`@`'s cotangents are arrays (numeric): the loop policy adds them with `+`, never
    through the general `accum`."""
    calls = []
    real = runtime.accum

    def counted(*args):
        calls.append(len(args))
        return real(*args)
    monkeypatch.setattr(runtime, "accum", counted)
    fresh = types.FunctionType(matmul_then_sum.__code__, globals(), "matmul_then_sum")
    got = grad(fresh, policy="loop")(X.copy())
    assert_close(got, numerical_grad(matmul_then_sum, (X.copy(),), 0), rtol=1e-6)
    assert calls == []


def float_then_sum(a):
    return float(a) * 2.0 + a * a


def test_float_cotangent_is_added_in_place(monkeypatch):
    """float(x)'s cotangent is a number (numeric): added with `+`, never `accum`."""
    calls = []
    real = runtime.accum

    def counted(*args):
        calls.append(len(args))
        return real(*args)
    monkeypatch.setattr(runtime, "accum", counted)
    fresh = types.FunctionType(float_then_sum.__code__, globals(), "float_then_sum")
    got = grad(fresh, policy="loop")(0.7)
    assert got == pytest.approx(numerical_grad(float_then_sum, (0.7,), 0), rel=1e-6)
    assert calls == []


def manager_out_of_a_tuple(x):
    pair = (Scale(2.0), x)
    with pair[0] as k:                       # the tuple holds x: its entries are tracked
        y = np.sum(np.sin(pair[1])) * k
    return y


@pytest.mark.parametrize("policy", POLICIES)
def test_a_with_block_over_a_differentiated_manager_is_refused(policy):
    """A manager that is (part of) a value being differentiated is refused at the with
    statement, whether its methods run as enter_context/exit_context or as written."""
    with pytest.raises(TransformError, match="being differentiated"):
        grad(manager_out_of_a_tuple, policy=policy)(X.copy())
