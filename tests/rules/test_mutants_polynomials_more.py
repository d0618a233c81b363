"""Behaviour the mutation run (tools/mutate.py, session 29) found unpinned in
runtime/rules/polynomials_more.py: what np.polyfit's rule refuses."""
import numpy as np
import pytest

from runtime import lookup, unthunk
from tests.fd import assert_close, numerical_grad
from tests.rules.checks import check_rule, rand

X8, Y8 = np.linspace(-1.0, 2.0, 8), rand(8, seed=4)


@pytest.mark.parametrize("kwargs", [dict(full=True), dict(cov=True), dict(cov="unscaled"),
                                    dict(full=True, cov=True)])
def test_polyfit_refuses_more_than_the_coefficients(kwargs):
    """full=True (residuals, rank, ...) or cov= (a covariance too): each alone is refused."""
    out, pullback = lookup(np.polyfit).rrule(X8, Y8, 2, **kwargs)
    g = tuple(np.zeros_like(o) if isinstance(o, np.ndarray) else 0.0 for o in out)
    with pytest.raises(NotImplementedError, match="full=True and cov="):
        unthunk(pullback(g)[1])


@pytest.mark.parametrize("fn", [np.polyadd, np.polysub])
def test_an_empty_coefficient_array(fn):
    """An empty polynomial adds nothing: its cotangent is empty (a Jacobian of no
    columns), the other's is g's."""
    check_rule(fn, [np.zeros(0), rand(3, seed=1)])
    check_rule(fn, [rand(3, seed=1), np.zeros(0)])


@pytest.mark.parametrize("first, second", [([0.0, 1.5, -0.5], [0.7, 2.0]),
                                           ([0.7, 2.0], [0.0, 0.0, 1.5]),
                                           ([0.0, 0.0], [0.7, 2.0])])
def test_polymul_with_leading_zeros_uses_the_kept_coefficients(first, second):
    """np.polymul drops a factor's leading zeros (a shorter product; all zeros keep one):
    the kept coefficients' cotangents match central differences taken with the zeros held
    (found by the fuzzer, tensors:295177: the rule refused when it ran); the zeros get 0."""
    a, b = np.array(first), np.array(second)
    out, pullback = lookup(np.polymul).rrule(a, b)
    g = np.linspace(0.5, 1.5, np.size(out))
    got_a, got_b = [unthunk(c) for c in pullback(g)]
    for got, x, other, first_arg in ((got_a, a, b, True), (got_b, b, a, False)):
        lead = len(x) - len(np.trim_zeros(x, "f")) if np.any(x) else len(x) - 1
        assert np.all(got[:lead] == 0)

        def kept_loss(kept, x=x, other=other, first_arg=first_arg, lead=lead):
            full = np.concatenate([x[:lead], kept])
            pair = (full, other) if first_arg else (other, full)
            return np.sum(np.polymul(*pair) * g)
        assert_close(got[lead:], numerical_grad(kept_loss, (x[lead:].copy(),), 0))


@pytest.mark.parametrize("first, second", [([0.0, 1.5, -0.5], [0.7, 2.0]),
                                           ([0.7, 2.0, -1.0], [0.0, 0.0, 1.5])])
@pytest.mark.parametrize("hot", [0, 1, 2])
def test_polymul_tangent_with_leading_zeros_has_the_answers_length(first, second, hot):
    """A one-hot tangent (jacfwd's) has leading zeros itself: np.polymul(t, other) would
    drop them and be shorter than the answer (session 33: a ValueError in jacfwd, found
    by the corpus's jacfwd-vs-jacrev run). The term is the kept part's, matching the
    cotangent (a factor's own leading zeros get none) and central differences there."""
    a, b = np.array(first), np.array(second)
    t = np.zeros(3)
    t[hot] = 1.0
    rule = lookup(np.polymul)
    out, tangent = rule.frule((t, None), a, b)
    assert np.shape(tangent) == np.shape(out)
    g = np.linspace(0.5, 1.5, np.size(out))
    cotangent = unthunk(rule.rrule(a, b)[1](g)[0])
    assert np.sum(g * tangent) == pytest.approx(np.sum(cotangent * t), rel=1e-12)
