"""errs40: the public API misused as users misuse it (wrong wrt, tangents and cotangents
of the wrong shape or kind, integer/bool/complex/object inputs, builtins and lambdas
passed directly, functions with no source or a stale one, bad options): each either a
TypeError/ValueError/TransformError in the user's terms (no generated function's name,
no internal exception), or a value checked against central differences."""
import importlib
import linecache
import math
import sys

import numpy as np
import pytest

import transform as tg
from transform import TransformError
from transform.testing import check_grads
from tests.errs40 import lambdas as L
from tests.errs40 import programs as P
from tests.errs40.check import X, V, fd_grad

Y = np.array([1.5, -0.4, 0.8])


def sq(x):
    return np.sum(x ** 2)


def xy2(x, y):
    return np.sum(x * y ** 2)


INT, BOOL = np.array([1, 2, 3]), np.array([True, False, True])
OBJ = np.array([1.0, 2.0], dtype=object)

REFUSED = {   # name: (call, exception type, a piece of its message)
    "wrt_out_of_range": (lambda: tg.grad(xy2, wrt=5)(X, Y), TypeError, "out of range"),
    "wrt_bad_name": (lambda: tg.grad(xy2, wrt="z")(X, Y), TypeError, "no parameter named 'z'"),
    "wrt_float": (lambda: tg.grad(xy2, wrt=1.0)(X, Y), TypeError, "index or name"),
    "wrt_none": (lambda: tg.grad(xy2, wrt=None)(X, Y), TypeError, "index or name"),
    "vjp_wrt_oor": (lambda: tg.vjp(xy2, X, Y, wrt=3), TypeError, "out of range"),
    "jvp_wrt_oor": (lambda: tg.jvp(xy2, (X, Y), (V,), wrt=3), TypeError, "out of range"),
    "hessian_wrt_oor": (lambda: tg.hessian(xy2, wrt=2)(X, Y), TypeError, "out of range"),
    "hvp_wrt_oor": (lambda: tg.hvp(xy2, (X, Y), (V,), wrt=4), TypeError, "out of range"),
    "jacrev_wrt_name": (lambda: tg.jacrev(xy2, wrt="q")(X, Y), TypeError, "named 'q'"),
    "missing_arg": (lambda: tg.grad(xy2)(X), TypeError, r"^xy2\(\)"),
    "missing_arg_vjp": (lambda: tg.vjp(xy2, X), TypeError, r"^xy2\(\)"),
    "missing_arg_jvp": (lambda: tg.jvp(xy2, (X,), (V,)), TypeError, r"^xy2\(\)"),
    "missing_arg_hvp": (lambda: tg.hvp(xy2, (X,), (V,)), TypeError, r"^xy2\(\)"),
    "missing_arg_plain": (lambda: tg.grad(xy2, lowering="plain")(X), TypeError, r"^xy2\(\)"),
    "missing_kwonly": (lambda: tg.grad(P.kwonly)(X), TypeError, r"^kwonly\(\)"),
    "extra_arg": (lambda: tg.grad(sq)(X, X), TypeError, r"^sq\(\)"),
    "kwonly_hvp_name": (lambda: tg.hvp(P.kwonly, (X,), (1.0,), wrt="scale"), TypeError,
                        "keyword-only"),
    "kwonly_jacfwd_name": (lambda: tg.jacfwd(P.kwonly, wrt="scale")(X, scale=2.0),
                           TypeError, "keyword-only"),
    "jvp_tangent_shape": (lambda: tg.jvp(sq, (X,), (np.ones(4),)), ValueError, "^jvp: .*shape"),
    "jvp_tangent_count": (lambda: tg.jvp(xy2, (X, Y), (V,)), TypeError, "one entry per"),
    "jvp_tangent_not_tuple": (lambda: tg.jvp(sq, (X,), V), TypeError, "tuple"),
    "jvp_primals_not_tuple": (lambda: tg.jvp(sq, X, (V,)), TypeError, "primals must be"),
    "hvp_primals_not_tuple": (lambda: tg.hvp(sq, X, (V,)), TypeError, "primals must be"),
    "jvp_tangent_complex": (lambda: tg.jvp(sq, (X,), (V * 1j,)), TypeError, "complex"),
    "hvp_tangent_shape": (lambda: tg.hvp(sq, (X,), (np.ones((3, 1)),)), ValueError,
                          "^hvp: the tangent of 'x' has shape"),
    "hvp_tangent_scalar": (lambda: tg.hvp(sq, (X,), (1.0,)), ValueError, "^hvp: .*shape"),
    "hvp_tangent_mixed_shape": (lambda: tg.hvp(xy2, (X, Y), (V, 1.0), wrt=(0, 1)),
                                ValueError, "^hvp: the tangent of 'y' has shape"),
    "hvp_tangent_complex": (lambda: tg.hvp(sq, (X,), (V + 1j,)), TypeError,
                            "^hvp: .*complex"),
    "hvp_tangent_none": (lambda: tg.hvp(sq, (X,), None), TypeError, "tuple"),
    "vjp_cotangent_shape": (lambda: tg.vjp(P.vector_out, X)[1](np.ones(4)), ValueError,
                            "shaped like the output"),
    "vjp_cotangent_str": (lambda: tg.vjp(sq, X)[1]("a"), TypeError, "float cotangent"),
    "vjp_cotangent_none": (lambda: tg.vjp(sq, X)[1](None), TypeError, "not None"),
    "grad_nonscalar": (lambda: tg.grad(P.vector_out)(X), TypeError, "scalar output"),
    "grad_int_input": (lambda: tg.grad(sq)(INT), TypeError, "not a float"),
    "grad_bool_input": (lambda: tg.grad(sq)(BOOL), TypeError, "not a float"),
    "grad_complex_input": (lambda: tg.grad(sq)(X * 1j), TypeError, "complex"),
    "grad_int_scalar": (lambda: tg.grad(L.table["sq"])(3), TypeError, "not a float"),
    "grad_str_input": (lambda: tg.grad(sq)("abc"), TypeError, "not a float"),
    "jvp_int_primal": (lambda: tg.jvp(sq, (INT,), (V,)), TypeError, "not a float"),
    "hvp_int_primal": (lambda: tg.hvp(sq, (INT,), (V,)), TypeError, "not a float"),
    "jacfwd_int": (lambda: tg.jacfwd(sq)(INT), TypeError, "not a float"),
    "jacrev_int": (lambda: tg.jacrev(sq)(INT), TypeError, "not a float"),
    "hessian_int": (lambda: tg.hessian(sq)(INT), TypeError, "not a float"),
    "hessian_complex": (lambda: tg.hessian(sq)(X * 1j), TypeError, "complex"),
    "jacfwd_object": (lambda: tg.jacfwd(sq)(OBJ), TypeError, "jacfwd takes floats"),
    "check_grads_int": (lambda: check_grads(sq, INT), TypeError, "no float"),
    "check_grads_bad_wrt": (lambda: check_grads(xy2, X, Y, wrt="q"), TypeError, "named 'q'"),
    "builtin_len": (lambda: tg.grad(len)(X), TransformError,
                    "^len is a builtin with no Python source to differentiate"),
    "builtin_print": (lambda: tg.grad(print)(X), TransformError, "collected"),
    "builtin_nonscalar": (lambda: tg.grad(np.sin)(X), TypeError, "scalar output"),
    "not_callable": (lambda: tg.grad(3), TypeError, "needs a function"),
    "class_passed": (lambda: tg.grad(P.Weird), TypeError, "is a class"),
    "bad_policy": (lambda: tg.grad(sq, policy="fast")(X), ValueError, "unknown policy"),
    "bad_lowering": (lambda: tg.grad(sq, lowering="llvm")(X), ValueError, "lowering"),
    "bad_route": (lambda: tg.hvp(sq, (X,), (V,), route="magic"), ValueError, "route"),
    "has_aux_not_pair": (lambda: tg.grad(sq, has_aux=True)(X), TypeError, "pair"),
    "differentiable_bad_policy": (lambda: tg.differentiable(policy="nope")(sq), ValueError,
                                  "unknown policy"),
    "grad_of_grad_vector": (lambda: tg.grad(tg.grad(sq))(X), TypeError, "scalar output"),
    "memory_limit_bad": (lambda: tg.grad(sq, memory_limit="lots")(X), ValueError, "bytes"),
    "memory_limit_negative": (lambda: tg.grad(sq, memory_limit=-5)(X), ValueError, "bytes"),
    "exec_no_source": (lambda: tg.grad(_exec_defined())(X), TransformError,
                       "cannot read the source"),
    "exec_no_source_jvp": (lambda: tg.jvp(_exec_defined(), (X,), (V,)), TransformError,
                           "cannot read the source"),
    "exec_no_source_hvp": (lambda: tg.hvp(_exec_defined(), (X,), (V,)), TransformError,
                           "cannot read the source"),
}


