"""hvp's forward-over-reverse route through what it refused before session 39 (autoconst):
a keyword given a name for a constant, passed to a partial (`s = 0.7; f(w, w, scale=s)`:
refused while running, so route "auto" could not fall back; a name bound once to a
literal is the literal, transform/flat_calls.py named_constants; another constant's zero
tangent is dropped for a call of a value that is no plain function, flat_dispatch.py
_constant_keywords), and np.linalg.solve's and cholesky's cotangents in the flat gradient
(solve_vjp and cholesky_vjp have rules now: runtime/rules/decompositions_second.py),
a sort's (permutation_vjp's rule: runtime/rules/sort_second.py), and eigh's, svd's,
slogdet's, cumsum's, cumprod's, a running maximum's, vander's, polyval's and
scipy.linalg's cho_factor's and cho_solve's (forward mode compiles their VJP helpers
from source: transform/generated_calls.py FORWARD_BY_SOURCE).
H v against central finite differences of grad (tests/fd.py, float64) on every route."""
import functools

import numpy as np
import pytest
try:
    import scipy.linalg as sl
except ImportError:            # SciPy is optional: its case is left out without it
    sl = None

from tests.fd import assert_close, numerical_jvp
from tests.forward import closure_functions as C
from tests.gradcheck import rng
from transform import grad, hvp

ROUTES = ("forward_over_reverse", "reverse_over_forward", "auto")


def bound_in_a_branch(w):
    s = 0.7
    if w[0] > 0:
        s = 0.5
    f = functools.partial(C.weighted, scale=w)
    return np.sum(f(w, w, scale=s))


def bound_in_a_loop(w):
    t = 0.0
    for _ in range(2):
        s = -1.5
        t = t + np.sum(functools.partial(C.weighted, scale=w)(w, w, scale=s))
    return t


def computed_constant(w):
    s = 0.7 * 2
    f = functools.partial(C.weighted, w)
    return np.sum(f(np.cos(w), scale=s))


def named_constant_to_a_helper(w):
    k = 3.0
    return np.sum(C.weighted(w, np.sin(w), scale=k))


def solves(w):
    A = np.outer(w, w) + 3.0 * np.eye(3)
    return np.sum(np.linalg.solve(A, np.sin(w)) ** 2) + \
        np.sum(np.linalg.solve(A, np.outer(w, w)) * A)


def factor_solves(w):
    L = np.linalg.cholesky(np.outer(w, w) + 2.0 * np.eye(3))
    U = np.linalg.cholesky(np.outer(np.cos(w), w) + np.outer(w, np.cos(w)) + 4 * np.eye(3),
                           upper=True)
    return np.sum(np.linalg.solve(L, w) ** 2) + np.sum(np.log(np.diag(L))) + \
        np.sum(np.linalg.solve(U, np.stack([w, w ** 2], axis=1)) ** 2)


def _factor_in_a_helper(a, b):
    return np.linalg.cholesky(a) @ b


def factor_in_a_helper(w):
    return np.sum(_factor_in_a_helper(np.outer(w, w) + np.eye(3), np.tanh(w)) ** 2)


def spectra(w):
    S = np.outer(w, w) + np.diag([1.0, 2.0, 3.5])
    vals, vecs = np.linalg.eigh(S)
    u, s, vt = np.linalg.svd(np.stack([w, np.sin(w), w ** 2]) + np.diag([3.0, 1.0, -2.0]))
    return np.sum(vals ** 2) + np.sum(vecs[:, 0] ** 2 * w) + np.sum(s ** 3) + np.sum(u[0] * vt[1])


def running_and_polynomials(w):
    path = np.cumsum(np.sin(w * 2.0))
    drawdown = np.maximum.accumulate(path) - path
    V = np.vander(w, 3)
    return np.sum(drawdown ** 2) + np.sum(V ** 2) + np.sum(np.polyval(w, np.cos(w)) ** 2)


def sorted_products(w):
    s = np.sort(np.sin(w) * w)[::-1]
    return np.sum(np.cumsum(s) ** 2) + np.cumprod(1 + 0.3 * w)[-1] + \
        np.linalg.slogdet(np.outer(w, w) + np.eye(3))[1]


def scipy_factor(w):
    c, lower = sl.cho_factor(np.outer(w, w) + 2.0 * np.eye(3), lower=True)
    return np.sum(sl.cho_solve((c, lower), np.cos(w)) ** 2) + np.sum(np.log(np.diag(c)))


CASES = [bound_in_a_branch, bound_in_a_loop, computed_constant, named_constant_to_a_helper,
         solves, factor_solves, factor_in_a_helper, spectra, running_and_polynomials,
         sorted_products] + ([scipy_factor] if sl is not None else [])


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_hvp_matches_differences_of_grad(fn):
    r = rng("hvp fr constants", fn.__name__)
    x, v = r.normal(size=3) * 0.6 + 0.2, r.normal(size=3)
    want = numerical_jvp(grad(fn), (x,), 0, v)
    for route in ROUTES:
        assert_close(hvp(fn, (x,), (v,), route=route), want, rtol=1e-5, atol=1e-6)


def closure_keyword(x):
    a = x[1]

    def inner(h, *, w):
        return np.sum(np.tanh(h * w) * a)
    return inner(x ** 2, w=np.cos(x[0]))


def test_a_differentiated_keyword_along_a_zero_tangent_keeps_its_cotangent():
    """v[0] = 0: the keyword `w = cos(x[0])` has a zero tangent yet is differentiated (a
    closure's keywords are): its cotangent's tangent still reaches H v (a zero keyword
    tangent is dropped only where reverse mode refuses differentiated keywords)."""
    x, v = np.array([0.3, -0.7, 0.5]), np.array([0.0, 1.0, -0.4])
    want = numerical_jvp(grad(closure_keyword), (x,), 0, v)
    for route in ROUTES:
        assert_close(hvp(closure_keyword, (x,), (v,), route=route), want, rtol=1e-5, atol=1e-6)


def test_a_nested_defs_binding_is_not_the_outer_names():
    """`s = 0.7` in a nested def binds that def's own s: the outer `scale=s` (a global
    s, say) is no constant (named_constants scanned every scope alike before session
    39's review; no wrong value was reached, the guess is gone)."""
    from transform.flat_calls import named_constants
    text = ["def g(w):", "    def h():", "        s = 0.7", "        return s",
            "    t = 0.5", "    return c(w, scale=s) * t"]
    assert named_constants([(line + "\n", None) for line in text]) == {"t": 0.5}
