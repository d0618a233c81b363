"""What red38 found, each against central finite differences or as the refusal it
must be."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp, numerical_tree_grad
from tests.red38 import programs_edge as E
from tests.red38 import programs_loops as L
from transform import TransformError, grad, hvp, jacfwd, jvp


def _scaled(x, c):
    y = np.piecewise(x, [x < 0.0, x >= 0.0], [lambda t: c * t ** 3, lambda t: np.sin(t)])
    return np.sum(y) * c


X = np.array([-1.7, -0.6, 0.3, 0.8])


@pytest.mark.parametrize("api", ["jvp", "jacfwd"])
def test_piecewise_closure_tangent_refused_at_user_line(api):
    """jvp through a piece reading a differentiated value by closure raised runtime's
    NoJvp (a NotImplementedError with an internal traceback): now a TransformError at
    the np.piecewise line."""
    with pytest.raises(TransformError, match="closure") as info:
        if api == "jvp":
            jvp(_scaled, (X, 0.7), (1.0,), wrt=1)
        else:
            jacfwd(_scaled, wrt=1)(X, 0.7)
    assert info.value.filename == __file__


def test_piecewise_closure_reverse_still_matches():
    """the same program's reverse mode (no forward rule needed) is unchanged."""
    assert_close(grad(_scaled, 1)(X, 0.7), numerical_grad(_scaled, [X, 0.7], 1))


def test_piecewise_closure_without_tangent_passes():
    """the closure's value carries no tangent along x: jvp works."""
    t = np.array([0.3, -0.2, 0.5, 0.1])
    _, got = jvp(_scaled, (X, 0.7), (t,), wrt=0)
    assert_close(got, numerical_jvp(_scaled, [X, 0.7], 0, t))


def _params(r):
    return E.Params(r.normal(size=3), 0.2), r.normal(size=(4, 3)), r.normal(size=4)


@pytest.mark.parametrize("api", ["grad", "hvp", "jvp"])
def test_dataclass_argument_reading_post_init_attribute_refused(api):
    """grad of a dataclass argument whose __post_init__ sets `s = exp(log_s)`, `s` read:
    dataclasses.replace raised a bare "unexpected keyword argument 's'" building the
    gradient (its part through __post_init__ would be lost): then jvp's TypeError, since
    session 38 a TransformError at the user's read of `p.s`."""
    p, X, y = _params(np.random.default_rng(38))
    with pytest.raises(TransformError, match=f"{api}: `p.s` is no field") as info:
        if api == "grad":
            grad(E.params_arg_loss)(p, X, y)
        elif api == "jvp":
            jvp(E.params_arg_loss, (p, X, y), (p,), wrt=0)
        else:
            hvp(E.params_arg_loss, (p, X, y), (p,))
    assert info.value.filename == E.__file__ and "/ p.s" in info.value.source_line


def test_dataclass_argument_post_init_attribute_unread_passes():
    p, X, y = _params(np.random.default_rng(38))
    got = grad(E.params_arg_fields_only)(p, X, y)
    want = numerical_tree_grad(E.params_arg_fields_only, [p, X, y], 0)
    assert_close(got.w, want[("w",)])
    assert_close(got.log_s, want[("log_s",)])
