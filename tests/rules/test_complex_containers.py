"""Complex values through containers, records, closures and layout tricks: the rules
whose cotangent is structural (tests/rules/test_complex_allow.py PROGRAM_CHECKED), each
on a program against central differences under every policy."""
import functools
import warnings
from typing import NamedTuple

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand


def items_and_slices(x):                      # getitem, builtins.list, tuple, sorted
    z = np.fft.fft(x)
    parts = list(z[1:4]) + list(tuple(z[4:]))
    top = sorted(parts, key=abs)
    return np.real(top[-1]) + 2 * np.imag(top[0]) + np.abs(z[0]) + np.imag(z.T[2])


def dict_of_spectra(x):                       # dict.get, items, values, copy, list.copy
    d = {"low": np.fft.rfft(x)[:2], "all": x * (1 + 0.5j)}
    e = d.copy()
    total = 0.0
    for key, value in e.items():
        total = total + np.sum(np.abs(value) ** 2) * len(key)
    vals = list(d.values()).copy()
    return total + np.real(np.sum(vals[0])) + np.imag(np.sum(e.get("all")))


class Wave(NamedTuple):
    amplitude: complex
    phase: float


def merged_dicts(x):                          # operator.or_ (dict union, | and |=)
    z = np.fft.fft(x)
    base = {"a": z[:2], "b": z[2] * (1 - 1j)}
    merged = base | {"b": z[3] * 2j, "c": x[0] * (0.5 + 1j)}
    merged |= {"d": np.sum(z[4:])}
    return np.sum(np.abs(merged["a"]) ** 2) + np.real(merged["b"] * merged["c"]) + np.imag(
        merged["d"])


def records_and_getattr(x):                   # getattr, NamedTuple._replace
    w = Wave(x[0] * (1 + 2j), x[1])
    v = w._replace(amplitude=w.amplitude * 1j)
    return np.abs(getattr(v, "amplitude")) ** 2 + np.real(v.amplitude * np.exp(1j * v.phase))


def _shifted(k, z):
    return z * np.exp(1j * k)


def closures_and_partials(x):                 # make_closure, make_partial
    z = x * (0.5 - 1j)
    fs = {"scale": lambda t: t * z, "shift": functools.partial(_shifted, 0.3)}
    out = fs["scale"](x[::-1])
    return np.sum(np.abs(out) ** 2) + np.real(np.sum(fs["shift"](z)))


def repeats_and_index_tricks(x):              # product_or_repeat, repeat_sequence, index_trick
    z = np.fft.fft(x)
    zs = [z[1]] * 3
    n = 2
    ws = [z[2]] * n
    joined = np.r_[z[:2], np.conj(z[3:])]
    return np.abs(sum(zs)) + np.real(ws[1] * zs[0]) + np.sum(np.abs(joined) ** 2)


def stacked_rows(x):                          # row_stack
    z = x * (1 + 1j)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        m = np.row_stack([z[:3], np.conj(z[3:])])
    return np.sum(np.abs(m) ** 2 * np.arange(3.0)) + np.imag(np.sum(m[1]))


PROGRAMS = [items_and_slices, dict_of_spectra, merged_dicts, records_and_getattr,
            closures_and_partials, repeats_and_index_tricks]
if hasattr(np, "row_stack"):
    PROGRAMS.append(stacked_rows)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_complex_values_through_containers(f, policy):
    check_grad(f, [rand(6, seed=3)], policy=policy)


def _concatenated_lists(x):
    parts = list(x[1:4]) + list(x[4:])
    return parts[4] * 2.0


def _concatenated_complex_lists(x):
    z = x * (1 + 1j)
    parts = list(z[1:4]) + list(z[4:])
    return np.imag(parts[4])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [_concatenated_lists, _concatenated_complex_lists])
def test_a_list_part_no_one_reads_gets_zeros_not_nan(f, policy):
    # index_vjp wrote None into an array slice (NaN) for the unread part of `a + b`
    check_grad(f, [rand(6, seed=4)], policy=policy)
