"""What forward mode does not cover yet is refused with a TransformError at the user's
line (file:line, caret, `Instead:`), never a wrong tangent: custom (rrule) rules,
rules without a JVP, complex values reaching terms written for real ones (tests/forward/test_complex_jvp.py), *args; and wrong
tangents are refused before anything runs."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.forward import functions as F
from transform import TransformError, hessian, hvp, jvp

SOURCE = F.__file__


def _refusal(fn, args, match):
    with pytest.raises(TransformError, match=match) as info:
        jvp(fn, args, tuple(np.ones_like(a) for a in args))
    return info.value


@pytest.mark.parametrize("fn, construct, line_text", [
    (F.calls_custom, "custom \\(rrule\\) rule", "custom_square(x)"),
    (F.calls_sign, "`tests.forward.functions.doubled` has no forward-mode \\(JVP\\) rule",
     "doubled(A)"),
    (F.complex_abs, "where values may be complex", "np.abs(x * 1j)"),
])
def test_refused_at_the_users_line(fn, construct, line_text):
    exc = _refusal(fn, (2.0 * np.eye(2),), construct)
    assert exc.filename == SOURCE
    assert line_text in exc.source_line
    assert exc.hint
    assert "Instead:" in str(exc)


def test_a_closure_over_differentiated_values_taken():
    # refused until session 35 (closures): tests/forward/test_closure_calls.py
    x, t = 2.0 * np.eye(2), np.ones((2, 2))
    assert_close(jvp(F.calls_a_closure, (x,), (t,))[1],
                 numerical_jvp(F.calls_a_closure, [x], 0, t))


@pytest.mark.parametrize("entry", [
    lambda f: jvp(f, (np.ones(2),), (np.ones(2),), wrt=()),
    lambda f: hvp(f, (np.ones(2),), (np.ones(2),)),
    lambda f: hessian(f)(np.ones(2))], ids=["jvp", "hvp", "hessian"])
def test_varargs_refused_at_the_def(entry):
    # session 37: was refused with no file:line
    with pytest.raises(TransformError, match=r"\*args") as info:
        entry(F.takes_varargs)
    exc = info.value
    assert exc.filename == SOURCE and exc.line is not None and exc.hint
    assert exc.source_line.lstrip().startswith("def takes_varargs(")
    assert exc.source_line[exc.col] == "*"


def test_a_complex_tangent_of_a_real_argument_refused():
    # session 34: complex arguments are taken (tests/forward/test_complex_jvp.py)
    with pytest.raises(TypeError, match="complex but the argument is real"):
        jvp(F.looped, (np.ones(2), 0.5), (np.ones(2) + 1j, 1.0))


@pytest.mark.parametrize("tangents, error, match", [
    ((np.ones(3),), TypeError, "one entry per differentiated argument"),
    (np.ones(3), TypeError, "one entry per differentiated argument"),
    ((np.ones(2), 1.0), ValueError, "shape"),
])
def test_wrong_tangents_refused(tangents, error, match):
    with pytest.raises(error, match=match):
        jvp(F.looped, (np.ones(3), 0.5), tangents)


def test_container_tangent_structure_checked():
    pair = (np.ones((2, 2)), np.ones(2))
    params = {"w": np.ones((2, 2)), "scale": 1.5}
    with pytest.raises(ValueError, match="dict"):
        jvp(F.containers, (pair, params), (pair, {"w": np.ones((2, 2))}))


def test_bound_method_differentiated_with_the_object_held():
    # refused until session 34 (red): now its function, the receiver a fixed argument
    model = F.Model(np.array([0.5, 1.5, -2.0]))
    x, t = np.array([0.3, -0.7, 1.1]), np.array([1.0, 0.5, -0.2])
    out, tangent = jvp(model.energy, (x,), (t,))
    assert out == model.energy(x)
    assert_close(tangent, numerical_jvp(model.energy, [x], 0, t))


def test_unknown_policy_refused():
    with pytest.raises(ValueError, match="policy"):
        jvp(F.looped, (np.ones(3), 0.5), (np.ones(3), 1.0), policy="nope")
