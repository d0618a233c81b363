"""A mutant of runtime/rules/operators.py (session 29, mutG): repeat_sequence's rule
(`[a, b] * n` and `[a, b] * w` where the source shows the list display) declared not
complex_ok refused complex entries, which its templates handle (they only place or
multiply cotangents). A list display of complex numbers built from real inputs, times
an array and repeated, against central differences under every policy."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import grad


def display_times_array(a, b):
    y = [a[0] * 1j + b[0], a[1] * (1 + 2j)] * np.array([2.0, -1.5])
    return np.sum(np.abs(y) ** 2)


def display_repeated(a, b):
    zs = [a[0] * 1j + b[0], a[1] * (1 + 2j)] * 2
    return np.sum(np.abs(np.array(zs) * np.arange(1.0, 5.0)) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [display_times_array, display_repeated])
def test_list_display_of_complex_entries(fn, policy):
    a, b = np.array([0.3, -1.2]), np.array([0.7, 0.4])
    for wrt in (0, 1):
        assert_close(grad(fn, wrt=wrt, policy=policy)(a, b), numerical_grad(fn, [a, b], wrt))
