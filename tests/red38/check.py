"""red38's checks: red37's (each API against central finite differences in float64,
tests/fd.py, which never calls thunkgrad), plus grad by the second lowering
(lowering="plain") against differences of the plain function."""
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import rng
from tests.red34.check import RTOL, ATOL
from tests.red37.check import CHECKS as RED37_CHECKS
from transform import TransformError, grad


def check_grad_plain(f, args, k, r):
    got = grad(f, k, lowering="plain")(*args)
    assert_close(got, numerical_grad(f, args, k), RTOL, ATOL, "grad plain")


CHECKS = dict(RED37_CHECKS)
CHECKS["grad_plain"] = check_grad_plain


def classify(name, case, check):
    """'pass', 'refused: ...' (TransformError), 'wrong: ...' (AssertionError) or
    'crash: ...'."""
    f, args, k, _ = case
    try:
        CHECKS[check](f, list(args), k, rng("red38", name, check))
    except TransformError as e:
        return f"refused: {str(e).splitlines()[0][:300]}"
    except AssertionError as e:
        return f"wrong: {str(e)[:300]}"
    except Exception as e:   # noqa: BLE001 -- the classification's point
        return f"crash: {type(e).__name__}: {str(e)[:300]}"
    return "pass"
