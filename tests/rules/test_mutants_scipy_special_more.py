"""Mutation survivors of runtime/rules/scipy_special_more.py pinned by behaviour: zeta's
slope in x is refused at q = 0 exactly, where the series' first term is log(0) 0^-x."""
import math

import numpy as np
import pytest

sc = pytest.importorskip("scipy.special")

from transform import grad  # noqa: E402


@pytest.mark.parametrize("q", [0.0, np.array([1.0, 0.0])])
def test_zeta_slope_at_q_zero_is_refused(q):
    with pytest.raises(ValueError, match="q > 0"):
        grad(lambda x, q: np.sum(sc.zeta(x, q)))(np.array([2.0, 3.0]), q)


def _slope_reference(x, q, direct=60):
    """d/dx zeta(x, q) = -sum_n log(n + q) (n + q)^-x, summed independently of the rule:
    60 terms exactly (math.fsum), the tail's integral and two Euler-Maclaurin
    corrections at a = 60 + q, where the next one is below 1e-19 of the result."""
    terms = [-math.log(n + q) * (n + q) ** -x for n in range(direct)]
    a = direct + q
    tail = a ** (1 - x) * (math.log(a) / (x - 1) + 1 / (x - 1) ** 2) + math.log(a) * a ** -x / 2
    # f(t) = log(t) t^-x: f'(a) = a^(-x-1) (1 - x log a),
    # f'''(a) = a^(-x-3) (-x (x+1) (x+2) log a + 3 x^2 + 6 x + 2)
    d1 = a ** (-x - 1) * (1 - x * math.log(a))
    d3 = a ** (-x - 3) * (-x * (x + 1) * (x + 2) * math.log(a) + 3 * x * x + 6 * x + 2)
    corrections = -d1 / 12 + d3 / 720
    scale = math.fsum(abs(t) for t in terms)
    return math.fsum(terms + [-tail, -corrections]), scale


@pytest.mark.parametrize("x", [1.05, 1.5, 2.0, 3.0, 5.0, 9.0])
@pytest.mark.parametrize("q", [0.01, 0.3, 0.87, 1.0, 2.5])
def test_zeta_slope_against_an_independent_sum(x, q):
    """The rule's 12 terms and 8 Bernoulli corrections against 60 terms and 2
    corrections, to 3e-14 of the terms' size (the slope crosses zero near q = 0.87 for
    x = 3, so the error is measured against the terms, not the result)."""
    want, scale = _slope_reference(x, q)
    got = float(grad(sc.zeta)(x, q))
    assert abs(got - want) <= 3e-14 * (scale + abs(want)), (got, want)
