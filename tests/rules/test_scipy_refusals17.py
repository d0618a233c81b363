"""SciPy functions issue 17 leaves without a rule (multivariate_normal.cdf/logcdf: randomised
quasi-Monte Carlo integration) and one the special list does not name (hyp2f1): a
differentiated value reaching them is a TransformError at the user's line naming the
function, under every policy; SciPy's own source is never compiled. (scipy.linalg.eig and
eigvals have rules since session 34: tests/rules/test_scipy_linalg_eig.py.)"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

sl = pytest.importorskip("scipy.linalg")
import scipy.special as sc  # noqa: E402
from scipy import stats  # noqa: E402

from transform import TransformError, grad  # noqa: E402


def mvn_cdf(m):
    return stats.multivariate_normal.cdf(np.zeros(2), m, np.eye(2))


def mvn_logcdf(m):
    return stats.multivariate_normal.logcdf(np.zeros(2), m, np.eye(2))


def hypergeometric(x):
    return np.sum(sc.hyp2f1(1.0, 2.0, 3.0, x))


CASES = [(mvn_cdf, np.zeros(2), "cdf"), (mvn_logcdf, np.zeros(2), "logcdf"),
         (hypergeometric, np.array([0.1, 0.2]), "hyp2f1")]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,x,named", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_refused_at_the_users_line_naming_the_function(fn, x, named, policy):
    with pytest.raises(TransformError) as info:
        grad(fn, policy=policy)(x)
    assert named in info.value.message
    assert info.value.filename.endswith("test_scipy_refusals17.py")
    assert "site-packages" not in str(info.value)
