"""has_aux=True (issue 20): fn returns (value, aux); grad gives (gradient, aux),
value_and_grad ((value, aux), gradient), vjp (value, pullback, aux), as in JAX. The
gradient is the value's (finite differences of fn(...)[0]), under every policy; aux is
what the primal computed, even where it depends on differentiated values through loops,
branches and containers; a fn that returns no pair is refused naming it."""
import sys

import numpy as np
import pytest

import transform.api
from tests.fd import assert_close, numerical_grad, numerical_tree_grad, numerical_vjp
from tests.gradcheck import POLICIES, readonly, rng
from transform import grad, value_and_grad, vjp


def mlp_with_metrics(W, b, x, labels):
    """A loss with the logits, the accuracy and a name as aux."""
    logits = x @ W + b
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    logp = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    loss = -np.mean(logp[np.arange(len(labels)), labels])
    accuracy = np.mean(np.argmax(logits, axis=1) == labels)
    return loss, {"logits": logits, "accuracy": accuracy, "name": "mlp"}


def loop_with_history(x, steps):
    """aux collects every iterate, and a branch's label, in a list."""
    h = x
    history = []
    for k in range(steps):
        h = np.tanh(h * 0.9 + 0.1 * k)
        if np.sum(h) > 0:
            history.append(("up", h))
        else:
            history.append(("down", h * 2.0))
    return np.sum(h ** 2), (history, len(history))


def scalar_aux(x, y):
    s = x * y
    return np.sin(s) + y, s ** 2


def aux_is_an_argument(x, y):
    return np.sum(x * y), y


def value_in_list(x):
    return [np.sum(x ** 3), x * 2.0]


def keyword_only(x, *, scale):
    return np.sum(x) * scale, scale * 2.0


def recursive(x, n):
    if n == 0:
        return x, 0
    value, depth = recursive(np.sin(x) * 0.5 + x, n - 1)
    return value, depth + 1


def aux_is_the_value(x):
    loss = np.sum(x ** 2)
    return loss, loss


def aux_holds_the_value(x):
    loss = np.sum(np.tanh(x) ** 2)
    out = (loss, [loss, x])
    return out


def pair_helper(x):
    return np.sum(np.sin(x)), x * 3.0


def pair_from_a_helper(x):
    value, aux = pair_helper(x)
    return value * 2.0, aux


def return_in_a_loop(x):
    for k in range(3):
        if k == 1:
            return np.sum(x * x) * k, k
    return 0.0, -1


def appended_pair(x):
    out = []
    out.append(np.sum(np.sin(x) * x))
    out.append({k: x[k] * 2.0 for k in range(2)})
    return out


def swapped_pair(x):
    a, b = np.sum(x ** 2), np.sum(x ** 3)
    a, b = b, a
    return a, b


def no_pair(x):
    return np.sum(x), 1.0, 2.0


def vector_value(x):
    return x * 2.0, 1.0


def _value(f):
    return lambda *a, **k: f(*a, **k)[0]


def _assert_same(aux, want):
    """aux equals the primal's aux: same structure, same leaves (arrays to 1e-12)."""
    assert type(aux) is type(want)
    if isinstance(want, dict):
        assert aux.keys() == want.keys()
        for k in want:
            _assert_same(aux[k], want[k])
    elif isinstance(want, (tuple, list)):
        assert len(aux) == len(want)
        for a, w in zip(aux, want):
            _assert_same(a, w)
    elif isinstance(want, (np.ndarray, float, np.floating)):
        assert_close(aux, want, rtol=1e-12, atol=0, what="aux")
    else:
        assert aux == want


def _mlp_args():
    r = rng("has_aux.mlp")
    return [r.normal(size=(3, 4)), r.normal(size=4), r.normal(size=(5, 3)),
            np.array([0, 1, 3, 2, 1])]


@pytest.mark.parametrize("policy", POLICIES)
def test_grad_gives_the_values_gradient_and_the_primals_aux(policy):
    args = readonly(_mlp_args())
    g, aux = grad(mlp_with_metrics, wrt=(0, 1), has_aux=True, policy=policy)(*args)
    for k in (0, 1):
        assert_close(g[k], numerical_grad(_value(mlp_with_metrics), args, k))
    _assert_same(aux, mlp_with_metrics(*args)[1])


