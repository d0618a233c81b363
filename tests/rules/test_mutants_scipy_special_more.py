"""Mutation survivors of runtime/rules/scipy_special_more.py pinned by behaviour: zeta's
slope in x is refused at q = 0 exactly, where the series' first term is log(0) 0^-x."""
import numpy as np
import pytest

sc = pytest.importorskip("scipy.special")

from transform import grad  # noqa: E402


@pytest.mark.parametrize("q", [0.0, np.array([1.0, 0.0])])
def test_zeta_slope_at_q_zero_is_refused(q):
    with pytest.raises(ValueError, match="q > 0"):
        grad(lambda x, q: np.sum(sc.zeta(x, q)))(np.array([2.0, 3.0]), q)
