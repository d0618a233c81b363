"""Closures the compiler refuses (issue 16): what Python would read at the call is not
what a closure record holds, so a TransformError names the user's line and column and
says what to write instead; one refused only when it runs names the call's line."""
import inspect

import numpy as np
import pytest

from transform import TransformError, grad


def apply(f, z):
    return f(z)


def keep(f):
    return f


def late_binding_in_a_loop(x):
    fs = []
    for i in range(3):
        fs.append(lambda t: t * x[i])
    return np.sum(fs[0](x))


def rebound_after_the_lambda(x):
    w = x * 2.0
    f = lambda t: t * w           # noqa: E731
    w = x * 3.0
    return np.sum(apply(f, x))


def written_in_place_after(x):
    w = x * 2.0
    f = lambda t: t * w           # noqa: E731
    w[0] = 1.0
    return np.sum(apply(f, x))


def nested_def_rebound(x):
    k = 2.0

    def g(z):
        return z * k * x
    k = 3.0
    return np.sum(apply(g, x))


def star_args_closure(x):
    w = x * 2.0
    f = lambda *zs: zs[0] * w     # noqa: E731
    return np.sum(apply(f, x))


def kept_then_called_late(x):
    fs = []
    for i in range(3):
        fs.append(keep(lambda t: t * x[i]))
    return np.sum(fs[0](x))


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, ln in enumerate(lines) if text in ln)


@pytest.mark.parametrize("fn, where, words", [
    (late_binding_in_a_loop, "lambda t: t * x[i]", "`i`"),
    (rebound_after_the_lambda, "f = lambda", "`w`"),
    (written_in_place_after, "f = lambda", "`w`"),
    (nested_def_rebound, "def g(z)", "`k`"),
])
def test_late_binding_is_refused_at_the_closure(fn, where, words):
    with pytest.raises(TransformError) as err:
        grad(fn)(np.ones(3))
    assert err.value.line == _line_of(fn, where)
    assert words in err.value.message and "bound again" in err.value.message
    assert "default parameter" in err.value.hint


def test_star_args_closure_is_refused():
    with pytest.raises(TransformError) as err:
        grad(star_args_closure)(np.ones(3))
    assert err.value.line == _line_of(star_args_closure, "f = lambda")
    assert "*args" in err.value.message


def test_a_kept_closure_called_after_its_variable_changed_is_refused_when_called():
    with pytest.raises(TransformError) as err:
        grad(kept_then_called_late)(np.ones(3))
    assert "bound again" in err.value.message
    assert err.value.line == _line_of(kept_then_called_late, "return np.sum(fs[0](x))")


def test_the_same_closure_is_fine_when_called_before_the_variable_changes():
    def called_at_once(x):
        total = 0.0
        for i in range(3):
            total = total + np.sum(keep(lambda t: t * x[i])(x))
        return total
    x = np.array([0.5, -1.0, 2.0])         # (sum x)^2
    assert np.allclose(grad(called_at_once)(x), 2.0 * np.sum(x) * np.ones(3))


def kept_in_a_comprehension(x):
    fs = [keep(lambda t: t * v) for v in x]
    return np.sum(fs[0](x))


def test_closures_kept_from_a_comprehension_are_refused_when_called():
    # (each pass's closure expires after its own call, not once after the statement)
    with pytest.raises(TransformError) as err:
        grad(kept_in_a_comprehension)(np.ones(3))
    assert "bound again" in err.value.message


def kept_from_an_inlined_helper(x):
    fs = []
    for i in range(3):
        w = x * i

        def helper():
            return keep(lambda t: t * w)
        fs.append(helper())
    return np.sum(fs[0](x))


def test_a_closure_kept_from_an_inlined_nested_def_is_refused_when_called_late():
    # (the nested def's return did not expire it: fs[0] read the first w, Python the last)
    with pytest.raises(TransformError) as err:
        grad(kept_from_an_inlined_helper)(np.ones(3))
    assert "bound again" in err.value.message