@pytest.mark.parametrize("policy", POLICIES)
def test_aux_from_a_loop_and_branches(policy):
    x = rng("has_aux.loop").normal(size=3)
    (value, aux), g = value_and_grad(loop_with_history, has_aux=True, policy=policy)(x, 6)
    want_value, want_aux = loop_with_history(x, 6)
    assert_close(value, want_value, rtol=1e-12, atol=0)
    _assert_same(aux, want_aux)
    assert {label for label, _ in aux[0]} <= {"up", "down"} and aux[1] == 6
    assert_close(g, numerical_grad(_value(loop_with_history), [x, 6], 0))


@pytest.mark.parametrize("policy", POLICIES)
def test_scalar_aux_is_not_differentiated(policy):
    (value, aux), (gx, gy) = value_and_grad(scalar_aux, wrt=(0, 1), has_aux=True,
                                            policy=policy)(0.3, -1.2)
    assert type(gx) is float and type(gy) is float
    assert aux == scalar_aux(0.3, -1.2)[1]
    assert_close(gx, np.cos(0.3 * -1.2) * -1.2)             # not 2 s y from aux = s ** 2
    assert_close(gy, np.cos(0.3 * -1.2) * 0.3 + 1.0)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [aux_is_the_value, aux_holds_the_value, pair_from_a_helper,
                               return_in_a_loop, appended_pair, swapped_pair],
                         ids=lambda f: f.__name__)
def test_aux_sharing_the_value_or_made_elsewhere(f, policy):
    """aux that is the value itself (its zero cotangent must not cancel the value's), a
    pair returned by a helper, a return inside a loop, a list built by appends, a swap."""
    x = readonly([rng("has_aux.shared", f.__name__).normal(size=3)])[0]
    g, aux = grad(f, has_aux=True, policy=policy)(x)
    assert_close(g, numerical_grad(_value(f), [x], 0))
    _assert_same(aux, f(x)[1])


def test_aux_may_be_an_argument_itself():
    x, y = rng("has_aux.arg").normal(size=(2, 3))
    g, aux = grad(aux_is_an_argument, wrt=1, has_aux=True)(x, y)
    assert_close(g, x)
    assert aux is y                   # grad's pullback has run: aux is the primal's own
    _, pullback, aux = vjp(aux_is_an_argument, x, y, has_aux=True)
    assert aux is not y and np.array_equal(aux, y)      # vjp's: a copy (pullback later)


def test_a_list_pair_and_float32():
    x = rng("has_aux.f32").normal(size=4).astype(np.float32)
    g, aux = grad(value_in_list, has_aux=True)(x)
    assert g.dtype == np.float32 and aux.dtype == np.float32
    assert_close(g, 3 * x.astype(np.float64) ** 2, rtol=1e-5)
    assert_close(aux, 2 * x, rtol=0, atol=0)


def test_keyword_only_wrt_takes_the_general_path():
    x = np.array([1.0, 2.0])
    g, aux = grad(keyword_only, wrt="scale", has_aux=True)(x, scale=3.0)
    assert g == pytest.approx(3.0) and aux == 6.0


def test_a_bound_method():
    class Model:
        def __init__(self, w):
            self.w = w

        def loss(self, x):
            y = self.w * x
            return np.sum(y ** 2), y
    w, x = np.array([0.5, -1.0]), np.array([2.0, 3.0])
    g, aux = grad(Model(w).loss, has_aux=True)(x)
    assert_close(g, 2 * w * w * x)
    assert_close(aux, w * x)


def test_deep_recursion_keeps_aux():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        g, depth = grad(recursive, has_aux=True)(0.3, 700)
    finally:
        sys.setrecursionlimit(old)
    assert depth == 700
    assert_close(g, numerical_grad(_value(recursive), [0.3, 700], 0))


@pytest.mark.parametrize("policy", POLICIES)
def test_vjp_returns_value_pullback_and_aux(policy):
    args = readonly(_mlp_args())
    out, pullback, aux = vjp(mlp_with_metrics, *args, wrt=(0, 1), has_aux=True,
                             policy=policy)
    assert_close(out, mlp_with_metrics(*args)[0], rtol=1e-12, atol=0)
    _assert_same(aux, mlp_with_metrics(*args)[1])
    for cot in (1.0, -2.5):                    # the pullback may be called again
        gW, gb = pullback(cot)
        assert_close(gW, numerical_vjp(_value(mlp_with_metrics), args, 0, cot))
        assert_close(gb, numerical_vjp(_value(mlp_with_metrics), args, 1, cot))


