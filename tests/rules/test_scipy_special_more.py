"""scipy.special.zeta in x: against central differences, a known value, broadcasting,
float32, and the refusal where the series diverges."""
import numpy as np
import pytest

sc = pytest.importorskip("scipy.special")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.rules.checks import check_float32, check_rule  # noqa: E402
from transform import grad  # noqa: E402


@pytest.mark.parametrize("x,q", [(1.05, 1.0), (1.5, 0.4), (2.0, 1.0), (3.0, 0.3), (7.5, 2.0),
                                 (2.5, 100.0)])
def test_zeta_in_both_arguments(x, q):
    check_rule(sc.zeta, [x, q], rtol=1e-6)


def test_riemann_zeta_in_x():
    check_rule(sc.zeta, [np.array([1.3, 2.0, 4.5])], rtol=1e-6)


def test_the_slope_at_two_is_known():
    # zeta'(2) = -0.93754825431584375370... (OEIS A073002, negated)
    assert grad(sc.zeta)(2.0) == pytest.approx(-0.9375482543158437, rel=1e-14)


def test_zeta_broadcasts():
    check_rule(sc.zeta, [np.array([[1.5], [2.5], [6.0]]), np.array([0.5, 1.0, 3.0, 9.0])],
               rtol=1e-6)


def test_zeta_float32():
    check_float32(sc.zeta, [np.array([1.5, 2.5], dtype=np.float32), np.float32(1.5)])


def riemann(x):
    return np.sum(sc.zeta(x) ** 2)


def test_in_user_code():
    x = np.array([1.7, 3.2])
    assert_close(grad(riemann)(x), numerical_grad(riemann, (x,), 0), rtol=1e-6)


@pytest.mark.parametrize("x,q", [(0.5, 1.0), (1.0, 2.0), (2.0, -0.5)])
def test_where_the_series_diverges_it_is_refused(x, q):
    with pytest.raises(ValueError, match="x > 1"):
        grad(sc.zeta)(x, q)
