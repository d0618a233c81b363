"""scipy.special rules against central differences: called directly, and from compiled
user code (axis, keepdims and b= for logsumexp; softmax and log_softmax with an axis)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

sc = pytest.importorskip("scipy.special")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.rules import scipy_programs as sp  # noqa: E402
from transform import grad  # noqa: E402

RNG = np.random.default_rng(7)
UNARY = [(sc.expit, 0.3), (sc.logit, 0.3), (sc.erf, 0.4), (sc.erfc, -0.4),
         (sc.erfinv, 0.35), (sc.erfcinv, 0.6), (sc.ndtr, 0.7), (sc.ndtri, 0.2),
         (sc.log_ndtr, -3.0), (sc.log_ndtr, 1.2), (sc.gamma, 2.5), (sc.gamma, -0.5),
         (sc.gammaln, 4.2), (sc.psi, 1.7), (sc.digamma, 0.4), (sc.entr, 0.3),
         (sc.i0, 1.3), (sc.i1, -0.8), (sc.i0e, 1.3), (sc.i0e, -2.1), (sc.i1e, 0.9),
         (sc.i1e, -1.6)]
BINARY = [(sc.beta, (1.5, 2.5)), (sc.betaln, (0.7, 3.1)), (sc.xlogy, (1.3, 2.2)),
          (sc.xlog1py, (0.6, 0.4)), (sc.rel_entr, (0.3, 0.5)), (sc.kl_div, (0.3, 0.5))]
ORDER_FIRST = [(sc.polygamma, (2, 1.3)), (sc.multigammaln, (3.2, 3)), (sc.jv, (1.5, 2.3)),
               (sc.yv, (0.5, 1.7)), (sc.iv, (2.0, 0.9)), (sc.ive, (1.0, -1.4)),
               (sc.zeta, (3.0, 1.6))]


def name(v):
    return getattr(v, "__name__", str(v))


@pytest.mark.parametrize("fn,x", UNARY, ids=name)
def test_unary(fn, x):
    assert_close(grad(fn)(x), numerical_grad(fn, (x,), 0), rtol=1e-6)


@pytest.mark.parametrize("fn,args", BINARY, ids=name)
@pytest.mark.parametrize("wrt", [0, 1])
def test_binary(fn, args, wrt):
    assert_close(grad(fn, wrt=wrt)(*args), numerical_grad(fn, args, wrt), rtol=1e-6)


@pytest.mark.parametrize("fn,args", ORDER_FIRST, ids=name)
def test_in_the_argument_not_the_order(fn, args):
    wrt = 0 if fn is sc.multigammaln else 1
    assert_close(grad(fn, wrt=wrt)(*args), numerical_grad(fn, args, wrt), rtol=1e-5)


def test_an_order_that_is_differentiated_is_refused():
    from transform import TransformError
    with pytest.raises((TransformError, TypeError)):
        grad(sc.jv, wrt=0)(1.5, 2.3)


PROGRAMS = [(sp.lse, (RNG.normal(size=5),)), (sp.lse_axis, (RNG.normal(size=(3, 4)),)),
            (sp.lse_keepdims, (RNG.normal(size=(3, 4)),)),
            (sp.lse_weighted, (RNG.normal(size=4), RNG.uniform(0.5, 2.0, size=4))),
            (sp.softmax_loss, (RNG.normal(size=(2, 5)),)),
            (sp.log_softmax_loss, (RNG.normal(size=(4, 3)),)),
            (sp.beta_binomial, (1.7, 2.4))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_user_programs(fn, args, policy):
    for wrt in range(len(args)):
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-5, atol=1e-8)


def test_a_classifier_with_log_softmax():
    W, X, y = RNG.normal(size=(4, 3)), RNG.normal(size=(6, 4)), np.array([0, 2, 1, 1, 0, 2])
    assert_close(grad(sp.classifier)(W, X, y), numerical_grad(sp.classifier, (W, X, y), 0))


REFUSED = [(sp.bessel_order_differentiated, 1.5, "jv"), (sp.unknown_ufunc, 0.3, "hyp2f1"),
           (sp.unknown_python_function, np.array([0.1, 0.2]), "logpdf"),
           (sp.unknown_module_function, np.eye(2), "signm"),
           (sp.frozen_distribution_held_in_a_local, np.array([0.1, 0.2]), "ppf")]


@pytest.mark.parametrize("fn,x,named", REFUSED, ids=lambda v: getattr(v, "__name__", ""))
def test_scipy_without_a_rule_is_refused_at_the_users_call(fn, x, named):
    """SciPy's own source is never compiled: the error names the function and points at
    the user's line, not at site-packages."""
    from transform import TransformError
    with pytest.raises(TransformError) as info:
        grad(fn)(x)
    assert named in info.value.message
    assert info.value.filename.endswith("scipy_programs.py")


@pytest.mark.parametrize("fn", [sp.constant_from_scipy, sp.constant_special_function])
def test_scipy_calls_no_differentiated_value_reaches_run_as_they_are(fn):
    x = np.array([0.1, 0.2])
    assert_close(grad(fn)(x), numerical_grad(fn, (x,), 0))
