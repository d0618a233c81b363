"""scipy.linalg.expm of a stack of matrices (sl.expm accepts (..., n, n))."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

from transform import grad  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.gradcheck import POLICIES  # noqa: E402


def loss(a):
    return np.sum(sl.expm(a) * np.arange(a.size).reshape(a.shape))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (2, 1, 2, 2)])
def test_expm_gradient_of_a_stack(shape, policy):
    a = np.random.default_rng(7).normal(size=shape) * 0.5
    got = grad(loss, policy=policy)(a)
    assert_close(got, numerical_grad(loss, (a,), 0), rtol=1e-6, atol=1e-8)


def test_expm_float32_keeps_float32():
    a = (np.eye(3) * 0.3 + 0.1).astype(np.float32)
    assert grad(loss)(a).dtype == np.float32
