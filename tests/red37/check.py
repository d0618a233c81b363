"""red37's checks: red36's (each API against central finite differences in float64,
tests/fd.py, which never calls thunkgrad), with hvp run by all three routes and
hessian by forward over reverse too."""
from tests.fd import assert_close
from tests.gradcheck import rng
from tests.red34.check import RTOL, ATOL, _checked_grad, _fd_jacobian
from tests.red36.check import CHECKS as RED36_CHECKS, _check_route
from transform import TransformError, hessian


def check_hessian_fr(f, args, k, r):
    g = _checked_grad(f, args, k)
    got = hessian(f, wrt=k, route="forward_over_reverse")(*args)
    assert_close(got, _fd_jacobian(g, args, k), RTOL, ATOL, "hessian fr")


CHECKS = dict(RED36_CHECKS)
CHECKS["hvp_auto"] = _check_route("auto")
CHECKS["hessian_fr"] = check_hessian_fr


def classify(name, case, check):
    """'pass', 'refused: ...' (TransformError), 'wrong: ...' (AssertionError) or
    'crash: ...'."""
    f, args, k, _ = case
    try:
        CHECKS[check](f, list(args), k, rng("red37", name, check))
    except TransformError as e:
        return f"refused: {str(e).splitlines()[0][:300]}"
    except AssertionError as e:
        return f"wrong: {str(e)[:300]}"
    except Exception as e:   # noqa: BLE001 -- the classification's point
        return f"crash: {type(e).__name__}: {str(e)[:300]}"
    return "pass"
