"""hvp's forward-over-reverse route through what it refused only once its code ran
(route "auto" could not fall back then; session 38): a literal passed by keyword to a
partial or to a `*args` callee (flat_calls keeps it among the site's keywords: it
carries no derivative), a callee's list slice read in a loop (`accumulate_slice`,
written as a fresh sum in the flat gradient), a callee taking `*args` or `**kwargs`
(flat_dispatch's call, not callee_vjp's flat sweep). H v against central finite
differences of grad (tests/fd.py, float64); a differentiated keyword the route cannot
place is still refused."""
import functools

import numpy as np
import pytest
try:
    from scipy.special import logsumexp
except ImportError:            # SciPy is optional: its case is left out without it
    logsumexp = None

from tests.fd import assert_close, numerical_jvp
from tests.forward import closure_functions as C
from tests.forward import test_hvp_helpers as H
from tests.forward import test_spread_generators as S
from tests.gradcheck import rng
from transform import TransformError, grad, hvp

ROUTE = "forward_over_reverse"


def keyword_options(a, **opts):
    return np.sum(np.sin(a) * a) * opts.get("scale", 1.0)


def collects_keywords(x):
    return keyword_options(x * 2.0) + keyword_options(np.cos(x), scale=3.0)


def slices_a_list(x):
    return np.sum(H.recurrence([x, np.sin(x), x * x]))


def literal_keywords(x):
    f = functools.partial(C.weighted, scale=x)
    return np.sum(f(x, np.cos(x), scale=-1.5) + S.scaled(x, x, np.sin(x), scale=2))


def log_softmax(a, axis=-1):
    return a - logsumexp(a, axis=axis, keepdims=True)


def weighted_lse(a, b):
    return logsumexp(a * a, axis=0, b=b)


def logsumexp_in_helpers(x):
    """logsumexp's cotangent (logsumexp_vjp) in a callee's flat gradient, made as the code
    runs: its JVP (session 38, autofix), by rows, whole and with weights b."""
    rows = np.reshape(np.concatenate([x, np.sin(x)]), (2, 3))
    return np.sum(log_softmax(rows) ** 2) + np.sum(weighted_lse(rows, np.cos(x)) ** 2) + \
        log_softmax(x, axis=None)[1] ** 2


CASES = [C.partial_keyword_given_again, S.star_with_a_keyword, S.varargs_counts,
         S.varargs_through_varargs, collects_keywords, slices_a_list, literal_keywords] + \
    ([logsumexp_in_helpers] if logsumexp is not None else [])


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_hvp_matches_differences_of_grad(fn):
    r = rng("hvp fr run-time sites", fn.__name__)
    x, v = r.normal(size=3) * 0.6 + 0.2, r.normal(size=3)
    assert_close(hvp(fn, (x,), (v,), route=ROUTE), numerical_jvp(grad(fn), (x,), 0, v),
                 rtol=1e-5, atol=1e-6)


def test_mixed_hvp_through_a_helper_slicing_a_list():
    r = rng("hvp fr run-time sites", "list argument")
    x, a = 0.7, r.normal(size=3)
    v = (0.9, r.normal(size=3))
    got = hvp(H.through_a_list, (x, a), v, wrt=(0, 1), route=ROUTE)
    gradient, eps = grad(H.through_a_list, (0, 1)), 1e-6
    up = gradient(x + eps * v[0], a + eps * v[1])
    down = gradient(x - eps * v[0], a - eps * v[1])
    for k in range(2):
        assert_close(got[k], (up[k] - down[k]) / (2 * eps), rtol=1e-5, atol=1e-6)


def named_constant_to_a_partial(w):
    s = 0.7
    f = functools.partial(C.weighted, scale=w)
    return np.sum(f(w, w, scale=s))


def test_a_keyword_given_a_named_constant_is_computed():
    """`s = 0.7; f(w, w, scale=s)`: refused while running before (session 38; auto could
    not fall back), now the literal's (flat_calls.named_constants). Against differences
    of grad, on both routes and auto; more cases in test_hvp_fr_constants.py."""
    x, v = np.array([0.3, -0.2, 0.5]), np.array([1.0, 0.5, -0.3])
    want = numerical_jvp(grad(named_constant_to_a_partial), (x,), 0, v)
    for route in (ROUTE, "reverse_over_forward", "auto"):
        assert_close(hvp(named_constant_to_a_partial, (x,), (v,), route=route), want,
                     rtol=1e-5, atol=1e-6)


def gradient_energy(x):
    return np.sum(np.gradient(x) ** 2 * x)


def test_a_custom_rules_jvp_function_with_a_rule_of_its_own():
    """np.gradient's second derivative was reverse mode over its JVP function's source
    (gradient_jvp), which reverse mode refuses (transform/flat_custom_check.py refused it
    before anything ran, at the user's line); gradient_jvp has a reverse rule since
    session 39 (runtime/rules/gradient_second.py): every route computes it."""
    x, v = np.array([0.7, -0.3, 1.2, 0.4]), np.array([1.0, 0.5, -0.25, 2.0])
    want = numerical_jvp(grad(gradient_energy), (x,), 0, v)
    for route in (ROUTE, "reverse_over_forward", "auto"):
        assert_close(hvp(gradient_energy, (x,), (v,), route=route), want, rtol=1e-5, atol=1e-6)
