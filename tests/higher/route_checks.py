"""Second-derivative checks shared by the helper-route tests: hvp along a direction on
each route ("auto", "forward_over_reverse", "reverse_over_forward"), the hessian's
columns and grad of grad, each against central differences of grad (tests/fd.py)."""
import os

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import grad, hessian, hvp
from transform.errors import TransformError

ROUTES = ("auto", "forward_over_reverse", "reverse_over_forward")


def check_routes(f, x, v, refused=()):
    """hvp on every route matches differences; a route in `refused` raises a
    TransformError naming f's own file (the user's line, not thunkgrad's)."""
    want = numerical_jvp(grad(f), [x], 0, v)
    for route in ROUTES:
        if route in refused:
            with pytest.raises(TransformError, match=os.path.basename(f.__code__.co_filename)):
                hvp(f, (x,), (v,), route=route)
        else:
            assert_close(hvp(f, (x,), (v,), route=route), want, 1e-5, 1e-7, route)


def check_hessian(f, x):
    cols = [numerical_jvp(grad(f), [x], 0, e.reshape(x.shape)) for e in np.eye(x.size)]
    want = np.stack(cols, -1).reshape(x.shape + x.shape)
    assert_close(hessian(f)(x), want, 1e-5, 1e-7, "hessian")


def check_grad_of_grad(f, x):
    assert_close(grad(grad(f))(x), numerical_jvp(grad(f), [x], 0, 1.0), 1e-5, 1e-7,
                 "grad of grad")
