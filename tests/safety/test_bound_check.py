"""The definite-assignment check over the emitted pullback (transform/bound_check.py)."""
import textwrap

import gast
import pytest

from transform.bound_check import check_pullback, unbound_reads


def _unbound(src, names):
    fn = gast.parse(textwrap.dedent(src)).body[0]
    return unbound_reads(fn, set(names))


def test_read_after_assignment_in_one_branch_only():
    src = """
    def pullback(dy):
        if dy is not None:
            dh = dy
        dx = accum(dh, dy)
        return dx
    """
    assert _unbound(src, ["dh", "dx"]) == {"dh"}


def test_both_branches_bind():
    src = """
    def pullback(dy):
        if dy is not None:
            dh = dy
        else:
            dh = None
        return dh
    """
    assert _unbound(src, ["dh"]) == set()


def test_first_iteration_reads_what_a_later_one_binds():
    """The bug of issue 12: `dh` bound late in one reverse iteration, read early."""
    src = """
    def pullback(dt, *, h=h):
        for i in reversed(steps):
            dh = accum_eager(dh, dt * h)
            dh = None
        return dt
    """
    assert _unbound(src, ["dh"]) == {"dh"}


def test_loop_body_binding_is_not_bound_after_the_loop():
    src = """
    def pullback(dt):
        for i in reversed(steps):
            dx = dt
        return (dx,)
    """
    assert _unbound(src, ["dx"]) == {"dx"}


def test_initialised_names_parameters_and_lambda_parameters_are_bound():
    src = """
    def pullback(dt, *, dk=None):
        dh = None
        for i in reversed(steps):
            dh = accumulate_into(dh, dt + dk)
            dz = Thunk(lambda dq=dh: dq * 2)
        return (dh,)
    """
    assert _unbound(src, ["dh", "dt", "dk", "dq", "dz"]) == set()


def test_augmented_assignment_reads_its_target():
    src = """
    def pullback(dt):
        dx += dt
        return dx
    """
    assert _unbound(src, ["dx"]) == {"dx"}


def test_deleted_name_is_unbound_again():
    src = """
    def pullback(dt):
        ds = dt
        del ds
        return ds
    """
    assert _unbound(src, ["ds"]) == {"ds"}


def test_check_pullback_raises_before_anything_runs():
    rrule = gast.parse(textwrap.dedent("""
    def f_rrule(x):
        def pullback(dt):
            if dt is not None:
                dh = dt
            return (dh,)
        return x, pullback
    """)).body[0]
    with pytest.raises(RuntimeError, match="dh"):
        check_pullback(rrule, {"dh"})