def test_vjp_of_a_vector_value_with_aux():
    x = rng("has_aux.vector").normal(size=3)

    def f(x):
        y = np.sin(x)
        return y * x, {"norm": np.sum(y ** 2)}
    out, pullback, aux = vjp(f, x, has_aux=True)
    cot = rng("has_aux.cot").normal(size=3)
    (g,) = pullback(cot)
    assert_close(g, numerical_vjp(_value(f), [x], 0, cot))
    assert_close(aux["norm"], np.sum(np.sin(x) ** 2), rtol=1e-12, atol=0)


def test_container_argument_with_aux():
    params = {"w": np.array([0.4, -0.3]), "b": 0.2}

    def f(params, x):
        y = params["w"] * x + params["b"]
        return np.sum(y ** 2), y
    x = np.array([1.0, 2.0])
    g, aux = grad(f, has_aux=True)(params, x)
    want = numerical_tree_grad(_value(f), [params, x], 0)
    assert_close(g["w"], want[("w",)])
    assert type(g["b"]) is float
    assert_close(g["b"], want[("b",)])
    assert_close(aux, params["w"] * x + params["b"])


@pytest.mark.parametrize("entry", [lambda f: grad(f, has_aux=True),
                                   lambda f: value_and_grad(f, has_aux=True),
                                   lambda f: lambda x: vjp(f, x, has_aux=True)],
                         ids=["grad", "value_and_grad", "vjp"])
def test_no_pair_is_refused_naming_the_function(entry):
    with pytest.raises(TypeError, match=r"has_aux=True: no_pair \(.*test_has_aux.py:\d+\) "
                                        r"must return a pair \(value, aux\), but it "
                                        r"returned tuple of 3 values"):
        entry(no_pair)(np.ones(2))


def test_the_refusal_names_a_nested_function_by_its_qualified_name():
    def inner(x):
        return [x, x, x]
    with pytest.raises(TypeError, match=r"has_aux=True: test_the_refusal_names_a_nested_"
                                        r"function_by_its_qualified_name\.<locals>\.inner "
                                        r"\(.*\) must return a pair \(value, aux\), but it "
                                        r"returned list of 3 values"):
        grad(inner, has_aux=True)(1.0)


def test_a_vector_value_is_not_a_loss():
    with pytest.raises(TypeError, match=r"grad needs a scalar output, but vector_value\(\) "
                                        r"\(\S+test_has_aux.py:\d+\) "
                                        r"returned ndarray of shape \(3,\)"):
        grad(vector_value, has_aux=True)(np.ones(3))


def test_without_has_aux_a_pair_points_to_it():
    with pytest.raises(TypeError, match=r"tuple of 2 values.*has_aux=True"):
        grad(scalar_aux)(0.3, 1.0)


def test_specialised_rules_are_cached_and_shared(monkeypatch):
    x3, x4 = np.ones(3), np.ones(4)
    gradient = grad(loop_with_history, has_aux=True)
    gradient(x3, 2), gradient(x4, 2)                      # one rule per shape
    calls = []
    real = transform.api.compile_function

    def counting(*a, **k):
        calls.append(a)
        return real(*a, **k)
    monkeypatch.setattr(transform.api, "compile_function", counting)
    for x in (x3, x4, x3):
        g, aux = gradient(x, 2)
        assert g.shape == x.shape and aux[1] == 2
    value_and_grad(loop_with_history, has_aux=True)(x3, 2)   # the same rule: no compile
    vjp(loop_with_history, x3, 2, wrt=0, has_aux=True)
    assert calls == []


def tanh_and_its_values(x):
    h = np.tanh(x)
    return np.sum(h), {"h": h, "parts": [h[:1], (h, "tag")]}


@pytest.mark.parametrize("policy", POLICIES)
def test_writing_into_vjps_aux_leaves_the_pullback_alone(policy):
    """vjp's pullback runs after the caller has aux: its arrays are copies, so writing
    into them cannot change what the backward sweep reads (tanh's own output here)."""
    x = np.array([0.3, 0.6])
    _, pullback, aux = vjp(tanh_and_its_values, x, has_aux=True, policy=policy)
    _assert_same(aux, tanh_and_its_values(x)[1])
    aux["h"][:] = 0.0
    aux["parts"][0][:] = 5.0
    aux["parts"][1][0][:] = 7.0
    assert aux["parts"][1][1] == "tag"
    (g,) = pullback(1.0)
    assert_close(g, numerical_grad(_value(tanh_and_its_values), [x], 0))
