"""Refusals found while generated forward-mode code runs under reverse mode (hvp, grad
of grad: reverse mode over `<name>_jvp`, over a value's two-line function) name the
user's file and line, not a line of generated code (transform/emit/tracebacks.py)."""
import gc
import inspect


import numpy as np
import pytest

from runtime.complex_safety import ComplexRefused, RuleRefused
from transform import TransformError, grad, hvp

X, V = np.array([0.3, 0.5]), np.ones(2)


def line_of(fn, text):
    """The line of fn's source (this file) holding `text`."""
    lines, first = inspect.getsourcelines(fn)
    hits = [first + k for k, line in enumerate(lines) if text in line]
    assert len(hits) == 1, (fn, text)
    return hits[0]


def refused(call):
    with pytest.raises(TransformError) as info:
        call()
    return info.value


def one_norm(x):
    return np.linalg.norm(x * 2.0, 1) ** 2


NORMS = [np.linalg.norm]


def norm_as_a_value(x):              # reverse mode over call_norm's tangent code
    s = 0.0
    for h in NORMS:
        s = s + h(x * 2.0, 1) ** 2
    return s


def helper(x):
    return np.linalg.norm(x, 1)


def through_a_helper(x):
    return helper(x * 3.0) ** 2


@pytest.mark.parametrize("fn, where, text", [
    (one_norm, one_norm, "np.linalg.norm(x * 2.0, 1)"),
    (norm_as_a_value, norm_as_a_value, "h(x * 2.0, 1)"),
    (through_a_helper, helper, "np.linalg.norm(x, 1)")],
    ids=["norm", "value call", "helper"])
def test_a_norm_order_refused_at_the_users_line(fn, where, text):
    exc = refused(lambda: hvp(fn, (X,), (V,)))
    assert "not ord=1" in exc.message
    assert (exc.filename, exc.line) == (__file__, line_of(where, text))
    assert text in exc.source_line
    assert "thunkgrad" not in str(exc)


def cdfs_as_a_value(x, cdfs):       # the value's tangent code calls discrete_cdf_vjp
    s = 0.0                          # (math.prod, which this test used before, has
    for h in cdfs:                   # second-order rules since session 39, np.sinc since
        r = np.sum(h(2, x + 1.0))    # 38, np.subtract.outer and np.maximum.reduceat since 40)
        s = s + r ** 2
    return s


def test_a_value_calls_refusal_names_the_users_call():
    """Names the value called (a ufunc's method has no module: was `None.ufunc.outer`)
    and the rule of that value (was the first rule calling the helper, np.arctan2.outer)."""
    stats = pytest.importorskip("scipy.stats")
    exc = refused(lambda: hvp(cdfs_as_a_value, (X, [stats.poisson.cdf]), (V,),
                              route="reverse_over_forward"))
    assert "of scipy.stats.rv_discrete.cdf (called as a value): scipy.stats.poisson.cdf on " \
        "this line has a derivative rule, but not the second derivative" in exc.message and \
        "discrete_cdf_vjp" not in exc.message
    assert (exc.filename, exc.line) == (__file__, line_of(cdfs_as_a_value, "np.sum(h(2"))


def item_of_an_entry(x):          # (a dataclass with a __post_init__ called as a value
    s = np.sum(x ** 2)            # was this test's case: forward mode builds it since
    return x[0].item() * s        # session 37)


def test_an_entrys_item_under_hvp_matches():
    """Was refused when call_jvp's reverse rule ran (at the call's line, hvp's tuple
    `wrt` too): `.item()` dispatched when the code runs is runtime's function with a
    template rule, which reverse mode calls through its rule since session 38 (against
    second differences, tests/red2)."""
    from tests.fd import assert_close
    from tests.red2.check import fd_hessian
    for wrt in (0, (0,)):
        got = hvp(item_of_an_entry, (X,), (V,), wrt=wrt)
        assert_close(got[0] if wrt else got, fd_hessian(item_of_an_entry, (X,), 0) @ V,
                     rtol=1e-5, atol=1e-7)


def sine_helper(s):
    return np.sin(s) * s


def outer(s):
    return sine_helper(s * 3.0) ** 2


def test_a_fourth_derivative_through_a_helper_is_refused_at_the_call():
    exc = refused(lambda: grad(grad(grad(grad(outer)))))
    assert "a derivative of grad of outer: the forward-mode code of the call of a " \
        "function on this line" in exc.message and "call_jvp" not in exc.message
    assert (exc.filename, exc.line) == (__file__, line_of(outer, "sine_helper(s * 3.0)"))


def test_a_norm_order_is_refused_as_a_rule_refusal_not_a_complex_one():
    from runtime.rules.norm_helpers import _l2_axes
    with pytest.raises(RuleRefused, match="not ord=1") as info:
        _l2_axes(np.ones(3), 1, None)
    assert not isinstance(info.value, ComplexRefused)
    with pytest.raises(ComplexRefused, match="real values only"):
        _l2_axes(np.ones(3) * 1j, None, None)


W = np.ones((4, 3))


def mismatched(x):
    h = W @ x
    return np.sum(np.tanh(h))


def test_a_numpy_error_in_hvp_notes_the_users_line():
    with pytest.raises(ValueError) as info:
        hvp(mismatched, (X,), (V,))
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert f"from {__file__}, line {line_of(mismatched, 'h = W @ x')}:" in notes


def test_grad_of_grad_of_a_temporary_lambda_keeps_the_users_line():
    """The lambda's generated code is kept while code compiled from it lives (its
    lines' user lines go through it), though the lambda itself is gone."""
    second = grad(grad(lambda s: outer(s + 0.0)))   # noqa: E731
    gc.collect()
    exc = refused(lambda: grad(grad(second)))
    assert exc.filename == __file__
    assert "lambda s: outer(s + 0.0)" in exc.source_line
