"""hvp (reverse mode over forward mode's code) through the decompositions' and
scipy.linalg's JVP helpers, differentiated from their source or by their reverse rules
(transform/generated_calls.py BY_SOURCE, runtime/rules/scipy_linalg_second.py), and
through scipy.stats' logpdf and pdf (stats_vjp's rule, scipy_stats_second.py): H v
against central differences of grad (tests/fd.py, float64), grad of grad against
differences of grad for a scalar. Session 35 (rules2)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp

sl = pytest.importorskip("scipy.linalg")
st = pytest.importorskip("scipy.stats")
OBS = np.array([0.1, 0.5, -0.3, 1.2])


def spd(x):
    m = np.outer(x, x) + np.diag([3.0, 2.0, 1.0]) + 0.1 * np.outer(np.sin(x), np.cos(x))
    return m + m.T


def gaussian_likelihood(x):         # stats_vjp, x / loc / scale, logpdf
    return np.sum(st.norm.logpdf(OBS, x[0], np.exp(x[1]))) + np.sum(st.norm.logpdf(x, 0.2, 1.5))


def student_and_gamma(x):           # a shape parameter: df, a (mixed and shape-shape terms)
    return np.sum(st.t.logpdf(OBS, 3.0 + x[0] ** 2, x[1], 2.0 + x[2] ** 2)) + \
        np.sum(st.gamma.logpdf(2.0 + x ** 2, 1.5 + x[2] ** 2, scale=1.3))


def beta_density(x):                # pdf: the answer's own term; two shapes
    return np.sum(st.beta.pdf(0.3 + 0.1 * x ** 2, 2.0 + x[0] ** 2, 3.0 + x[1], scale=1.2))


def lognormal_and_logistic(x):
    return np.sum(st.lognorm.logpdf(1.0 + x ** 2, 0.5 + x[0] ** 2)) + \
        np.sum(st.logistic.pdf(x, 0.1, 0.8)) + np.sum(st.cauchy.logpdf(OBS, x[1], 1.0 + x[2] ** 2))


def matrix_exponential_ode(x):      # y(t) = expm(A t) y0: expm_jvp's rule
    a = np.array([[0.0, 1.0, 0.2], [-1.0, -0.1, 0.0], [0.3, 0.0, -0.5]]) * x[0] + \
        0.1 * np.outer(x, np.cos(x))
    y = sl.expm(a * 0.7) @ np.array([1.0, 0.5, -0.2])
    return np.sum(y ** 2)


def eigen_objective(x):             # eigh_jvp from source: values and a vector
    w, v = np.linalg.eigh(spd(x))
    return np.sum(w ** 2) + np.sum(v[:, 0] ** 2 * x) + np.max(np.linalg.eigvalsh(spd(x)))


def scipy_eigen(x):
    w, v = sl.eigh(spd(x))
    return np.sum(w ** 3) + v[0, 1] ** 2 + np.sum(sl.eigvalsh(spd(x)))


def cholesky_solves(x):             # cho_factor_jvp, cho_solve_factor_jvp, solved_matrix
    c = sl.cho_factor(spd(x))
    return np.sum(sl.cho_solve(c, x) * x) + np.sum(sl.solve(spd(x), x, assume_a="sym") ** 2)


def lu_solves(x):                   # lu_factor_jvp, lu_solve_factor_jvp (pivots held)
    lu = sl.lu_factor(spd(x) + np.diag(x))
    return np.sum(sl.lu_solve(lu, x) ** 2) + np.sum(sl.lu_solve(lu, np.cos(x), trans=1) * x)


def decompositions(x):              # qr, lstsq, pinv, svdvals, eig, eigvals
    q, r = np.linalg.qr(spd(x))
    a = np.vstack([spd(x), np.ones(3) + x])
    w, vectors = np.linalg.eigvals(spd(x)), np.linalg.eig(spd(x))[1]
    return np.sum(vectors[:, 0] ** 2 * x) + np.sum(r ** 2 * x) + q[0, 1] ** 2 + np.sum(np.linalg.lstsq(a, x[0] + np.arange(4.0),
                                                                      rcond=None)[0] ** 2) + \
        np.sum(np.linalg.pinv(a) ** 2) + np.sum(np.linalg.svd(a, compute_uv=False) ** 3) + \
        np.sum(w ** 2)


def matrix_products(x):             # matrix_power (both signs), multi_dot
    m = spd(x) * 0.3
    return np.sum(np.linalg.matrix_power(m, 3)) + np.sum(np.linalg.matrix_power(m, -2)) + \
        np.sum(np.linalg.multi_dot([m, np.diag(x), m]) ** 2)


def matrix_equations(x):            # solve_triangular, sqrtm, sylvester, lyapunov, scipy qr
    q, r = sl.qr(spd(x))
    return np.sum(sl.solve_triangular(np.triu(spd(x)), x * x) ** 2) + \
        np.sum(sl.sqrtm(spd(x)).real ** 2) + \
        np.sum(sl.solve_sylvester(spd(x), spd(2.0 * x), np.eye(3)) ** 2) + \
        np.sum(sl.solve_continuous_lyapunov(-spd(x), np.eye(3)) ** 2) + np.sum(r ** 2 * x)


def mvn_likelihood(x):              # mvn_jvp from source (a symmetric covariance)
    points = np.array([[0.1, 0.2, 0.3], [0.5, -0.1, 0.2]])
    return np.sum(st.multivariate_normal.logpdf(points, x, spd(x)))


CASES = [gaussian_likelihood, student_and_gamma, beta_density, lognormal_and_logistic,
         matrix_exponential_ode, eigen_objective, scipy_eigen, cholesky_solves, lu_solves,
         decompositions, matrix_products, matrix_equations, mvn_likelihood]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_hvp_matches_differences_of_grad(fn):
    r = rng("hvp scipy", fn.__name__)
    x, v = r.normal(size=3) * 0.4 + 0.2, r.normal(size=3)
    assert_close(hvp(fn, (x,), (v,)), numerical_jvp(grad(fn), (x,), 0, v),
                 rtol=1e-5, atol=1e-6)


def scalar_likelihood(s):
    return np.sum(st.t.logpdf(OBS, 2.5 + s * s, s, np.exp(s))) + \
        np.sum(sl.expm(np.array([[s, 1.0], [0.3, -s]])))


def test_grad_of_grad_of_a_scalar():
    assert_close(grad(grad(scalar_likelihood))(0.4),
                 numerical_grad(grad(scalar_likelihood), [0.4], 0), rtol=1e-5, atol=1e-6)


def a_cdf(x):
    return np.sum(st.norm.cdf(OBS, x[0], 1.0 + x[1] ** 2))


def a_family_without_second_derivatives(x):
    return np.sum(st.chi2.logpdf(1.0 + x ** 2, 3.0))


@pytest.mark.parametrize("fn", [a_cdf, a_family_without_second_derivatives],
                         ids=lambda f: f.__name__)
def test_what_stats_vjp_has_no_rule_for_is_refused(fn):
    with pytest.raises(TransformError, match="second derivative of scipy.stats"):
        hvp(fn, (np.array([0.3, -0.2, 0.5]),), (np.ones(3),))


def mvn_asymmetric(x):
    cov = np.array([[3.0, 0.5, 0.1], [0.2, 2.0, 0.3], [0.0, 0.1, 1.0]]) + np.diag(x * x)
    return st.multivariate_normal.logpdf(x, None, cov)


def test_an_asymmetric_covariance_is_refused():
    """SciPy reads cov's lower triangle, the rules the whole matrix: grad was silently
    wrong before session 35 (rules2), now refused, at the user's line."""
    with pytest.raises(TransformError, match="symmetric cov") as info:
        grad(mvn_asymmetric)(np.array([0.3, -0.2, 0.5]))
    assert info.value.filename == __file__
