"""jacfwd (issue 20): one jvp per entry of the differentiated arguments, shaped and
structured as jacrev's (out.shape + arg.shape; a tuple for a tuple wrt; the argument's
structure for a container; the output's outermost), and equal to it; both against a
finite-difference Jacobian on one function."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.forward import functions as F
from tests.forward.test_jvp import assert_tree_close
from tests.gradcheck import rng
from transform import TransformError, jacfwd, jacrev


def _args(name, r):
    return {
        "straight": (r.normal(size=(3, 3)), r.normal(size=3), 0.3),
        "looped": (r.normal(size=4), 0.7),
        "branched": (r.normal(size=3) + 1.0, r.normal(size=3)),
        "whiled": (r.normal(size=3),),
        "over_rows": (r.normal(size=(3, 2)),),
        "linalg": (r.normal(size=(3, 3)) + 3 * np.eye(3), r.normal(size=3)),
        "scalars": (1.3, 0.4),
        "matrix_out": (r.normal(size=3), r.normal(size=3)),
        "stores": (r.normal(size=3), r.normal(size=3)),
        "calls_layers": (r.normal(size=(3, 3)), r.normal(size=3)),
    }[name]


NAMES = ["straight", "looped", "branched", "whiled", "over_rows", "linalg", "scalars",
         "matrix_out", "stores", "calls_layers"]


@pytest.mark.parametrize("name", NAMES)
def test_jacfwd_equals_jacrev_every_argument(name):
    args = _args(name, rng("jacfwd", name))
    f = getattr(F, name)
    wrt = tuple(range(len(args)))
    forward = jacfwd(f, wrt=wrt)(*args)
    reverse = jacrev(f, wrt=wrt)(*args)
    assert isinstance(forward, tuple) and len(forward) == len(args)
    for k, (a, b) in enumerate(zip(forward, reverse)):
        assert np.shape(a) == np.shape(b) == np.shape(f(*args)) + np.shape(args[k])
        assert_close(a, b, rtol=1e-9, atol=1e-11, what=f"J wrt {k}")


def test_jacfwd_against_finite_differences():
    x = rng("jacfwd fd").normal(size=3)
    y = rng("jacfwd fd y").normal(size=3)
    jac = jacfwd(F.matrix_out)(x, y)
    for k in range(3):
        hot = np.zeros(3)
        hot[k] = 1.0
        assert_close(jac[..., k], numerical_jvp(F.matrix_out, (x, y), 0, hot))


def test_jacfwd_float_argument_scalar_output_is_a_float():
    d = jacfwd(F.scalars)(1.3, 0.4)
    assert isinstance(d, float)
    assert_close(d, jacrev(F.scalars)(1.3, 0.4), 1e-12, 0)


def test_jacfwd_containers_match_jacrev():
    r = rng("jacfwd containers")
    pair = (r.normal(size=(2, 2)), r.normal(size=2))
    params = {"w": r.normal(size=(2, 2)), "scale": 1.5}
    forward = jacfwd(F.containers, wrt=(0, 1))(pair, params)
    reverse = jacrev(F.containers, wrt=(0, 1))(pair, params)
    assert_tree_close(forward, reverse, 1e-9, 1e-11, "J")


def test_jacfwd_refuses_what_jvp_refuses():
    with pytest.raises(TransformError, match="forward mode"):
        jacfwd(F.calls_custom)(np.ones(3))


def test_jacfwd_refuses_argument_kinds_it_does_not_lay_out():
    with pytest.raises(TypeError, match="jacfwd takes floats"):
        jacfwd(F.record_argument)(F.Params(np.ones(3), 1.0), np.ones(3))
