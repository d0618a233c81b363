"""scipy.stats.multivariate_normal in one dimension: SciPy reads the dimension from the
mean (or the covariance), so a number or 1-element mean with a number as cov is
one-dimensional and a vector x is then a list of points (it crashed the rule)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

stats = pytest.importorskip("scipy.stats")
MVN = stats.multivariate_normal


def scalar_point(m, c):
    return MVN.logpdf(0.3, mean=m, cov=c)


def points_one_element_mean(x, m, c):
    return np.sum(MVN.logpdf(x, mean=m, cov=c))


def frozen_scalar(x, m, c):
    return np.sum(MVN(m, c).pdf(x))


def column_points(x, m, c):
    return np.sum(MVN.logpdf(x, mean=m, cov=c))


def cov_only(x, c):
    return np.sum(MVN.logpdf(x, cov=c))


@pytest.mark.parametrize("policy", POLICIES)
def test_scalar_point_mean_and_cov(policy):
    check_grad(scalar_point, [0.1, 2.0], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_vector_of_points_one_element_mean(policy):
    check_grad(points_one_element_mean, [np.array([0.3, -0.5, 1.1]), np.array([0.1]), 2.0],
               policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_frozen_scalar_mean(policy):
    check_grad(frozen_scalar, [np.array([0.3, 0.4]), 0.1, 1.5], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_column_of_points_matrix_cov(policy):
    check_grad(column_points, [np.array([[0.3], [0.5]]), 0.1, np.array([[2.0]])], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_mean_omitted_number_cov(policy):
    check_grad(cov_only, [np.array([0.3, -0.5]), 1.7], policy=policy)


def test_higher_dimensions_unchanged():
    x, m, c = np.array([[0.3, 0.1], [0.2, -0.4]]), np.array([0.1, 0.0]), np.array([1.5, 0.7])
    check_grad(points_one_element_mean, [x, m, c])