def _exec_defined():
    ns = {"np": np}
    exec("def f(x):\n    return np.sum(x ** 3)\n", ns)
    return ns["f"]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_in_the_users_terms(name):
    call, kind, piece = REFUSED[name]
    with pytest.raises(kind, match=piece) as info:
        call()
    text = str(info.value)
    for generated in ("_rrule(", "_grad_tan(", "_jvp(", "_plain(", "thunkgrad_factory"):
        assert generated not in text, text


VALUES = {   # name: (call, the function differentiated, its argument, direction or None)
    "wrt_negative": (lambda: tg.grad(xy2, wrt=-1)(X, Y), lambda y: xy2(X, y), Y),
    "jacfwd_wrt_negative": (lambda: tg.jacfwd(xy2, wrt=-1)(X, Y), lambda y: xy2(X, y), Y),
    "kwonly_by_name": (lambda: tg.grad(P.kwonly, wrt="scale")(X, scale=2.0),
                       lambda s: P.kwonly(X, scale=s[0]), np.array([2.0])),
    "kwonly_by_name_jacrev": (lambda: tg.jacrev(P.kwonly, wrt="scale")(X, scale=2.0),
                              lambda s: P.kwonly(X, scale=s[0]), np.array([2.0])),
    "int_tangent": (lambda: tg.jvp(sq, (X,), (INT,))[1] / 1.0, sq, X, INT),
    "list_tangent_hvp": (lambda: tg.hvp(sq, (X,), ([1.0, 2.0, 3.0],)),
                         lambda x: fd_grad(sq, x, 1e-4) @ np.array([1.0, 2.0, 3.0]), X),
    "object_array_input": (lambda: np.asarray(tg.grad(sq)(OBJ.copy()), dtype=float),
                           sq, np.array([1.0, 2.0])),
    "lambda_direct": (lambda: L.cube(X), lambda x: np.sum(x ** 3), X),
    "lambdas_on_one_line": (lambda: L.both[1](X), lambda x: np.sum(x ** 3), X),
    "lambda_in_dict_lines": (lambda: tg.grad(L.table2["cube"])(X), lambda x: np.sum(x ** 3), X),
    "nested_lambda_in_dict": (lambda: L.calls["cube"]()(X), lambda x: np.sum(x ** 3), X),
    "builtin_np_sin": (lambda: np.array([tg.grad(np.sin)(0.5)]), lambda a: np.sin(a[0]),
                       np.array([0.5])),
    "builtin_math_sin": (lambda: np.array([tg.grad(math.sin)(0.5)]),
                         lambda a: math.sin(a[0]), np.array([0.5])),
    "builtin_abs": (lambda: np.array([tg.grad(abs)(-0.5)]), lambda a: abs(a[0]),
                    np.array([-0.5])),
    "builtin_hvp_sin": (lambda: np.array([tg.hvp(np.sin, (0.5,), (1.0,))]),
                        lambda a: np.cos(a[0]), np.array([0.5])),
    "check_grads_builtin": (lambda: check_grads(np.tanh, X.copy())["x"] * 0 +
                            tg.vjp(np.tanh, X)[1](np.ones(3))[0],
                            lambda x: np.sum(np.tanh(x)), X),
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_value_against_differences(name):
    call, f, at, *direction = VALUES[name]
    want = fd_grad(f, np.asarray(at, dtype=float))
    if direction:
        want = want @ direction[0]
    np.testing.assert_allclose(np.asarray(call(), dtype=float).reshape(np.shape(want)), want,
                               rtol=1e-5, atol=1e-7)


def test_source_changed_on_disk_after_import(tmp_path, monkeypatch):
    path = tmp_path / "errs40_stale.py"
    path.write_text("import numpy as np\n\n\ndef loss(x):\n    return np.sum(x ** 2)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("errs40_stale")
    try:
        path.write_text("import numpy as np\n\n\ndef loss(x):\n    return np.sum(x ** 3)\n")
        linecache.checkcache(str(path))
        for call in (lambda: tg.grad(module.loss)(X), lambda: tg.jvp(module.loss, (X,), (V,)),
                     lambda: tg.hvp(module.loss, (X,), (V,))):
            with pytest.raises(TransformError, match="file changed after") as info:
                call()
            assert info.value.filename == str(path) and "reload" in info.value.hint
    finally:
        sys.modules.pop("errs40_stale", None)
