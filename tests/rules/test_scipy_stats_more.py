"""multivariate_normal.pdf, dirichlet and frozen multivariate distributions against
central differences (cov along symmetric directions: SciPy reads one triangle)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

stats = pytest.importorskip("scipy.stats")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.rules.checks import check_float32, check_rule  # noqa: E402
from transform import grad  # noqa: E402

RNG = np.random.default_rng(5)
COV = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 1.5]])
MEAN = np.array([0.2, -0.1, 0.4])
POINTS = RNG.normal(size=(4, 3))


def symmetric_cov(fn):
    """fn with cov replaced by its symmetric part: entry-wise differences then move
    both triangles, the direction the symmetric cotangent answers for."""
    return lambda x, m, c, *rest: fn(x, m, (c + c.T) / 2, *rest)


@pytest.mark.parametrize("x", [POINTS, POINTS[0]], ids=["rows", "one"])
@pytest.mark.parametrize("fn", [stats.multivariate_normal.pdf,
                                stats.multivariate_normal.logpdf])
def test_mvn_in_x_mean_and_cov(fn, x):
    check_rule(fn, [x, MEAN, COV], fd=symmetric_cov(fn))


@pytest.mark.parametrize("cov", [1.7, np.array([1.2, 0.8, 2.0])], ids=["scalar", "diagonal"])
def test_mvn_pdf_with_a_scalar_or_diagonal_cov(cov):
    check_rule(stats.multivariate_normal.pdf, [POINTS, MEAN, cov])


@pytest.mark.parametrize("fn", [stats.multivariate_normal.pdf,
                                stats.multivariate_normal.logpdf])
def test_mvn_points_in_a_batch_of_any_shape(fn):
    x = RNG.normal(size=(2, 4, 3))          # (the logpdf rule refused this shape before)
    check_rule(fn, [x, MEAN, COV], fd=symmetric_cov(fn))


def test_mvn_pdf_float32():
    check_float32(stats.multivariate_normal.pdf, [POINTS, MEAN, COV])


ALPHA = np.array([1.5, 2.0, 3.2])


@pytest.mark.parametrize("x", [np.array([0.2, 0.3]), np.array([[0.2, 0.1], [0.3, 0.5]])],
                         ids=["point", "columns"])
@pytest.mark.parametrize("fn", [stats.dirichlet.logpdf, stats.dirichlet.pdf])
def test_dirichlet_with_k_minus_1_entries(fn, x):
    check_rule(fn, [x, ALPHA])          # the last entry is 1 - sum: x moves freely


@pytest.mark.parametrize("fn", [stats.dirichlet.logpdf, stats.dirichlet.pdf])
def test_dirichlet_in_alpha_with_all_entries(fn):
    x = np.array([[0.2, 0.1], [0.3, 0.5], [0.5, 0.4]])
    check_rule(fn, [x, ALPHA], argnums=[1])


def dirichlet_on_softmax(z, alpha):
    x = np.exp(z) / np.sum(np.exp(z))
    return stats.dirichlet.logpdf(x, alpha) + stats.dirichlet.pdf(x, alpha)


def mvn_frozen(x, mean, L):
    cov = L @ L.T + 0.5 * np.eye(3)
    d = stats.multivariate_normal(mean, cov)
    return np.sum(d.logpdf(x)) + np.sum(d.pdf(x[:2]))


def mvn_frozen_keywords(x, mean, s):
    return np.sum(stats.multivariate_normal(mean=mean, cov=s).logpdf(x))


def mvn_frozen_diagonal(x, mean, v):
    return np.sum(stats.multivariate_normal(mean, v * v).logpdf(x))


def dirichlet_frozen(z, alpha):
    x = np.exp(z) / np.sum(np.exp(z))
    return stats.dirichlet(alpha * 2.0).logpdf(x)


Z = np.array([0.1, -0.4, 0.7])
PROGRAMS = [(dirichlet_on_softmax, (Z, ALPHA), (0, 1)),
            (mvn_frozen, (POINTS, MEAN, RNG.normal(size=(3, 3))), (0, 1, 2)),
            (mvn_frozen_keywords, (POINTS, MEAN, 1.3), (0, 1, 2)),
            (mvn_frozen_diagonal, (POINTS, MEAN, np.array([1.1, 0.7, 1.4])), (0, 1, 2)),
            (dirichlet_frozen, (Z, ALPHA), (0, 1))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_user_programs(fn, args, wrts, policy):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("fn,args", [
    (stats.dirichlet.logpdf, [np.array([0.2, 0.3]), ALPHA]),
    (stats.poisson.cdf, [np.array([1, 3]), np.array([1.5, 2.5])]),
    (stats.binom.logsf, [np.array([1, 3]), 7, np.array([0.3, 0.6])])])
def test_float32(fn, args):
    check_float32(fn, args)
