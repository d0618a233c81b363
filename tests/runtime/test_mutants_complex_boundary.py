"""Behaviour the mutation run (tools/mutate.py, session 27) found unpinned in the complex
boundary of runtime/helpers.py and runtime/accumulate.py: a real value's cotangent is
real where a complex one reaches it (docs/complex.md, "The real -> complex boundary"),
a complex value's keeps its imaginary part, and accumulate_at adds every contribution.

The real part taken in unbroadcast is what keeps a rule of real output that forgets to
drop an imaginary part right: np.var/np.std did (tests/rules/test_complex_real_outputs.py),
so these pin the helper's own contract, not only whole programs."""
import numpy as np
import pytest

from runtime.accumulate import accumulate_at, real_for
from runtime.helpers import accumulate_unbroadcast, pow_exponent_vjp, unbroadcast
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import grad

G = np.array([1 + 2j, 3 - 1j])


def _is_real_array(v):
    return isinstance(v, np.ndarray) and v.dtype.kind == "f"


def test_unbroadcast_of_a_complex_cotangent_to_a_real_array_is_its_real_part():
    out = unbroadcast(G, np.zeros(2))
    assert _is_real_array(out) and np.array_equal(out, [1.0, 3.0])
    assert np.array_equal(unbroadcast(G, np.zeros(2, complex)), G)      # complex x: kept


def test_unbroadcast_of_a_complex_number_to_a_real_number_is_its_real_part():
    out = unbroadcast(1 + 2j, 0.5)
    assert not np.iscomplexobj(out) and out == 1.0
    assert unbroadcast(1 + 2j, 0.5j) == 1 + 2j
    assert unbroadcast(2.5, 0.5) == 2.5


def test_unbroadcast_after_summing_a_complex_cotangent_takes_the_real_part():
    out = unbroadcast(np.ones((3, 2)) * (1 + 1j), np.zeros(2))
    assert _is_real_array(out) and np.array_equal(out, [3.0, 3.0])
    assert np.array_equal(unbroadcast(np.ones((3, 2)) * (1 + 1j), np.zeros(2, complex)),
                          [3 + 3j, 3 + 3j])


def test_accumulate_unbroadcast_adds_the_real_part_into_a_real_buffer():
    buffer = np.array([10.0, 20.0])
    out = accumulate_unbroadcast(buffer, G, np.zeros(2))
    assert _is_real_array(out) and np.array_equal(out, [11.0, 23.0])
    out = accumulate_unbroadcast(np.zeros(2, complex), G, np.zeros(2, complex))
    assert np.array_equal(out, G)


def test_real_for_keeps_a_list_cotangent_whole():
    """A list may hold complex numbers; its cotangent is left as it came."""
    assert np.array_equal(real_for(G, [1j, 2.0]), G)
    assert np.array_equal(real_for(G, np.zeros(2)), [1.0, 3.0])
    assert real_for(None, np.zeros(2)) is None


def _times(xs, w):
    return xs * w                  # compiled not knowing xs is a list: product_or_repeat_vjp


def complex_list_times_array(a, b):
    zs = [a[0] * 1j + b[0], a[1] * (1 + 2j)]
    y = _times(zs, np.array([2.0, -1.5]))
    return np.sum(np.abs(y) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_list_of_complex_numbers_times_an_array(policy):
    """The list's cotangent keeps its imaginary part (it reaches b through a * 1j + b)."""
    a, b = np.array([0.3, -1.2]), np.array([0.7, 0.4])
    for wrt in (0, 1):
        assert_close(grad(complex_list_times_array, wrt=wrt, policy=policy)(a, b),
                     numerical_grad(complex_list_times_array, [a, b], wrt))


# ---- accumulate_at: an existing buffer ----------------------------------------------------
@pytest.mark.parametrize("index", [np.array([0, 0, 2]), [0, 0, 2]], ids=["array", "list"])
def test_accumulate_at_a_repeated_fancy_index_adds_both(index):
    buffer = np.ones(3)
    out = accumulate_at(buffer, np.zeros(3), index, np.array([1.0, 2.0, 4.0]))
    assert np.array_equal(out, [4.0, 1.0, 5.0])


def test_accumulate_at_a_complex_value_into_a_real_buffer():
    """For a real array its real part; for a complex array the buffer turns complex."""
    out = accumulate_at(np.ones(3), np.zeros(3), slice(0, 2), np.array([1 + 1j, 2j]))
    assert _is_real_array(out) and np.array_equal(out, [2.0, 1.0, 1.0])
    out = accumulate_at(np.ones(3), np.zeros(3, complex), slice(0, 2), np.array([1 + 1j, 2j]))
    assert np.array_equal(out, [2 + 1j, 1 + 2j, 1.0])


class _Buffer(np.ndarray):
    """Not exactly an ndarray: the fast paths (type checks) do not take it."""


def test_accumulate_at_never_replaces_an_existing_buffer():
    buffer = np.ones(3).view(_Buffer)
    out = accumulate_at(buffer, np.zeros(3), 1, np.array(2.0))
    assert np.array_equal(out, [1.0, 3.0, 1.0])


# ---- x ** y with a complex result: the exponent's slope g * ans * log(x) ----------------
def negated_base(a, p):
    w = (-(a + 0j)) ** p              # -(a + 0j) has imaginary part -0.0
    return np.sum(np.real(w) + 2 * np.imag(w))


@pytest.mark.parametrize("policy", POLICIES)
def test_power_of_a_base_with_a_negative_zero_imaginary_part(policy):
    """ans took log's branch at -0.0 (-i pi); the slope's log must take the same one (a
    base made complex by adding 0j turned -0.0 into +0.0: the slope's sign flipped)."""
    a, p = np.array([1.0, 2.0, 0.5]), np.array([0.5, 0.3, 1.7])
    for wrt in (0, 1):
        assert_close(grad(negated_base, wrt=wrt, policy=policy)(a, p),
                     numerical_grad(negated_base, [a, p], wrt))


def test_complex_power_at_a_zero_base_and_a_zero_exponent():
    """0 ** 0 == 1: the exponent's slope is taken as 0 at a zero base (log 1, not log 2),
    also for complex values; 0 ** y for y > 0 has slope 0, not nan (log 0)."""
    x, y = np.array([0j, 0j, 2j]), np.array([0.0, 1.5, 1.0])
    out = pow_exponent_vjp(np.ones(3), x ** y, x, y)
    assert_close(out, [0.0, 0.0, np.real(2j * np.log(2j))])


def test_accumulate_into_a_real_buffer_a_complex_contribution_makes_a_complex_sum():
    """The loop's hot path: NumPy refuses the in-place cast, so a fresh sum, never a
    dropped imaginary part (docs/complex.md: a complex value whose first cotangent was real)."""
    from runtime.accumulate import accumulate_into
    out = accumulate_into(np.array([1.0, 2.0]), G)
    assert np.array_equal(out, [2 + 2j, 5 - 1j])
