"""SciPy's overwrite_a=/overwrite_b= let it use an argument as scratch space, which the
backward sweep reads after the call: refused (a silent wrong gradient before)."""
import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

from transform import grad  # noqa: E402
from transform.errors import TransformError  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402

B = np.array([1.0, -2.0, 0.5])
A0 = np.asfortranarray([[4.0, 1.0, 0.5], [2.0, 5.0, 1.0], [0.3, 1.0, 3.0]])


def solve_overwriting_argument(a):
    return np.sum(sla.solve(a, B, overwrite_a=True) ** 2)


def solve_overwriting_local(a):
    m = np.asfortranarray(a @ a.T + 4.0 * np.eye(3))
    return np.sum(sla.solve(m, B, overwrite_a=True, assume_a="pos") ** 2)


def solve_overwriting_b(a):
    b = B * 1.0
    y = sla.solve(a, b, overwrite_b=True)
    return np.sum(y ** 2) + np.sum(b * a[0])


def cholesky_overwriting(a):
    m = a @ a.T + 4.0 * np.eye(3)
    return np.sum(sla.cholesky(m, overwrite_a=True))


def solve_not_overwriting(a):
    return np.sum(sla.solve(a, B, overwrite_a=False, overwrite_b=False) ** 2)


@pytest.mark.parametrize("fn", [solve_overwriting_argument, solve_overwriting_local,
                                solve_overwriting_b, cholesky_overwriting])
def test_overwrite_is_refused_at_the_call(fn):
    with pytest.raises(TransformError) as info:
        grad(fn)(A0.copy(order="F"))
    text = str(info.value)
    assert "test_scipy_overwrite.py:" in text and "overwrite_" in text
    assert "Instead:" in text


def test_overwrite_false_is_differentiated():
    assert_close(grad(solve_not_overwriting)(A0.copy(order="F")),
                 numerical_grad(solve_not_overwriting, (A0.copy(order="F"),), 0))
