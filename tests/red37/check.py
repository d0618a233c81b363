"""red37's checks: red36's (each API against central finite differences in float64,
tests/fd.py, which never calls thunkgrad), with hvp run by all three routes and
hessian by forward over reverse too."""
from tests.fd import assert_close
from tests.red34.check import RTOL, ATOL, _checked_grad, _fd_jacobian
from tests.red36.check import CHECKS as RED36_CHECKS, _check_route
from tests.red36.check import classify as classify_red36
from transform import hessian


def check_hessian_fr(f, args, k, r):
    g = _checked_grad(f, args, k)
    got = hessian(f, wrt=k, route="forward_over_reverse")(*args)
    assert_close(got, _fd_jacobian(g, args, k), RTOL, ATOL, "hessian fr")


CHECKS = dict(RED36_CHECKS)
CHECKS["hvp_auto"] = _check_route("auto")
CHECKS["hessian_fr"] = check_hessian_fr


def classify(name, case, check):
    """red36's classification with red37's checks."""
    return classify_red36(name, case, check, CHECKS, "red37")
