"""hvp (and grad of grad) through forward-mode constructs whose generated code calls
runtime helpers reverse mode needed rules for (runtime/rules/tangents.py) or calls a
value that is no Python function (transform/value_calls.py): H v against central
finite differences of grad (tests/fd.py, float64); grad(grad(f)) against differences
of grad(f) for a float argument."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp

ACTIVATIONS = [np.tanh, np.sin]
TABLE = {"a": np.exp, "b": np.cos}


def ufuncs_as_values(x):            # call_jvp(np.tanh, {0: x_dot}, x)
    s = 0.0
    for h in ACTIVATIONS:
        s = s + np.sum(h(x) * x)
    return s + np.sum(TABLE["a"](x) * TABLE["b"](x))


def dict_get(x):                    # container_method(d, 'get'): dict.get as a value
    d = {"a": x * x, "b": np.sin(x)}
    return np.sum(d.get("a") * d.get("b", x)) + np.sum(d.get("c", x) ** 3)


def dict_methods(x):                # d.pop with a default, d.values(): their rules' JVPs
    d = {"a": x * x, "b": np.cos(x)}
    first = d.pop("a", np.sin(x))
    other = d.pop("z", np.exp(x))
    vals = list(d.values())
    return np.sum(first * other * vals[0])


CASES = [ufuncs_as_values, dict_get, dict_methods]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(), (3,)], ids=["scalar", "array"])
def test_hvp_matches_differences_of_grad(fn, shape):
    r = rng("hvp helpers", fn.__name__, len(shape))
    x = r.normal(size=shape) * 0.7 + 0.1 if shape else float(r.normal()) * 0.7 + 0.1
    v = r.normal(size=shape) if shape else 0.8
    got = hvp(fn, (x,), (v,))
    assert_close(got, numerical_jvp(grad(fn), (x,), 0, v), rtol=1e-5, atol=1e-6)
    if not shape:
        assert_close(grad(grad(fn))(x), numerical_grad(grad(fn), [x], 0),
                     rtol=1e-5, atol=1e-6)
