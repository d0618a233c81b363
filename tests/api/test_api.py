"""Public API semantics of differentiable, grad, value_and_grad and vjp."""
import importlib.util
import math

import numpy as np
import pytest

import transform
import transform.api
from tests.fd import assert_close, numerical_grad, numerical_vjp
from transform import (TransformError, adjoint_source, differentiable, grad, value_and_grad,
                       vjp)


# ---------------------------------------------------------------- differentiable
@differentiable
def bare(x, y):
    """Bare docstring."""
    return np.sum(x * y)


@differentiable(policy="eager")
def with_policy(x, y):
    """Policy docstring."""
    return np.sum(x * np.sin(y))


@differentiable()
def empty_call(x):
    return x * x


def plain_fn(x, y):
    """Plain docstring."""
    return x * x * y + math.sin(y)


def test_differentiable_bare_keeps_metadata():
    assert bare.__name__ == "bare"
    assert bare.__doc__ == "Bare docstring."
    assert bare.__wrapped__.__name__ == "bare"
    assert bare.__wrapped__ is not bare


def test_differentiable_with_arguments_keeps_metadata():
    assert with_policy.__name__ == "with_policy"
    assert with_policy.__doc__ == "Policy docstring."
    assert callable(with_policy.__wrapped__)


def test_differentiable_computes_primal():
    x, y = np.arange(3.0), np.ones(3)
    assert bare(x, y) == 3.0
    assert with_policy(x, y) == pytest.approx(np.sum(x * np.sin(y)))
    assert empty_call(3.0) == 9.0


def test_differentiable_primal_with_keywords():
    assert bare(x=np.ones(2), y=np.full(2, 2.0)) == 4.0


def test_differentiable_unknown_policy_rejected():
    with pytest.raises(ValueError, match="policy"):
        differentiable(plain_fn, policy="bogus")


def test_differentiable_policy_is_used_by_default():
    src = adjoint_source(with_policy, wrt=1)
    assert "policy=eager" in src


def test_explicit_policy_overrides_decorator():
    src = adjoint_source(with_policy, wrt=1, policy="flat")
    assert "policy=flat" in src


def test_grad_of_decorated_function():
    x, y = np.array([1.0, 2.0]), np.array([0.3, -0.4])
    gx = grad(bare)(x, y)
    np.testing.assert_allclose(gx, y)
    gy = grad(with_policy, wrt=1)(x, y)
    np.testing.assert_allclose(gy, x * np.cos(y))


def test_empty_call_decorator_grad():
    assert grad(empty_call)(3.0) == pytest.approx(6.0)


# ---------------------------------------------------------------- wrt
def three(a, b, c):
    return a * b * b + math.exp(c) * a


ABC = (1.5, -0.5, 0.25)


def _fd(k):
    return numerical_grad(three, ABC, k)


def test_grad_default_wrt_is_first():
    g = grad(three)(*ABC)
    assert type(g) is float
    assert g == pytest.approx(_fd(0), rel=1e-6)


@pytest.mark.parametrize("wrt,k", [(0, 0), (1, 1), (2, 2), (-1, 2), ("a", 0), ("b", 1),
                                   ("c", 2)])
def test_grad_single_wrt_gives_single(wrt, k):
    g = grad(three, wrt=wrt)(*ABC)
    assert isinstance(g, float)
    assert g == pytest.approx(_fd(k), rel=1e-6)


@pytest.mark.parametrize("wrt,ks", [((0,), (0,)), (("b",), (1,)), ((0, 2), (0, 2)),
                                    (("c", "a"), (2, 0)), ((1, "c"), (1, 2)),
                                    (("a", "b", "c"), (0, 1, 2))])
def test_grad_tuple_wrt_gives_tuple(wrt, ks):
    g = grad(three, wrt=wrt)(*ABC)
    assert isinstance(g, tuple)
    assert len(g) == len(ks)
    for gi, k in zip(g, ks):
        assert type(gi) is float
        assert gi == pytest.approx(_fd(k), rel=1e-6)


def test_grad_list_wrt_gives_tuple():
    g = grad(three, wrt=[0, 1])(*ABC)
    assert isinstance(g, tuple) and len(g) == 2


@pytest.mark.parametrize("wrt", [5, -4, "nope", ("a", "zz"), 1.0, None])
def test_grad_bad_wrt_raises_type_error(wrt):
    with pytest.raises(TypeError):
        grad(three, wrt=wrt)(*ABC)


def test_grad_bad_wrt_name_mentions_name():
    with pytest.raises(TypeError, match="zz"):
        grad(three, wrt="zz")(*ABC)


