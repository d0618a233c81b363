"""hvp, hessian and grad of grad of code writing into a container a helper returned
(`d = helper(x); d["c"] = ...`): forward mode's `d, d_dot = call_jvp(helper, ...)` is read
with the helper's summary (transform/alias/jvp_calls.py), against central differences of
grad; a helper returning its argument or a view of it is still refused."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import TransformError, grad, hessian, hvp

X = np.array([0.3, -0.5, 0.8])
V = np.array([0.7, 0.2, -0.4])


def _make_dict(x):
    return {"a": x[0] * x[1], "b": np.exp(x)}


def helper_dict(x):
    d = _make_dict(x)
    d["c"] = d["a"] ** 2
    return d["c"] + np.sum(d["b"]) * d["a"]


def _make_list(x):
    return [np.sin(x), x[0] * 2.0]


def helper_list(x):
    parts = _make_list(x)
    parts[1] = parts[1] * parts[0][2]
    parts.append(np.sum(parts[0] ** 2))
    return parts[1] + parts[2]


def _fd_hessian(f, x):
    assert_close(grad(f)(x), numerical_grad(f, (x,), 0), 1e-6, 1e-8, "grad")
    return np.stack([numerical_grad(lambda y: grad(f)(y)[i], (x,), 0)
                     for i in range(x.size)])


@pytest.mark.parametrize("f", [helper_dict, helper_list])
def test_hvp_and_hessian_of_a_written_helper_result(f):
    want = _fd_hessian(f, X)
    assert_close(hessian(f)(X), want, 1e-5, 1e-7, "hessian")
    assert_close(hvp(f, (X,), (V,)), want @ V, 1e-5, 1e-7, "hvp")


def test_grad_of_grad_of_a_written_helper_result():
    def f(s):
        return helper_dict(np.array([s, 2.0 * s, 0.5]))
    first = grad(f)
    assert_close(first(0.4), numerical_grad(f, (0.4,), 0), 1e-6, 1e-8, "grad")
    assert_close(grad(first)(0.4), numerical_grad(first, (0.4,), 0), 1e-5, 1e-7, "grad grad")


def _same(p):
    return p


def _head(x):
    return x[:2]


def writes_argument_dict(p):
    d = _same(p)
    d["c"] = d["a"] ** 2
    return d["c"] * d["a"]


def writes_argument_view(x):
    y = _head(x)
    y[0] = 2.0
    return np.sum(y * x)


def test_a_helper_returning_its_argument_is_still_refused():
    p = {"a": 0.7}
    with pytest.raises(TransformError, match="writing into `d`"):
        hvp(writes_argument_dict, (p,), ({"a": 1.0},))
    with pytest.raises(TransformError, match="writing into `y`"):
        hessian(writes_argument_view)(X)
