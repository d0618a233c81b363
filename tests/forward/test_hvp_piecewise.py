"""hvp (both routes) and hessian through np.piecewise (session 37): reverse mode over
its tangent (runtime/rules/piecewise_second.py), the pieces user functions compiled by
thunkgrad, a constant piece, extra `args` differentiated, a scalar x, a lambda reading
the caller's (undifferentiated) locals; against second central differences computed
without thunkgrad (tests/red2/check.py fd_hessian)."""
import numpy as np
import pytest

from tests.fd import assert_close
from tests.red2.check import fd_hessian
from transform import TransformError, hessian, hvp

ROUTES = ["reverse_over_forward", "forward_over_reverse"]


def _square(t):
    return t ** 2


def two_pieces(x, a):
    y = np.piecewise(x, [x < 0, x >= 0], [_square, np.sin])
    return np.sum(y ** 2) * a


def with_args(x, a):        # a passed to every piece; the last piece the `otherwise`
    y = np.piecewise(x, [x < -0.5, x > 0.8], [lambda t, a: a * t ** 3, 0.25,
                                              lambda t, a: np.exp(a * t)], a)
    return np.sum(y * np.cos(x))


def scalar_x(x, a):
    return np.piecewise(x, [x < 0], [lambda t: np.sin(t) * t, lambda t: t ** 3]) * a


def reads_locals(x, a):
    s = np.sum(x)           # differentiated, read by the pieces only as an argument
    c = 1.5                 # a local the lambda reads
    y = np.piecewise(x, [x < 0.1], [lambda t, s: c * t * s, lambda t, s: np.tanh(t) + s], s)
    return np.sum(y ** 2) * a


X = np.array([-1.1, -0.3, 0.2, 0.9, 1.4])
CASES = [(two_pieces, (X, 0.7)), (with_args, (X, 0.7)), (scalar_x, (-0.4, 1.3)),
         (scalar_x, (0.6, 1.3)), (reads_locals, (X, 0.7))]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("wrt", [0, 1])
def test_hvp_against_second_differences(case, route, wrt):
    fn, args = CASES[case]
    v = np.linspace(0.5, -0.7, np.size(args[wrt])).reshape(np.shape(args[wrt]))
    v = v if np.ndim(args[wrt]) else float(v)
    got = hvp(fn, args, (v,), wrt=wrt, route=route)
    want = fd_hessian(fn, args, wrt) @ np.ravel(v)
    assert_close(np.ravel(got), want, rtol=1e-4, atol=1e-5)


def test_mixed_hessian_block():
    fn, (x, a) = CASES[1]
    got = hvp(fn, (x, a), (np.ones(5), 0.0), wrt=(0, 1))[1]
    h = 1e-4                # d/da of d f / d x . ones, by differences of differences
    def d_dx(a_):
        return (fn(x + h, a_) - fn(x - h, a_)) / (2 * h)
    assert_close(got, (d_dx(a + h) - d_dx(a - h)) / (2 * h), rtol=1e-4, atol=1e-5)


def test_hessian():
    fn, (x, a) = CASES[0]
    assert_close(hessian(fn)(x, a), fd_hessian(fn, (x, a), 0), rtol=1e-4, atol=1e-5)


def reads_differentiated(x, a):
    s = np.sum(x) * a
    y = np.piecewise(x, [x < 0.1], [lambda t: t * s, lambda t: np.tanh(t) + s])
    return np.sum(y ** 2)


@pytest.mark.parametrize("route", ROUTES)
def test_a_piece_reading_a_differentiated_local_is_refused_at_the_line(route):
    with pytest.raises(TransformError, match="reading differentiated values") as info:
        hvp(reads_differentiated, (X, 0.7), (np.ones(5),), route=route)
    assert info.value.filename == __file__ and "np.piecewise(" in info.value.source_line
    assert "`args`" in str(info.value) and info.value.hint


def test_the_tangents_own_jvp_along_its_tangents():
    """piecewise_jvp's JVP rule: along the tangents (it is linear in them) against
    differences; along x a third derivative, refused."""
    import runtime
    from runtime.jvp import NoJvp
    from runtime.rules.piecewise import piecewise_jvp
    from tests.fd import numerical_jvp
    conds, pieces = [X < 0], [np.sin, _square]
    t, t_dot = np.linspace(-1, 1, 5), np.linspace(0.3, 0.9, 5)
    rule = runtime.lookup(piecewise_jvp)
    _, got = rule.frule(((t_dot, None, None), None, None, None), (t, None, None), X, conds,
                        pieces)
    want = numerical_jvp(lambda tt: piecewise_jvp((tt, None, None), X, conds, pieces),
                         [t], 0, t_dot)
    assert_close(got, want, rtol=1e-6, atol=1e-9)
    with pytest.raises(NoJvp, match="third derivative"):
        rule.frule((None, t_dot, None, None), (t, None, None), X, conds, pieces)
