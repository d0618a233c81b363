"""scipy.signal's convolve2d, correlate2d, oaconvolve, lfilter, sosfilt and detrend
(runtime/rules/scipy_signal_extra.py) against central differences, float32, and from
compiled code under every policy; what the rules do not cover is refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

ss = pytest.importorskip("scipy.signal")

from runtime import lookup, unthunk  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402

IMG, KER, KER_WIDE = rand(5, 6, seed=1), rand(2, 3, seed=2), rand(3, 2, seed=3)
X, X2 = rand(12, seed=4), rand(3, 10, seed=5)
B, A = np.array([0.3, -0.2, 0.1]), np.array([1.0, -0.5, 0.2])
A_SCALED = np.array([1.4, -0.3])
SOS = ss.butter(2, 0.3, output="sos")

CASES = [case(fn, IMG, k, mode) for fn in (ss.convolve2d, ss.correlate2d)
         for k in (KER, KER_WIDE) for mode in ("full", "same", "valid")]
CASES += [
    case(ss.oaconvolve, X, B), case(ss.oaconvolve, IMG, KER, "same"),
    case(ss.lfilter, B, A, X), case(ss.lfilter, B, A_SCALED, X2), case(ss.lfilter, B, A, X2, 0),
    case(ss.lfilter, B, 1.0, X, id="lfilter-fir"), case(ss.lfilter, B[:1], A, X[:2], id="short"),
    case(ss.detrend, X), case(ss.detrend, X2, 0), case(ss.detrend, X2, -1, "constant"),
    case(ss.detrend, X, -1, "linear", [4, 8], id="detrend-breakpoints"),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("x, axis", [(X, -1), (X2, 1), (X2.T, 0)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sosfilt_in_x(x, axis, dtype):
    """By hand: SciPy's sosfilt rejects a read-only sos, and checks.py freezes inputs."""
    x = x.astype(dtype)
    out, pullback = lookup(ss.sosfilt).rrule(SOS.copy(), x, axis)
    G = rand(*np.shape(out), seed=11).astype(out.dtype)
    cot = unthunk(pullback(G)[1])
    assert cot.shape == x.shape
    assert cot.dtype == dtype or out.dtype == np.float64     # SciPy's own upcast: as checks.py
    if dtype is np.float64:
        want = numerical_grad(lambda v: np.sum(G * ss.sosfilt(SOS.copy(), v, axis)), (x,), 0)
        assert_close(cot, want)


@pytest.mark.parametrize("fn, args, kwargs", [
    (ss.convolve2d, (IMG, KER), dict(boundary="wrap")),
    (ss.correlate2d, (IMG, KER), dict(fillvalue=1.0)),
    (ss.lfilter, (B, A, X), dict(zi=np.zeros(2)))])
def test_what_the_rules_do_not_cover_is_refused(fn, args, kwargs):
    out, pullback = lookup(fn).rrule(*args, **kwargs)
    out = out[0] if isinstance(out, tuple) else out
    with pytest.raises(NotImplementedError):
        unthunk(pullback(np.ones(np.shape(out)))[len(args) - 1])


def filtered_loss(x, b, a_tail):
    a = np.concatenate([np.ones(1), a_tail])
    smooth = ss.lfilter(b, a, x)
    blurred = ss.convolve2d(smooth.reshape(3, 4), np.ones((2, 2)) * b[0], "same")
    edges = ss.correlate2d(blurred, np.array([[1.0, -1.0]]), "valid")
    return np.sum(edges ** 2) + np.sum(ss.detrend(ss.sosfilt(SOS, x)) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_filtered_program(policy):
    check_grad(filtered_loss, [X, B, np.array([-0.4, 0.1])], policy=policy)
