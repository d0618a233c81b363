"""Mutation survivors of runtime/rules/scipy_signal.py pinned by behaviour: convolve's
cotangent is a direct sum, exact on integer-valued data (as the forward direct
convolution is), and equal to the analytic correlation of g with the other input."""
import numpy as np
import pytest

pytest.importorskip("scipy")
import scipy.signal as ss  # noqa: E402

import runtime  # noqa: E402

A = np.array([3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, -6.0, 5.0, 3.0, -5.0, 8.0])
B = np.array([2.0, 7.0, -1.0, 8.0, 2.0, -8.0, 1.0])


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_cotangents_are_exact_on_integer_data(mode):
    """d/da <g, convolve(a, b)> = correlate(g_full, b, 'valid'), computed here by plain
    loops over integers: the rule's direct convolution must match it exactly."""
    out, pullback = runtime.lookup(ss.convolve).rrule(A, B, mode)
    g = np.arange(1.0, out.size + 1) * np.where(np.arange(out.size) % 2, -1, 1) * 3.0
    ga, gb = (runtime.unthunk(c) for c in pullback(g)[:2])
    start = {"full": 0, "same": (B.size - 1) // 2, "valid": B.size - 1}[mode]
    want_a, want_b = np.zeros_like(A), np.zeros_like(B)
    for k, gk in enumerate(g):                 # out[k] = sum_i a[i] b[start + k - i]
        for i in range(A.size):
            j = start + k - i
            if 0 <= j < B.size:
                want_a[i] += gk * B[j]
                want_b[j] += gk * A[i]
    assert np.array_equal(ga, want_a) and np.array_equal(gb, want_b)
