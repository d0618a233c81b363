"""Mutants of the compiler passes (session 30, mut30b) pinned by behaviour: each program
here changes its gradient, or its refusal, under one planted bug that the staged lists
let through (docs/testing.md, "Session 30 (mut30b): compiler passes"). Every program runs
against finite differences under every policy.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
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
