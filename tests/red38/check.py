"""red38's checks: red37's (each API against central finite differences in float64,
tests/fd.py, which never calls thunkgrad), plus grad by the second lowering
(lowering="plain") against differences of the plain function."""
from tests.fd import assert_close, numerical_grad
from tests.red34.check import RTOL, ATOL
from tests.red36.check import classify as classify_red36
from tests.red37.check import CHECKS as RED37_CHECKS
from transform import grad


def check_grad_plain(f, args, k, r):
    got = grad(f, k, lowering="plain")(*args)
    assert_close(got, numerical_grad(f, args, k), RTOL, ATOL, "grad plain")


CHECKS = dict(RED37_CHECKS)
CHECKS["grad_plain"] = check_grad_plain



def classify(name, case, check):
    """red36's classification with red38's checks."""
    return classify_red36(name, case, check, CHECKS, "red38")