# ---------------------------------------------------------------- plain functions / rules
def test_grad_plain_function_without_decorator():
    g = grad(plain_fn, wrt=(0, 1))(1.2, 0.4)
    assert g[0] == pytest.approx(2 * 1.2 * 0.4)
    assert g[1] == pytest.approx(1.2 * 1.2 + math.cos(0.4))


def test_grad_of_registered_numpy_function():
    g = grad(np.sin)(1.0)
    assert g == pytest.approx(math.cos(1.0))
    assert type(g) is float


def test_grad_of_registered_math_function():
    assert grad(math.exp)(0.5) == pytest.approx(math.exp(0.5))


def test_grad_of_registered_function_on_array():
    x = np.array([0.1, 0.2])
    out, pb = vjp(np.tanh, x)
    (dx,) = pb(np.ones(2))
    np.testing.assert_allclose(dx, 1 - np.tanh(x) ** 2)


def test_value_and_grad_of_registered_function():
    v, g = value_and_grad(np.exp)(0.3)
    assert v == pytest.approx(math.exp(0.3))
    assert g == pytest.approx(math.exp(0.3))


def test_grad_of_lambda_one_liner():
    f = lambda x: x * x * 3.0  # noqa: E731
    assert grad(f)(2.0) == pytest.approx(12.0)


# ---------------------------------------------------------------- value_and_grad
def test_value_and_grad_returns_value_and_gradient():
    v, g = value_and_grad(three, wrt=(0, 1))(*ABC)
    assert v == pytest.approx(three(*ABC))
    assert g[0] == pytest.approx(_fd(0), rel=1e-6)
    assert g[1] == pytest.approx(_fd(1), rel=1e-6)


def test_value_and_grad_single():
    v, g = value_and_grad(three, wrt="c")(*ABC)
    assert v == pytest.approx(three(*ABC))
    assert isinstance(g, float) and g == pytest.approx(_fd(2), rel=1e-6)


def test_value_and_grad_keeps_name():
    assert value_and_grad(three).__name__ == "three"
    assert grad(three).__name__ == "three"


# ---------------------------------------------------------------- keyword arguments
def scaled(x, w, scale=2.0, power=2):
    return np.sum(scale * (x * w) ** power)


def test_grad_kwargs_passed_through_and_not_differentiated():
    x, w = np.array([1.0, 2.0]), np.array([0.5, -1.0])
    g = grad(scaled)(x, w, scale=3.0)
    np.testing.assert_allclose(g, 3.0 * 2 * (x * w) * w)
    g2 = grad(scaled)(x, w, scale=3.0, power=3)
    np.testing.assert_allclose(g2, 3.0 * 3 * (x * w) ** 2 * w)


def test_grad_keyword_for_differentiated_argument():
    x, w = np.array([1.0, 2.0]), np.array([0.5, -1.0])
    g = grad(scaled, wrt="w")(x, w=w, scale=0.5)
    np.testing.assert_allclose(g, 0.5 * 2 * (x * w) * x)


def test_grad_uses_defaults():
    x, w = np.array([1.0, 2.0]), np.array([0.5, -1.0])
    np.testing.assert_allclose(grad(scaled)(x, w), 2.0 * 2 * (x * w) * w)


def test_value_and_grad_kwargs_passed_through():
    x, w = np.array([1.0, 2.0]), np.array([0.5, -1.0])
    v, g = value_and_grad(scaled, wrt=(0, 1))(x, w, scale=1.5)
    assert v == pytest.approx(scaled(x, w, scale=1.5))
    assert isinstance(g, tuple) and len(g) == 2


def vec_fn(x, w, shift=0.0):
    return np.tanh(x * w + shift)


def test_vjp_kwargs_passed_through_and_not_differentiated():
    x, w = np.array([1.0, 2.0, -1.0]), np.array([0.5, -1.0, 0.2])
    out, pb = vjp(vec_fn, x, w, shift=0.3)
    np.testing.assert_allclose(out, vec_fn(x, w, shift=0.3))
    grads = pb(np.ones(3))
    assert len(grads) == 2
    d = 1 - np.tanh(x * w + 0.3) ** 2
    np.testing.assert_allclose(grads[0], d * w)
    np.testing.assert_allclose(grads[1], d * x)


# ---------------------------------------------------------------- vjp
def outer_like(a, b):
    return np.outer(np.sin(a), b) * 2.0


def to_3d(x):
    return np.reshape(x, (2, 3, 2)) ** 2


def to_scalar(x, y):
    return np.sum(x * y)


def to_float(x, y):
    return x * y + 1.0


