"""red36's checks: red35's (each API against central finite differences in float64,
tests/fd.py, which never calls thunkgrad), with hvp run by both routes explicitly."""
from tests.fd import numerical_jvp
from tests.forward.test_jvp import assert_tree_close
from tests.gradcheck import rng
from tests.red34.check import RTOL, ATOL, _checked_grad, _plain, tangent_like
from tests.red35.check import CHECKS as RED35_CHECKS
from transform import TransformError, hvp


def _check_route(route):
    def check(f, args, k, r):
        g = _checked_grad(f, args, k)
        v = tangent_like(r, args[k])
        got = hvp(f, tuple(args), (v,), wrt=k, route=route)
        want = numerical_jvp(lambda *a: _plain(g(*a)), args, k, v)
        assert_tree_close(_plain(got), want, RTOL, ATOL, f"hvp {route}")
    return check


CHECKS = dict(RED35_CHECKS)
CHECKS["hvp"] = _check_route("reverse_over_forward")
CHECKS["hvp_fr"] = _check_route("forward_over_reverse")


def classify(name, case, check, checks=None, team="red36"):
    """'pass', 'refused' (TransformError), 'wrong' (AssertionError) or 'crash: ...'
    (`checks`: a team's own table, CHECKS unless given)."""
    f, args, k, _ = case
    try:
        (checks or CHECKS)[check](f, list(args), k, rng(team, name, check))
    except TransformError as e:
        return f"refused: {str(e).splitlines()[0][:300]}"
    except AssertionError as e:
        return f"wrong: {str(e)[:300]}"
    except Exception as e:   # noqa: BLE001 -- the classification's point
        return f"crash: {type(e).__name__}: {str(e)[:300]}"
    return "pass"
