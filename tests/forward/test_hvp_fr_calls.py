"""hvp's forward-over-reverse route through calls dispatched when they run
(transform/flat_dispatch.py): a user function called with keywords or returning a
tuple, methods of user objects, closures and partials called later or in a loop, a
callable object, `f(*xs)` and `f(**params)`, a `@differentiable` helper, functions with custom rules (a JVP
function, LINEAR); H v against central finite differences of
grad (tests/fd.py) and against route reverse_over_forward. A keyword-only parameter given a
differentiated value is refused at the user's line."""
import functools

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import LINEAR, differentiable, grad, hvp, rrule

ROUTE = "forward_over_reverse"


def affine(x, a=1.0, b=0.0, c=3.0):
    return a * np.sin(x) + b * x * x + c


def keywords(x, a):
    return np.sum(affine(x, b=a[1], a=a[0]) ** 2) + np.sum(affine(x, c=a[0]))


def pair(x):
    return np.sin(x), x * np.cos(x)


def uses_pair(x):
    s, c = pair(x)
    return np.sum(s * c) + np.sum(c ** 2)


class Layer:
    def __init__(self, W):
        self.W = W

    def __call__(self, h):
        return np.tanh(self.W @ h)

    def energy(self, h, scale=1.0):
        return scale * np.sum(self(h) ** 2)


def methods(W, h):
    layer = Layer(W)
    return layer.energy(h, scale=0.5) + np.sum(layer(h) * h)


def closures(x):
    w = np.cos(x)
    f = lambda t: t * w             # noqa: E731  (a closure over a local)
    g = functools.partial(affine, a=x[0])
    return np.sum(f(x) ** 2) + np.sum(g(x) * x)


def closures_in_a_loop(x):
    total = 0.0
    for k in range(3):
        f = lambda t, k=k: np.sin(t * (k + 1)) * x   # noqa: E731
        total = total + np.sum(f(x) * x)
    return total


def methods_in_a_loop(W, h):
    layers = [Layer(W), Layer(0.5 * W)]
    for k in range(2):              # (a loop over the list itself: another helper's)
        h = layers[k](h) + 0.1 * h
    return np.sum(h ** 2)


@differentiable
def helper(x, s=1.0):
    return np.exp(s * x) * x


def uses_helper(x):
    return np.sum(helper(x, s=0.5) ** 2)


def cube(x):
    return x ** 3


def cube_jvp(tangents, x):
    return 3.0 * x ** 2 * tangents[0]


@rrule(cube, jvp=cube_jvp)
def cube_rule(x):
    return x ** 3, lambda g: (3.0 * x ** 2 * g,)


def scaled(a, b):
    return a * b


@rrule(scaled, jvp=LINEAR)              # bilinear: linear in each argument
def scaled_rule(a, b):
    return a * b, lambda g: (g * b, g * a)


def custom_rules(x, w):
    return np.sum(cube(x) * np.sin(x)) + np.sum(scaled(x, w) ** 2)


def spread(x, w):
    xs = [x * w, np.cos(x)]
    params = {"a": w[0], "b": x[1]}
    return np.sum(affine(*xs) ** 2) + np.sum(affine(x, **params) * x)


def kwonly(x, *, s):
    return np.sum(x * s) ** 2


def uses_kwonly(x):
    return kwonly(x, s=np.sin(x))


def _point(shapes, seed):
    r = rng("hvp fr calls", seed)
    return tuple(0.5 * r.normal(size=s) for s in shapes), tuple(r.normal(size=s) for s in shapes)


CASES = [(keywords, [(3,), (2,)]), (uses_pair, [(3,)]), (methods, [(3, 3), (3,)]),
         (closures, [(3,)]), (closures_in_a_loop, [(3,)]),
         (methods_in_a_loop, [(3, 3), (3,)]), (uses_helper, [(3,)]),
         (custom_rules, [(3,), (3,)]), (spread, [(3,), (3,)])]


OTHER = "reverse_over_forward"


@pytest.mark.parametrize("fn, shapes", CASES, ids=[f.__name__ for f, _ in CASES])
def test_calls_against_differences_and_the_default_route(fn, shapes):
    args, vs = _point(shapes, fn.__name__)
    for k, v in enumerate(vs):
        got = hvp(fn, args, (v,), wrt=k, route=ROUTE)
        assert_close(got, numerical_jvp(grad(fn, k), args, k, v), rtol=1e-5, atol=1e-6)
        assert_close(got, hvp(fn, args, (v,), wrt=k, route=OTHER), rtol=1e-9, atol=1e-12)


def test_every_argument_at_once():
    args, vs = _point([(3, 3), (3,)], "both")
    got = hvp(methods, args, vs, wrt=(0, 1), route=ROUTE)
    want = hvp(methods, args, vs, wrt=(0, 1), route=OTHER)
    for a, b in zip(got, want):
        assert_close(a, b, rtol=1e-9, atol=1e-12)


def test_a_keyword_only_parameter_given_a_differentiated_value():
    """Refused when it ran until session 37 (frkw; tests/forward/test_hvp_fr_keywords.py)."""
    args, (v,) = _point([(3,)], "kwonly")
    got = hvp(uses_kwonly, args, (v,), route=ROUTE)
    assert_close(got, numerical_jvp(grad(uses_kwonly), args, 0, v), rtol=1e-5, atol=1e-6)
    assert_close(got, hvp(uses_kwonly, args, (v,), route=OTHER), rtol=1e-9, atol=1e-12)


def test_hessian_takes_the_route():
    from transform import hessian
    args, _ = _point([(3, 3), (3,)], "hessian")
    H = hessian(methods, wrt=1, route=ROUTE)(*args)
    assert_close(H, hessian(methods, wrt=1, route=OTHER)(*args), rtol=1e-9, atol=1e-12)
    assert_close(H, H.T, rtol=1e-9, atol=1e-12)
    column = numerical_jvp(grad(methods, 1), args, 1, np.eye(3)[0])
    assert_close(H[:, 0], column, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="route"):
        hessian(methods, route="sideways")