@pytest.mark.parametrize("f,args", [
    (outer_like, (np.array([0.1, 0.2, 0.3]), np.array([1.0, -2.0]))),
    (to_3d, (np.arange(12.0) / 10,)),
    (to_scalar, (np.arange(3.0), np.ones(3))),
    (to_float, (2.0, 3.0)),
], ids=["matrix", "3d", "0d-scalar", "python-float"])
def test_vjp_any_output_shape_default_wrt_every_positional(f, args):
    out, pb = vjp(f, *args)
    assert_close(out, f(*args), rtol=1e-14, atol=0)
    rng = np.random.default_rng(0)
    cot = rng.normal(size=np.shape(out)) if np.ndim(out) else 0.7
    grads = pb(cot)
    assert isinstance(grads, tuple)
    assert len(grads) == len(args)
    for k, g in enumerate(grads):
        assert np.shape(g) == np.shape(args[k])
        assert_close(g, numerical_vjp(f, args, k, cot))


def test_vjp_wrt_subset():
    a, b = np.array([0.1, 0.2, 0.3]), np.array([1.0, -2.0])
    out, pb = vjp(outer_like, a, b, wrt=1)
    grads = pb(np.ones((3, 2)))
    assert len(grads) == 1
    np.testing.assert_allclose(grads[0], 2 * np.sum(np.sin(a)) * np.ones(2))


def test_vjp_wrt_by_name():
    a, b = np.array([0.1, 0.2, 0.3]), np.array([1.0, -2.0])
    _, pb = vjp(outer_like, a, b, wrt=("b", "a"))
    db, da = pb(np.ones((3, 2)))
    assert db.shape == (2,) and da.shape == (3,)


def test_vjp_pullback_can_be_called_twice():
    a, b = np.array([0.1, 0.2, 0.3]), np.array([1.0, -2.0])
    _, pb = vjp(outer_like, a, b)
    first = pb(np.ones((3, 2)))
    second = pb(2 * np.ones((3, 2)))
    for f1, f2 in zip(first, second):
        np.testing.assert_allclose(2 * f1, f2)


def test_vjp_cotangent_scales_linearly():
    x = np.arange(12.0) / 10
    _, pb = vjp(to_3d, x)
    cot = np.random.default_rng(1).normal(size=(2, 3, 2))
    (g1,) = pb(cot)
    (g3,) = pb(3 * cot)
    np.testing.assert_allclose(3 * g1, g3)


# ---------------------------------------------------------------- gradient types
def mixed(x, v, n, flag):
    return x * np.sum(v) * n + (1.0 if flag else 0.0)


def test_float_argument_gives_float_gradient():
    g = grad(mixed, wrt=0)(1.5, np.ones(3), 2, True)
    assert type(g) is float
    assert g == pytest.approx(6.0)


def test_ndarray_argument_gives_same_shape_and_dtype():
    for dtype in (np.float64, np.float32):
        v = np.ones((2, 3), dtype=dtype)
        g = grad(mixed, wrt=1)(1.5, v, 2, True)
        assert isinstance(g, np.ndarray)
        assert g.shape == (2, 3)
        assert g.dtype == dtype
        np.testing.assert_allclose(g, 3.0)


def test_unused_argument_gives_zero_of_its_type():
    g = grad(mixed, wrt=(0, 1))(1.5, np.ones(3), 0, False)
    assert type(g[0]) is float and g[0] == 0.0
    assert g[1].shape == (3,)


def only_x(x, y):
    return x * 2.0


def test_argument_not_used_at_all_gives_zero():
    gx, gy = grad(only_x, wrt=(0, 1))(1.0, np.ones((2, 2)))
    assert gx == 2.0
    assert isinstance(gy, np.ndarray) and gy.shape == (2, 2) and not gy.any()
    gf = grad(only_x, wrt=1)(1.0, 3.0)
    assert type(gf) is float and gf == 0.0


@pytest.mark.parametrize("wrt,name,args", [
    (2, "n", (1.5, np.ones(3), 2, True)),
    ("flag", "flag", (1.5, np.ones(3), 2, True)),
    (3, "flag", (1.5, np.ones(3), 2, False)),
    (0, "x", (3, np.ones(3), 2, True)),
    (1, "v", (1.5, np.ones(3, dtype=int), 2, True)),
    ((0, 2), "n", (1.5, np.ones(3), 2, True)),
])
def test_integer_or_bool_argument_in_wrt_raises_type_error_naming_it(wrt, name, args):
    with pytest.raises(TypeError, match=repr(name)):
        grad(mixed, wrt=wrt)(*args)


