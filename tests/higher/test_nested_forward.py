"""Forward mode over forward mode's generated code: third derivatives of a function that
calls a helper (the generated code's call_jvp differentiated by forward mode: its JVP,
transform/forward_nested.py, and that JVP's reverse rule), and jvp called inside code
being differentiated (transform/jvp_calls.py), each against central differences of
the compiled derivative one order down (or of the plain function)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp, jacfwd, jvp


def _helper(x, w):
    return np.sin(w * x) * x


def calls(x):
    return _helper(x, 1.3) ** 2 + x * _helper(x, 0.4)


def _inline(x):
    return (np.sin(1.3 * x) * x) ** 2 + x * (np.sin(0.4 * x) * x)


def test_third_derivative_through_a_call_matches_differences_of_the_second():
    second = grad(grad(calls))
    for x in (0.4, -1.1):
        third = grad(grad(grad(calls)))(x)
        assert_close(third, numerical_grad(second, [x], 0), rtol=1e-6)
        assert np.isclose(third, grad(grad(grad(_inline)))(x), rtol=1e-10)


def test_jvp_of_a_second_derivative_through_a_call():
    second = grad(grad(calls))
    out, tangent = jvp(second, (0.7,), (1.5,))
    assert out == second(0.7)
    assert_close(tangent, numerical_jvp(second, [0.7], 0, 1.5), rtol=1e-6)


def test_a_fourth_derivative_through_a_call_is_refused_loudly():
    with pytest.raises(TransformError, match="the call of a function on this line .a third derivative"):
        grad(grad(grad(grad(calls))))(0.4)


def _field(x, w):
    return np.tanh(w * x) * x[0]


V = np.array([0.5, -1.0, 0.25])


def directional(x, w):
    """<1, J_x field(x, w) V>, jvp called inside the function."""
    return np.sum(jvp(_field, (x, w), (V, 0.0))[1])


def along_itself(x):
    """The tangent along x itself: jvp's primal and tangent both move with x."""
    return jvp(_field, (x, 1.2), (x * x,), wrt=0)[1]


def test_grad_of_a_function_calling_jvp():
    r = rng(41)
    x, w = r.normal(size=3), 0.8
    got = grad(directional, (0, 1))(x, w)
    assert_close(got[0], numerical_grad(directional, [x, w], 0))
    assert_close(got[1], numerical_grad(directional, [x, w], 1))


def test_jvp_and_jacfwd_of_a_function_calling_jvp():
    r = rng(42)
    x, t = r.normal(size=3), r.normal(size=3)
    out, tangent = jvp(along_itself, (x,), (t,))
    assert_close(out, along_itself(x), rtol=1e-12)
    assert_close(tangent, numerical_jvp(along_itself, [x], 0, t))
    J = jacfwd(along_itself)(x)
    for k in range(3):
        assert_close(J[:, k], numerical_jvp(along_itself, [x], 0, np.eye(3)[k]))


def test_hvp_of_a_function_calling_jvp_is_refused_at_its_def():
    """Forward over reverse refuses it before anything runs (session 38: it refused
    when it ran, at a line of transform/jvp_calls.py), so the default, auto, takes
    reverse over forward, which refuses it too."""
    with pytest.raises(TransformError, match="calls a helper of thunkgrad's that reverse mode cannot") as info:
        hvp(directional, (V, 0.8), (V,))
    assert info.value.filename == __file__
    with pytest.raises(TransformError, match="calling .*jvp inside") as info:
        hvp(directional, (V, 0.8), (V,), route="forward_over_reverse")
    assert info.value.filename == __file__


def _reshaped(w, n, X):
    """A shape argument that is a parameter (not differentiated): `w.reshape(3, n)`."""
    W = w.reshape(3, n)
    return np.sum(np.tanh(X @ W) ** 2) + np.sum(W.transpose(1, 0) * W.T)


def test_jacfwd_of_grad_through_a_reshape_by_a_parameter():
    r = rng(43)
    w, X, v = r.normal(size=6), r.normal(size=(4, 3)), r.normal(size=6)
    g = grad(_reshaped)
    got = jacfwd(g)(w, 2, X)
    assert got.shape == (6, 6)
    assert_close(got @ v, numerical_jvp(g, [w, 2, X], 0, v), rtol=1e-6)


class _Scaled:
    """A user object's own `reshape`, its argument differentiated."""
    def __init__(self, a):
        self.a = a

    def reshape(self, s, t):
        return self.a * s ** 2 * t


def _own_reshape(m, s):
    return m.reshape(s, 2.0)


def test_a_user_objects_reshape_keeps_its_derivative_in_forward_over_reverse():
    g = grad(_own_reshape, wrt="s")
    got = jacfwd(g, wrt="s")(_Scaled(3.0), 1.5)
    assert_close(got, numerical_grad(lambda s: g(_Scaled(3.0), s), [1.5], 0), rtol=1e-6)
