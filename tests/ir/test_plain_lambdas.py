"""The plain lowering and the user's lambdas (docs/ir.md, "Second lowering"): a lambda
stage 3 keeps as written reads only its parameters and globals (a constant function), so
it stays in the plain function as the user wrote it (a `key=`, an entry of a list or a
dict, an argument of a compiled callee, the loop variable); one that reads a local (an
inlined nested def's parameter too, session 38) is a closure record the derivative flows
through. Gradients against central finite differences."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import adjoint_source, value_and_grad


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def apply(f, z):
    return f(z)


def sorted_by_a_key(x):
    ys = [x[0] * 2.0, x[1], np.sin(x[2])]
    return sorted(ys, key=lambda v: -v)[0] + max(ys, key=lambda v: v * v)


def acts_in_a_list(x):
    acts = [np.tanh, lambda z: z * sigmoid(z)]
    return np.sum(acts[0](x) + acts[1](x) * x)


def acts_in_a_loop(x):
    acts = {"s": lambda z: z * sigmoid(z), "q": lambda z: 0.5 * z * z}
    h = x
    for i in range(3):
        for name in ("s", "q"):
            h = acts[name](h) + 0.1 * i
    return np.sum(h)


def given_to_a_callee(x):
    s = 0.0
    for i in range(2):
        s = s + np.sum(apply(lambda z: z * sigmoid(z), x * (i + 1)))
    return s


def nested_def_reading_a_local(x):
    def power(k):
        return lambda z: np.exp(z * k)  # inlined: a closure record over power_k
    return np.sum(power(x[0])(x))


@pytest.mark.parametrize("fn", [sorted_by_a_key, acts_in_a_list, acts_in_a_loop,
                                given_to_a_callee, nested_def_reading_a_local],
                         ids=lambda f: f.__name__)
def test_gradients_match_central_differences(fn):
    args = (np.array([0.3, -0.7, 0.9]),)
    value, g = value_and_grad(fn, lowering="plain")(*args)
    assert_close(value, fn(*args), rtol=1e-12, atol=0)
    assert_close(g, numerical_grad(fn, args, 0), rtol=1e-5, atol=1e-7)


def test_the_lambda_stays_as_written_and_no_thunk_does():
    source = adjoint_source(acts_in_a_list, lowering="plain")
    assert "lambda z: z * sigmoid(z)" in source
    assert "Thunk" not in source and "def pullback" not in source