def test_integer_argument_in_vjp_raises_type_error():
    with pytest.raises(TypeError, match="'n'"):
        vjp(mixed, 1.5, np.ones(3), 2, True, wrt=2)


def vector_out(x):
    return x * 2.0


def test_grad_of_non_scalar_output_mentions_vjp():
    with pytest.raises(TypeError, match="vjp"):
        grad(vector_out)(np.ones(3))


def test_value_and_grad_of_non_scalar_output_mentions_vjp():
    with pytest.raises(TypeError, match="vjp"):
        value_and_grad(vector_out)(np.ones(3))


def one_element(x):
    return x * 2.0


def test_grad_of_size_one_array_output_is_rejected_or_correct():
    # a (1,) array is not a scalar: grad must refuse it (and point to vjp)
    with pytest.raises(TypeError, match="vjp"):
        grad(one_element)(np.ones(1))


def zero_d(x):
    return np.sum(x * x)


def test_grad_of_numpy_scalar_output():
    g = grad(zero_d)(np.array([1.0, 2.0]))
    np.testing.assert_allclose(g, [2.0, 4.0])


# ---------------------------------------------------------------- caching
def cached_fn(x, y):
    return x * y * y


def test_cached_per_function_wrt_policy():
    c1 = transform.api.compiled(cached_fn, ("x",), "loop")
    c2 = transform.api.compiled(cached_fn, ("x",), "loop")
    assert c1 is c2
    assert transform.api.compiled(cached_fn, ("y",), "loop") is not c1
    assert transform.api.compiled(cached_fn, ("x",), "eager") is not c1
    assert transform.api.compiled(cached_fn, ("x", "y"), "loop") is not c1


def test_grad_uses_cache(monkeypatch):
    grad(cached_fn, wrt=1)(1.0, 2.0)
    calls = []
    real = transform.api.compile_function

    def counting(*a, **k):
        calls.append(a)
        return real(*a, **k)
    monkeypatch.setattr(transform.api, "compile_function", counting)
    for _ in range(3):
        assert grad(cached_fn, wrt=1)(1.0, 2.0) == pytest.approx(4.0)
    assert calls == []
    grad(cached_fn, wrt=1, policy="nested")(1.0, 2.0)
    grad(cached_fn, wrt=1, policy="nested")(1.0, 2.0)
    assert len(calls) == 1


def _load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_redefining_function_recompiles(tmp_path):
    path = tmp_path / "redef_mod.py"
    path.write_text("def f(x):\n    return x * x\n")
    m1 = _load_module(path, "redef_mod_v1")
    assert grad(m1.f)(3.0) == pytest.approx(6.0)
    path.write_text("def f(x):\n    return x * x * x\n")
    m2 = _load_module(path, "redef_mod_v2")
    assert grad(m2.f)(3.0) == pytest.approx(27.0)
    assert adjoint_source(m1.f) != adjoint_source(m2.f)
    assert grad(m1.f)(3.0) == pytest.approx(6.0)


def test_redefining_via_exec_in_same_namespace(tmp_path):
    path = tmp_path / "redef_exec.py"
    path.write_text("def g(x):\n    return 2.0 * x\n")
    ns = {"__name__": "redef_exec"}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    first = ns["g"]
    assert grad(first)(1.0) == pytest.approx(2.0)
    path.write_text("def g(x):\n    return 5.0 * x * x\n")
    import linecache
    linecache.checkcache(str(path))
    exec(compile(path.read_text(), str(path), "exec"), ns)
    assert ns["g"] is not first
    assert grad(ns["g"])(1.0) == pytest.approx(10.0)


# ---------------------------------------------------------------- exports
def test_public_names_exported():
    for name in ["differentiable", "grad", "value_and_grad", "vjp", "adjoint_source",
                 "TransformError", "rrule", "Thunk", "unthunk", "thunk_stats"]:
        assert hasattr(transform, name), name
        assert name in transform.__all__


def test_transform_error_is_exception():
    assert issubclass(TransformError, Exception)


def unsupported_for_api(x):
    try:
        return x
    except ValueError:
        return x


def test_grad_raises_transform_error_for_unsupported_code():
    with pytest.raises(TransformError):
        grad(unsupported_for_api)(1.0)


def keyword_only(x, *, k=2.0):
    return x * k


def test_grad_keyword_only_parameter_passed_through():
    assert grad(keyword_only)(1.5) == pytest.approx(2.0)
    assert grad(keyword_only)(1.5, k=3.0) == pytest.approx(3.0)
    v, g = value_and_grad(keyword_only)(1.5, k=3.0)
    assert v == pytest.approx(4.5) and g == pytest.approx(3.0)
