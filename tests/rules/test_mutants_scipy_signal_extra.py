"""Mutants of scipy_signal_extra.py (mutF, session 29): the refusals the rules' own tests
did not reach. sosfilt with zi= (initial conditions: a second output and a state the rule
does not follow) and oaconvolve with axes= (along those axes only; along the others the arrays
multiply entry by entry, unlike the full convolution the rule knows) are refused when the rule runs,
never differentiated as if zi/axes were absent."""
import numpy as np
import pytest

ss = pytest.importorskip("scipy.signal")

from runtime import lookup, unthunk  # noqa: E402
from tests.rules.checks import rand  # noqa: E402

SOS = ss.butter(2, 0.3, output="sos")
X = rand(12, seed=4)
IMG = rand(5, 6, seed=1)


def _refused(fn, args, kwargs, operand):
    out, pullback = lookup(fn).rrule(*args, **kwargs)
    out = out[0] if isinstance(out, tuple) else out
    with pytest.raises(NotImplementedError):
        unthunk(pullback(np.ones(np.shape(out)))[operand])


def test_sosfilt_with_initial_conditions_is_refused():
    zi = np.zeros((SOS.shape[0], 2))
    _refused(ss.sosfilt, (SOS.copy(), X), dict(zi=zi), 1)


@pytest.mark.parametrize("operand", [0, 1])
@pytest.mark.parametrize("axes, kernel", [(0, rand(2, 6, seed=2)), ((0, 1), rand(2, 3, seed=3)),
                                          ([1], rand(1, 3, seed=5))])
def test_oaconvolve_along_given_axes_is_refused(axes, kernel, operand):
    _refused(ss.oaconvolve, (IMG, kernel), dict(axes=axes), operand)
