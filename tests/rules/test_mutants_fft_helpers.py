"""Behaviour the mutation run (docs/testing.md, mut27r) found unpinned in
runtime/rules/fft_helpers.py: rfftn/irfftn over one axis and over three, a real list
given to a transform (its cotangent is real), and NumPy-integer axes and lengths taped
in a loop (the helpers' `shape_only` positions: only the input is read for its shape)."""
import numpy as np
import pytest

import runtime
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, rng
from tests.rules.checks import rand
from tests.rules.complex_checks import check_complex_rule
from transform import grad

fft = np.fft
T234 = rand(2, 3, 4, seed=11)


def cplx(x, seed=12):
    return x + 1j * rand(*x.shape, seed=seed)


ONE_OR_THREE = [dict(axes=None), dict(axes=(1,)), dict(axes=(2, 0, 1)),
                dict(s=(5,), axes=(1,)), dict(s=(3, 2, 6), axes=(0, 1, 2))]


@pytest.mark.parametrize("kwargs", ONE_OR_THREE, ids=str)
def test_rfftn_over_one_or_three_axes(kwargs):
    check_complex_rule(fft.rfftn, [T234], kwargs)


@pytest.mark.parametrize("kwargs", ONE_OR_THREE, ids=str)
def test_irfftn_over_one_or_three_axes(kwargs):
    check_complex_rule(fft.irfftn, [cplx(T234)], kwargs)


@pytest.mark.parametrize("fn", [fft.fft, fft.ifft, fft.rfft, fft.ihfft])
def test_a_real_list_gets_a_real_cotangent(fn):
    values = [0.3, -1.2, 2.0, 0.7]
    out, pullback = runtime.lookup(fn).rrule(values)
    ct = runtime.unthunk(pullback(np.ones_like(out) * (1 + 2j))[0])
    assert not np.iscomplexobj(ct)
    check_complex_rule(fn, [np.array(values)])


# One helper per program: a value read by two helpers is taped whole if either needs it.
def fft_along_a_numpy_axis(x):
    s, ax = 0.0, np.int64(0)        # ax is overwritten: the backward sweep reads it off the tape
    for k in range(2):
        s = s + np.sum(np.abs(np.fft.fft(np.sin(x), axis=ax)) ** 2)
        ax = ax + 1
    return s


def ifft_along_a_numpy_axis(x):
    s, ax = 0.0, np.int64(0)
    for k in range(2):
        s = s + np.sum(np.abs(np.fft.ifft(np.cos(x), axis=ax)) ** 2)
        ax = ax + 1
    return s


def rfft_of_numpy_lengths(x):
    s, n = 0.0, np.int64(3)
    for k in range(2):
        s = s + np.sum(np.abs(np.fft.rfft(np.sin(x), n=n)) ** 2)
        n = n + 2
    return s


def ihfft_of_numpy_lengths(x):
    s, n = 0.0, np.int64(3)
    for k in range(2):
        s = s + np.sum(np.abs(np.fft.ihfft(np.sin(x), n=n)) ** 2)
        n = n + 2
    return s


def irfft_along_a_numpy_axis(x):
    s, ax = 0.0, np.int64(0)
    for k in range(2):
        s = s + np.sum(np.fft.irfft(np.fft.fft(np.sin(x)), axis=ax) ** 2)
        ax = ax + 1
    return s


def hfft_along_a_numpy_axis(x):
    s, ax = 0.0, np.int64(0)
    for k in range(2):
        s = s + np.sum(np.fft.hfft(np.fft.fft(np.sin(x)), axis=ax) ** 2)
        ax = ax + 1
    return s


def fftn_of_numpy_shapes(x):
    s, shape = 0.0, np.array([2, 3])
    for k in range(2):
        s = s + np.sum(np.abs(np.fft.fftn(np.sin(x), s=shape, axes=(0, 1))) ** 2)
        shape = shape + 1
    return s


def rfftn_of_numpy_shapes(x):
    s, shape = 0.0, np.array([2, 3])
    for k in range(2):
        s = s + np.sum(np.abs(np.fft.rfftn(np.sin(x), s=shape, axes=(0, 1))) ** 2)
        shape = shape + 1
    return s


def irfftn_of_numpy_shapes(x):
    s, shape = 0.0, np.array([2, 3])
    for k in range(2):
        s = s + np.sum(np.fft.irfftn(np.fft.fft2(np.sin(x)), s=shape, axes=(0, 1)) ** 2)
        shape = shape + 1
    return s


TAPED = [fft_along_a_numpy_axis, ifft_along_a_numpy_axis, rfft_of_numpy_lengths,
         ihfft_of_numpy_lengths, irfft_along_a_numpy_axis, hfft_along_a_numpy_axis,
         fftn_of_numpy_shapes, rfftn_of_numpy_shapes, irfftn_of_numpy_shapes]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", TAPED)
def test_taped_numpy_axes_and_lengths_are_kept_whole(fn, policy):
    x = rng("fft", "taped").normal(size=(3, 4))
    assert_close(grad(fn, policy=policy)(x), numerical_grad(fn, [x], 0), rtol=1e-6, atol=1e-8)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")     # s without axes (NumPy 2)
@pytest.mark.parametrize("fn", [fft.fftn, fft.ifftn, fft.rfftn, fft.fft2])
def test_s_without_axes_transforms_the_last_len_s_axes(fn):
    check_complex_rule(fn, [T234], dict(s=(2, 5)))
    check_complex_rule(fn, [T234], dict(s=(4, 3)))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("fn", [fft.irfftn, fft.irfft2])
def test_irfftn_s_without_axes(fn):
    check_complex_rule(fn, [cplx(T234)], dict(s=(2, 5)))
