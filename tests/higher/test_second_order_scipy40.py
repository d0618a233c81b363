"""Second derivatives through SciPy JVP helpers taken off
tests/rules/second_order_missing.txt in session 40 (secorder3), differentiated from their
source (transform/generated_calls.py BY_SOURCE): the distribution functions' slopes in x
(incomplete_density: gammainc, betainc, chdtr, gdtr; t_density: stdtr, stdtrit;
f_density: fdtr), boxcox's slope in lmbda, zeta's in x and multigammaln's in a. hvp on each route and the hessian against
central differences of grad (tests/fd.py)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.higher.route_checks import check_hessian, check_routes
from transform import grad

sc = pytest.importorskip("scipy.special")
signal = pytest.importorskip("scipy.signal")
stats = pytest.importorskip("scipy.stats")
linalg = pytest.importorskip("scipy.linalg")

X = np.array([0.3, 0.2, 0.8, 0.6])
V = np.array([0.5, -0.25, 1.0, 0.75])


def incomplete(x):
    return np.sum(sc.betainc(2.0, 3.0, x) * x) + np.sum(sc.gammainc(2.5, x + 0.5) ** 2) + \
        np.sum(sc.chdtr(3.0, x + 1.0)) + np.sum(sc.gdtr(x + 1.0, 2.0, x + 0.5) ** 2)


def student_and_f(x):
    return np.sum(sc.stdtr(3.0, x * 2 - 0.5) ** 2) + np.sum(sc.stdtrit(4.0, x * 0.5 + 0.2)) + \
        np.sum(sc.fdtr(2.0, 5.0, x + 0.1) * x)


def boxcox_lambda(x):
    return np.sum(sc.boxcox(x + 1.0, x[0] * 0.5) ** 2) + np.sum(sc.boxcox1p(x, 0.3 * x))


def zeta_x(x):            # (zeta_dx: the Euler-Maclaurin sum differentiated term by term)
    return np.sum(sc.zeta(x + 2.0) ** 2) + np.sum(sc.zeta(x * 1.5 + 1.5, 2.0) * x)


def multigammaln_a(x):    # (multigammaln_vjp: a sum of digammas)
    return np.sum(sc.multigammaln(x + 2.0, 3) * x) + sc.multigammaln(x[0] * 2 + 1.5, 2) ** 2


@pytest.mark.parametrize("f", [incomplete, student_and_f, boxcox_lambda, zeta_x,
                               multigammaln_a],
                         ids=["incomplete", "t_f", "boxcox", "zeta", "multigammaln"])
def test_distribution_slopes(f):
    check_routes(f, X, V)
    check_hessian(f, X)


# third order: logsumexp with moving weights b (logsumexp_jvp_b_jvp, its JVP term's
# tangent along b, differentiated from its source), grad of grad of grad against
# differences of grad of grad
def logsumexp_weighted(s):
    return sc.logsumexp(np.array([s, 0.5, -s]), b=np.array([1.0, s + 1.0, 2.0])) + \
        np.sum(sc.logsumexp(np.array([[s, 0.5], [s * s, 1.0]]), axis=1,
                            b=np.array([[s, 1.0], [2.0, s + 0.5]])) ** 2)


def test_logsumexp_weights_third_order():
    for s in (0.7, 1.3):
        assert_close(grad(grad(grad(logsumexp_weighted)))(s),
                     numerical_jvp(grad(grad(logsumexp_weighted)), [s], 0, 1.0), 1e-5, 1e-7,
                     "grad of grad of grad")


# scipy.signal.sosfilt: its tangent filtered_sos and cotangent sosfilt_vjp, each linear and
# the other's transpose (rules in runtime/rules/scipy_signal_extra.py); along an axis too
SOS = np.array([[0.2, 0.3, 0.1, 1.0, -0.4, 0.2]])


def sos_filtered(x):
    return np.sum(signal.sosfilt(SOS, x * x) ** 2) + \
        np.sum(signal.sosfilt(SOS, np.c_[x, np.sin(x)], axis=0) ** 3)


def test_sosfilt():
    check_routes(sos_filtered, X, V)
    check_hessian(sos_filtered, X)


# scipy.signal.lfilter: its tangent lfilter_jvp is lfilter itself (b and x linear, a by
# a * dy = -da * y), differentiated from its source over lfilter's rule; forward over
# reverse refuses at the user's line (lfilter_vjp has no tangent), auto falls back
def lfiltered(x):
    return np.sum(signal.lfilter([1.0, 0.5], [1.0, -0.2], x * x) ** 2) + \
        np.sum(signal.lfilter(x[:2] * 0.5, [1.0, -0.2 * x[2]], np.sin(x)) ** 2) + \
        np.sum(signal.lfilter([0.5, x[0]], np.r_[1.0, 0.3 * np.tanh(x[1:3])], x) ** 2)


def test_lfilter():
    check_routes(lfiltered, X, V, refused=("forward_over_reverse",))
    check_hessian(lfiltered, X)


# scipy.stats.dirichlet logpdf and pdf in x (on the simplex, through a softmax; all
# components or all but the last) and alpha: dirichlet_vjp and dirichlet_alpha_jvp,
# plain NumPy over psi, differentiated from their source
W = np.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.2])
VW = np.array([0.5, -0.25, 1.0, 0.75, -0.3, 0.2])


def dirichlet_terms(w):
    alpha, e = np.exp(w[:3]), np.exp(w[3:])
    x = e / np.sum(e)
    short = e[:2] / (np.sum(e[:2]) + 1.0)
    return stats.dirichlet.logpdf(x, alpha) + stats.dirichlet.pdf(x, alpha * 2.0) * w[0] + \
        stats.dirichlet.logpdf(short, alpha + 0.5) ** 2


def test_dirichlet():
    check_routes(dirichlet_terms, W, VW)


# scipy.linalg.logm: its tangent logm_vjp(t, A^T, ans) (the block identity logm([[A^T, G],
# [0, A^T]]), written with np.block) differentiated from its source over logm's rule; a
# nonsymmetric 2 x 2 matrix (logm is slow: small)
def logm_terms(x):
    A = np.array([[2.0, 0.3], [0.1, 1.5]]) + np.diag(x[:2]) * 0.5 + \
        np.array([[0.0, 1.0], [0.0, 0.0]]) * x[2] * 0.2 + x[3] * 0.1
    return np.sum(linalg.logm(A) ** 2) + np.trace(linalg.logm(A)) * x[1]


def test_logm():
    check_routes(logm_terms, X, V)
