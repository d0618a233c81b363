"""Mutants of the compiler passes (session 30, mut30b) pinned by behaviour: each program
here changes its gradient, or its refusal, under one planted bug that the staged lists
let through (docs/testing.md, "Session 30 (mut30b): compiler passes"). Every program runs
against finite differences under every policy.
"""
import collections

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import TransformError, grad
from transform.api import _wrt_names, compiled, signature_of


def specialised(fn, wrt, args, policy="loop"):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, policy, signature=signature_of(args)).source


def slice_read_unread(u, y):
    t = u[1:-1]                        # its cotangent: list()'s, None (no entry is read)
    parts = list(t) + list(y)
    w = u[:2]                          # read last: du is an owned buffer when t's comes
    return np.sum(parts[-1] * 2.0) + np.sum(w ** 2)


SLICE_ARGS = (rng("s30 slice", 1).normal(size=4), rng("s30 slice", 2).normal(size=2))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_written_out_slice_add_skips_a_none_cotangent(policy):
    # slice_adds.py:53 (`if not isinstance(g, gast.Name)` -> `if isinstance(...)`): the
    # name's add loses its `is not None` guard and `du[1:-1] += None` raises
    check_function(slice_read_unread, list(SLICE_ARGS), (0, 1), policy)


def test_the_slice_add_is_written_out_behind_its_guard():
    text = specialised(slice_read_unread, ("u", "y"), SLICE_ARGS)
    assert "if dt is not None:" in text and "du[1:-1] += dt" in text


Pair = collections.namedtuple("Pair", "w n")


def scaled_by_count(p):
    return np.sum(p.w ** 2) * p.n


@pytest.mark.parametrize("policy", POLICIES)
def test_an_integer_field_of_a_namedtuple_gets_no_gradient(policy):
    # boundary.py:128 (`... or like is None` -> `and`): the integer field's gradient
    # became the float 2 * sum(w ** 2) instead of None
    p = Pair(rng("s30 pair").normal(size=3), 2)
    check_function(scaled_by_count, [p], 0, policy)
    g = grad(scaled_by_count, policy=policy)(p)
    assert type(g) is Pair and g.n is None


def refill_in_order(u):
    y = np.sin(u)                      # an array made by a call, not a list
    for i, v in enumerate(y):
        y[i] = v * 2.0
    return np.sum(y)


def test_writing_the_current_item_of_an_array_made_by_a_call_is_refused():
    # order.py:147 (`isinstance(value, gast.Call) and ...` -> `or`): the array counted
    # as a list made here, and the write in the loop over it was no longer refused
    with pytest.raises(TransformError, match="inside a loop over `enumerate"):
        grad(refill_in_order)(rng("s30 refill").normal(size=3))


def underscore_read_after_its_loop(x):
    for _ in range(3):
        x = np.sin(x) * (_ + 1.0)
    return np.sum(x * _)               # the sweep reads `_` before its loop rebinds it


@pytest.mark.parametrize("policy", POLICIES)
def test_the_users_underscore_read_by_the_sweep_is_kept_for_the_pullback(policy):
    # assemble.py:62 (`if "_" not in loaded` -> `in`): `_` was left out of the
    # pullback's snapshot and its first read raised UnboundLocalError
    check_function(underscore_read_after_its_loop, [rng("s30 underscore").normal(size=2)],
                   0, policy)
