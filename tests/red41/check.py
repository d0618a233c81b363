"""red41's checks: red40's (tests/red40/check.py: grad, value_and_grad, vjp, jvp, jacfwd,
jacrev, hessian by both routes, hvp by its three routes, jacfwd/jacrev of grad, grad of
grad (and grad^3), grad by the plain lowering), each against central finite differences
in float64 (tests/fd.py never calls thunkgrad)."""
from tests.red36.check import classify as classify_red36
from tests.red40.check import CHECKS


def classify(name, case, check):
    """red36's classification with red40's checks, red41's random streams."""
    return classify_red36(name, case, check, CHECKS, "red41")
