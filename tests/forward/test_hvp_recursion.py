"""hvp's route "auto" and recursive calls (transform/hvp_recursion.py): forward over
reverse refuses calls nested deeper than 40 only as they run, so auto takes reverse
over forward, before anything runs, for a function reaching a cycle of calls (session 38,
autofix). H v against central finite differences of grad (tests/fd.py, float64)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import TransformError, checkpointed, grad, hvp
from transform.hessians import hvp_source
from transform.hvp_recursion import refuse_run_time_callees


def unroll(x, n):
    return x if n == 0 else np.cos(unroll(x, n - 1)) * 0.5 + 0.25 * x


def deep(x, n):
    return np.sum(unroll(x, n) ** 2)


def even(x, n):
    return x if n == 0 else np.sin(odd(x, n - 1))


def odd(x, n):
    return x * x if n == 0 else even(x, n - 1) * 0.5 + x


def mutual(x, n):
    return np.sum(even(x, n))


def helper(x):
    return np.sin(x) * x


def plain_calls(x):
    return np.sum(helper(x) + helper(2.0 * x))


def _check(fn, n, route=None):
    x, v = np.array([0.3, -0.4, 0.8]), np.array([0.5, 1.0, -0.7])
    got = hvp(fn, (x, n), (v,), route=route) if route else hvp(fn, (x, n), (v,))
    assert_close(got, numerical_jvp(grad(fn), (x, n), 0, v), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", [deep, mutual], ids=lambda f: f.__name__)
def test_auto_takes_recursion_deeper_than_forward_over_reverse(fn):
    _check(fn, 60)
    with pytest.raises(TransformError, match="nested deeper than 40"):
        hvp(fn, (np.array([0.3, 0.1]), 60), (np.ones(2),), route="forward_over_reverse")


def test_forward_over_reverse_still_takes_shallow_recursion():
    _check(deep, 5, route="forward_over_reverse")


def test_a_cycle_is_found_before_anything_runs():
    with pytest.raises(TransformError, match=r"recursive calls \(even -> odd -> even\)"):
        refuse_run_time_callees(mutual)
    refuse_run_time_callees(plain_calls)                  # no cycle: nothing raised
    assert "route auto takes reverse over forward for deep: forward over reverse refuses " \
        "it" in hvp_source(deep).splitlines()[0]


def stepped(x, n):
    for _ in checkpointed(range(n), 2):
        x = np.sin(x) * 0.9 + 0.1 * x
    return x


def checkpointed_helper(x):
    return np.sum(stepped(x, 4) ** 2)


def test_a_helper_with_a_checkpointed_loop_takes_reverse_over_forward():
    """Forward over reverse refuses the helper's checkpointed loop only once the helper's
    flat gradient is built, as the code runs; auto finds it before anything runs."""
    x, v = np.array([0.3, -0.4, 0.8]), np.array([0.5, 1.0, -0.7])
    with pytest.raises(TransformError, match="checkpointed"):
        hvp(checkpointed_helper, (x,), (v,), route="forward_over_reverse")
    with pytest.raises(TransformError, match="stepped calls checkpointed"):
        refuse_run_time_callees(checkpointed_helper)
    assert_close(hvp(checkpointed_helper, (x,), (v,)),
                 numerical_jvp(grad(checkpointed_helper), (x,), 0, v), rtol=1e-5, atol=1e-6)
