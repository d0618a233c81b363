"""Forward mode through custom (rrule) rules that declare a JVP (session 33): LINEAR
(the call with each tangent in its argument's place, summed), JOINT (one call of the
tangents, zeros for the rest) and a function of (tangents, *args); np.einsum, np.meshgrid
and np.broadcast_arrays declare theirs. Tangents against central differences
(tests/fd.py) for every argument; a differentiated keyword argument is refused."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.forward import custom_functions as C
from tests.gradcheck import rng
from transform import TransformError, hvp, jvp

R = rng("custom_forward")
CASES = [(C.uses_scaled, (R.normal(size=3), R.normal(size=3))),
         (C.uses_mixed, (R.normal(size=3), R.normal(size=3))),
         (C.uses_cube, (R.normal(size=3), R.normal(size=3))),
         (C.uses_heavy, (R.normal(size=3), R.normal(size=3))),
         (C.uses_einsum, (R.normal(size=(2, 3)), R.normal(size=(3, 4)))),
         (C.uses_meshgrid, (R.normal(size=3), R.normal(size=2))),
         (C.uses_broadcast_arrays, (R.normal(size=(2, 1)), R.normal(size=3)))]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
@pytest.mark.parametrize("wrt", [0, 1, (0, 1)])
def test_tangent_against_differences(fn, args, wrt):
    ks = wrt if isinstance(wrt, tuple) else (wrt,)
    tangents = tuple(R.normal(size=np.shape(args[k])) for k in ks)
    _, got = jvp(fn, args, tangents, wrt=wrt)
    want = sum(numerical_jvp(fn, list(args), k, t) for k, t in zip(ks, tangents))
    assert_close(got, want, rtol=1e-6, atol=1e-9)


def test_hvp_through_a_linear_custom_rule():
    x, w, v = R.normal(size=3), R.normal(size=3), R.normal(size=3)
    got = hvp(C.uses_scaled, (x, w), (v,), wrt=0)
    # f = sum(sin(x w)): H v = -sin(x w) w^2 v
    assert_close(got, -np.sin(x * w) * w ** 2 * v, rtol=1e-8)


@pytest.mark.parametrize("route", ["forward_over_reverse", "reverse_over_forward"])
def test_hvp_through_a_lambda_declared_jvp(route):
    x, y, v = R.normal(size=3), R.normal(size=3), R.normal(size=3)
    got = hvp(C.uses_heavy, (x, y), (v,), wrt=1, route=route)
    want = numerical_jvp(lambda y: numerical_grad(C.uses_heavy, (x, y), 1), [y], 0, v,
                         eps=1e-4)
    assert_close(got, want, rtol=1e-5, atol=1e-6)


def test_a_differentiated_keyword_argument_is_refused():
    with pytest.raises(TransformError, match="has no derivative rule for it") as info:
        jvp(C.by_keyword, (np.ones(2), np.ones(2)), (np.ones(2),), wrt=1)
    assert "scaled(x, w=w)" in info.value.source_line
