"""red39's checks: red38's (grad, jvp, jacfwd, jacrev, hessian by both routes, hvp by
its three routes, grad of grad, grad by the plain lowering), each against central finite
differences in float64 (tests/fd.py never calls thunkgrad). Second-order checks compare
with differences of grad, itself first checked against differences of the function."""
from tests.red36.check import classify as classify_red36
from tests.red38.check import CHECKS


def classify(name, case, check):
    """red36's classification with red38's checks."""
    return classify_red36(name, case, check, CHECKS, "red39")
