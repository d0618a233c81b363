"""A `**options` parameter given a differentiated entry in place (`options["w"] = x * 2`):
forward mode's tangent of it was never made (UnboundLocalError in the generated code;
hvp an IndexError), since only named parameters got their zero tangent (session 40)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import grad, hvp, jvp

X, V = np.array([0.3, 0.7]), np.array([1.0, 0.5])


def _stored(x, **options):
    options["w"] = x * options.get("s", 1.0)
    return options["w"] * x


def _looped(x, **options):
    for k in ("a", "b"):
        options[k] = x * 2.0
    return options["a"] * options["b"] * options["s"]


def stored(x):
    return np.sum(_stored(x, s=3.0)) + np.sum(_stored(x))


def looped(x):
    return np.sum(_looped(x, s=2.0))


@pytest.mark.parametrize("f", [stored, looped])
def test_tangent_and_hvp_against_differences(f):
    want = numerical_jvp(f, (X,), 0, V)
    assert np.all(want != 0)
    assert_close(jvp(f, (X,), (V,))[1], want)
    assert_close(grad(f)(X), numerical_grad(f, [X], 0))
    for route in ("forward_over_reverse", "reverse_over_forward"):
        assert_close(hvp(f, (X,), (V,), route=route), numerical_jvp(grad(f), (X,), 0, V),
                     1e-5, 1e-7, route)
