"""scipy.signal convolve/correlate/fftconvolve against central differences: both inputs,
modes full/same/valid, 1-D to 3-D, either input the larger, odd and even sizes; float32;
user programs; fftconvolve with axes refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

ss = pytest.importorskip("scipy.signal")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.rules.checks import check_float32, check_rule, rand  # noqa: E402
from transform import grad  # noqa: E402

SHAPES = [((5,), (3,)), ((3,), (5,)), ((6,), (4,)), ((4,), (6,)), ((1,), (4,)),
          ((4, 5), (2, 3)), ((2, 3), (4, 5)), ((4, 5), (4, 5)), ((3, 4, 2), (2, 2, 2))]
FUNCTIONS = [ss.convolve, ss.correlate, ss.fftconvolve]


def cases():
    for a_shape, b_shape in SHAPES:
        larger = all(x >= y for x, y in zip(a_shape, b_shape)) or \
            all(x <= y for x, y in zip(a_shape, b_shape))
        for mode in ("full", "same", "valid") if larger else ("full", "same"):
            for fn in FUNCTIONS:
                yield pytest.param(fn, a_shape, b_shape, mode,
                                   id=f"{fn.__name__}-{a_shape}-{b_shape}-{mode}")


@pytest.mark.parametrize("fn,a_shape,b_shape,mode", list(cases()))
def test_both_inputs(fn, a_shape, b_shape, mode):
    check_rule(fn, [rand(*a_shape, seed=1), rand(*b_shape, seed=2)], {"mode": mode})


@pytest.mark.parametrize("method", ["direct", "fft"])
@pytest.mark.parametrize("fn", [ss.convolve, ss.correlate])
def test_the_method_does_not_change_the_cotangent(fn, method):
    check_rule(fn, [rand(7, seed=3), rand(3, seed=4)], {"mode": "same", "method": method})


@pytest.mark.parametrize("fn", FUNCTIONS)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_float32(fn, mode):
    check_float32(fn, [rand(6, 5, seed=5), rand(3, 2, seed=6)], {"mode": mode})


def smooth(x, kernel):
    return np.sum(ss.convolve(np.sin(x), kernel, mode="same") ** 2)


def matched_filter(x, template):
    return np.max(ss.correlate(x, template, mode="valid"))


def image_filter(img, k):
    return np.sum(np.tanh(ss.fftconvolve(img, k, mode="valid")))


PROGRAMS = [(smooth, (rand(9, seed=7), rand(4, seed=8))),
            (matched_filter, (rand(10, seed=9), rand(3, seed=10))),
            (image_filter, (rand(6, 7, seed=11), rand(3, 3, seed=12)))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_user_programs(fn, args, policy):
    for wrt in (0, 1):
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-6, atol=1e-9)


def along_one_axis(x, k):
    return np.sum(ss.fftconvolve(x, k, axes=1) ** 2)


def test_fftconvolve_along_chosen_axes_is_refused():
    with pytest.raises(TypeError, match="axes=None"):
        grad(along_one_axis)(rand(3, 5, seed=13), rand(1, 2, seed=14))
