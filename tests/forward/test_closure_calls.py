"""Forward mode through calls of closure records and functools.partials (session 35):
closures defined in the function (in a loop too), returned by helpers, lambdas passed
to helpers, partials over differentiated values and over closures. jvp and jacfwd
against central differences of the function, hvp against central differences of
grad (tests/fd.py, float64); what Python would read differently from the record is
refused at the user's line."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.forward import closure_functions as C
from tests.gradcheck import rng
from transform import TransformError, grad, hvp, jacfwd, jvp


def _point(name):
    r = rng("closure calls", name)
    return r.normal(size=3) * 0.6, r.normal(size=3)


@pytest.mark.parametrize("fn", C.SCALAR_OUTPUT + [C.vector_output], ids=lambda f: f.__name__)
def test_jvp_matches_differences(fn):
    x, v = _point(fn.__name__)
    out, tangent = jvp(fn, (x,), (v,))
    assert_close(out, fn(x))
    assert_close(tangent, numerical_jvp(fn, [x], 0, v), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn", [C.vector_output, C.partial_of_a_closure_passed_on,
                                C.per_example_closures], ids=lambda f: f.__name__)
def test_jacfwd_matches_differences(fn):
    x, _ = _point(fn.__name__)
    jac = np.asarray(jacfwd(fn)(x))
    for k in range(3):
        column = numerical_jvp(fn, [x], 0, np.eye(3)[k])
        assert_close(jac[..., k], column, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn", C.SCALAR_OUTPUT, ids=lambda f: f.__name__)
def test_hvp_matches_differences_of_grad(fn):
    x, v = _point(fn.__name__)
    assert_close(hvp(fn, (x,), (v,)), numerical_jvp(grad(fn), (x,), 0, v),
                 rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", [C.partial_keyword_given_again,
                                C.partial_of_a_partial_replacing_a_default],
                         ids=lambda f: f.__name__)
def test_grad_through_partial_keywords(fn):
    # reverse mode's partial_pullback gave both wrong gradients (session 35)
    x, _ = _point(fn.__name__)
    assert_close(grad(fn)(x), numerical_grad(fn, [x], 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn, line_text", [
    (C.written_by_nonlocal, "nonlocal total"),
    (C.def_in_a_loop_passed_on, "def loss_i(v):"),
    (C.kept_and_called_late, "return np.sum(fs[0](w))"),     # when the call runs
], ids=lambda p: getattr(p, "__name__", "line"))
@pytest.mark.parametrize("derivative", ["jvp", "hvp"])
def test_what_python_reads_differently_refused_at_the_users_line(fn, line_text, derivative):
    x, v = _point(fn.__name__)
    with pytest.raises(TransformError) as info:
        (jvp if derivative == "jvp" else hvp)(fn, (x,), (v,))
    assert info.value.filename == C.__file__
    assert line_text in info.value.source_line


def test_a_partial_binding_a_keyword_only_parameter():
    fn = C.partial_binding_a_keyword_only_parameter
    x, v = _point(fn.__name__)
    assert_close(jvp(fn, (x,), (v,))[1], numerical_jvp(fn, [x], 0, v), rtol=1e-6, atol=1e-8)
    # hvp too since session 36 (call_jvp's reverse rule gives keywords cotangents):
    # against differences of the differences' gradient
    h = 1e-4
    want = (numerical_grad(fn, [x + h * v], 0) - numerical_grad(fn, [x - h * v], 0)) / (2 * h)
    assert_close(hvp(fn, (x,), (v,)), want, rtol=1e-4, atol=1e-6)
