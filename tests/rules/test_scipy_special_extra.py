"""scipy.special's elementary and Bessel-type functions (runtime/rules/scipy_special_extra.py)
against central differences in every differentiated argument, float32, and from compiled
code under every policy; an order, or incomplete gamma's a, that is differentiated is
refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

sc = pytest.importorskip("scipy.special")

A, B = rand(2, 3, seed=1), rand(2, 3, seed=2)
POS, POS2 = rand(2, 3, seed=3, low=0.5, high=2.0), rand(2, 3, seed=4, low=0.3, high=1.5)
U01 = rand(2, 3, seed=5, low=0.1, high=0.9)
# residuals on both sides of the Huber threshold 0.5, none near it
R = np.array([[-0.9, -0.2, 0.1], [0.35, 0.7, 1.4]])

CASES = [
    case(sc.log_expit, A), case(sc.loggamma, POS), case(sc.rgamma, POS),
    case(sc.poch, POS, POS2), case(sc.expm1, A), case(sc.log1p, U01), case(sc.exp2, A),
    case(sc.exp10, A), case(sc.cbrt, POS), case(sc.cosm1, A), case(sc.sindg, 90 * A),
    case(sc.cosdg, 90 * A), case(sc.erfcx, A), case(sc.erfi, A), case(sc.dawsn, 2 * A),
    case(sc.owens_t, A, B), case(sc.owens_t, A, 0.7, id="owens_t-broadcast"),
    case(sc.j0, 3 * POS), case(sc.j1, 3 * POS), case(sc.y0, POS), case(sc.y1, POS),
    case(sc.k0, POS), case(sc.k1, POS), case(sc.k0e, POS), case(sc.k1e, POS),
    case(sc.expi, POS), case(sc.expi, -POS, id="expi-negative"), case(sc.exp1, POS),
    case(sc.spence, POS), case(sc.ellipk, U01), case(sc.ellipe, U01), case(sc.wrightomega, A),
    case(sc.boxcox, POS, 0.7), case(sc.boxcox, POS, A), case(sc.boxcox, POS, 0.0, id="boxcox-log"),
    case(sc.boxcox, POS, 3e-5, id="boxcox-near-0"), case(sc.boxcox1p, U01, -0.4),
    case(sc.huber, 0.5, R), case(sc.huber, U01, R, id="huber-arrays"),
    case(sc.pseudo_huber, 0.8, R), case(sc.pseudo_huber, U01, R, id="pseudo_huber-arrays"),
    case(sc.ndtri_exp, -POS),
]
if hasattr(sc, "softplus"):                                              # SciPy 1.15+
    CASES.append(case(sc.softplus, 3 * A))
# (function, (order or shape parameter, x)): differentiated in x only
IN_X = [(sc.kv, (1.5, POS)), (sc.kv, (np.array([0.5, 2.0, 3.5]), POS)), (sc.kve, (2.5, POS)),
        (sc.yn, (2, POS + 1)), (sc.kn, (1, POS)), (sc.expn, (2, POS)),
        (sc.gammainc, (2.5, POS)), (sc.gammaincc, (POS2, POS)), (sc.betainc, (2.0, 3.0, U01)),
        (sc.chdtr, (3.5, POS)), (sc.chdtrc, (2.0, POS)), (sc.gdtrc, (1.5, 2.5, POS)),
        (sc.pdtr, (3, 2 * POS)), (sc.pdtrc, (np.array([1, 2, 4]), POS)), (sc.bdtr, (3, 8, U01)),
        (sc.stdtr, (3.5, 2 * A)), (sc.stdtrit, (4.0, U01)), (sc.fdtr, (3.0, 5.0, POS)),
        (sc.fdtrc, (2.5, 4.0, POS))]
IN_X += [(sc.jvp, (1.5, 3 * POS)), (sc.yvp, (0.5, POS)), (sc.ivp, (2.0, A)),
         (sc.kvp, (1.0, POS)), (sc.hyp1f1, (1.5, 2.5, A)), (sc.hyp0f1, (1.7, A)),
         (sc.hyperu, (1.5, 2.5, POS)), (sc.eval_legendre, (3, 0.9 * A)),
         (sc.eval_legendre, (np.array([0, 1, 4]), 0.9 * A)), (sc.eval_chebyt, (4, 0.9 * A)),
         (sc.eval_chebyt, (np.array([0, 2, 5]), 0.9 * A)), (sc.eval_chebyu, (3, 0.9 * A)),
         (sc.eval_hermite, (np.array([0, 1, 3]), A)), (sc.eval_hermitenorm, (4, A)),
         (sc.eval_laguerre, (np.array([0, 2, 3]), POS)), (sc.eval_genlaguerre, (3, 0.5, POS)),
         (sc.eval_gegenbauer, (np.array([0, 2, 4]), 1.5, 0.9 * A)),
         (sc.eval_jacobi, (3, 0.5, 1.5, 0.9 * A))]
# gdtr(a, b, x): in its rate a and in x, not in b
GDTR = [(sc.gdtr, (POS2, 2.5, POS)), (sc.gdtr, (1.3, 1.5, POS))]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("fn, args", IN_X, ids=lambda v: getattr(v, "__name__", ""))
def test_in_x_only(fn, args):
    check_rule(fn, args, argnums=[len(args) - 1])
    check_float32(fn, args, argnums=[len(args) - 1])


@pytest.mark.parametrize("fn, args", GDTR, ids=lambda v: getattr(v, "__name__", ""))
def test_gdtr_in_rate_and_x(fn, args):
    check_rule(fn, args, argnums=[0, 2])
    check_float32(fn, args, argnums=[0, 2])


def boxcox_lambda_slope_near_zero(lmbda):
    return np.sum(sc.boxcox(POS, lmbda))


@pytest.mark.parametrize("lmbda", [0.0, 1e-6, -2e-5, 1e-3, 0.4])
def test_boxcox_slope_in_lambda_across_zero(lmbda):
    """The exact quotient cancels near lambda = 0, where the series takes over."""
    check_grad(boxcox_lambda_slope_near_zero, [lmbda])


def features(x, w):
    smooth = sc.softplus(x * w[0]) if hasattr(sc, "softplus") else sc.log1p(np.exp(x * w[0]))
    decay = sc.k0e(np.abs(x) + 0.5) * sc.gammainc(2.5, np.abs(w) + 0.1)
    loss = sc.huber(0.5, x - w[1]) + sc.pseudo_huber(w[2] ** 2 + 0.5, x)
    return np.sum(smooth * decay + loss) + np.sum(sc.log_expit(x) * sc.erfcx(w))


@pytest.mark.parametrize("policy", POLICIES)
def test_features_program(policy):
    check_grad(features, [rand(3, seed=6), rand(3, seed=7)], policy=policy)


def incomplete_in_a(a):
    return sc.gammainc(a, 1.5)


def bessel_in_order(v):
    return sc.kv(v, 1.5)


@pytest.mark.parametrize("fn, named", [(incomplete_in_a, "gammainc"), (bessel_in_order, "kv")])
def test_a_differentiated_shape_parameter_is_refused(fn, named):
    from transform import TransformError, grad
    with pytest.raises(TransformError, match=named):
        grad(fn)(2.5)
