"""red40's checks: red38's (grad, value_and_grad, jvp, jacfwd, jacrev, hessian by both
routes, hvp by its three routes, jacfwd/jacrev of grad, grad of grad, grad by the plain
lowering) and vjp with a random cotangent, each against central finite differences in
float64 (tests/fd.py never calls thunkgrad). Second-order checks compare with
differences of grad, itself first checked against differences of the function."""
import numpy as np

from tests.fd import assert_close, numerical_grad
from tests.red34.check import RTOL, ATOL
from tests.red36.check import classify as classify_red36
from tests.red38.check import CHECKS as RED38_CHECKS
from transform import vjp


def check_vjp(f, args, k, r):
    """vjp's pullback of a random cotangent: the gradient of <c, f> by differences."""
    out, pullback = vjp(f, *args, wrt=k)
    c = r.normal(size=np.shape(out))
    assert_close(out, f(*args), 1e-12, 1e-12, "vjp value")
    want = numerical_grad(lambda *a: np.sum(c * np.asarray(f(*a))), args, k)
    (got,) = pullback(c if np.ndim(out) else float(c))     # one per differentiated arg
    assert_close(got, want, RTOL, ATOL, "vjp")


CHECKS = dict(RED38_CHECKS)
CHECKS["vjp"] = check_vjp


def classify(name, case, check):
    """red36's classification with red40's checks."""
    return classify_red36(name, case, check, CHECKS, "red40")
