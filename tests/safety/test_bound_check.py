"""The definite-assignment check over the emitted pullback (transform/bound_check.py)."""
import textwrap

import gast
import pytest

from transform.emit.bound_check import check_pullback, unbound_reads


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
    """The late-binding bug: `dh` bound late in one reverse iteration, read early."""
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


def test_pullback_of_a_loop_element_copied_then_written_before_the_loop_fix():
    """The loop policy's pullback for alias_funcs.loop_element_copied_then_written as
    emitted before adjoints were joined once at the loop head (abridged): the first
    reverse iteration adds into `dv`, which only a later statement binds. The check
    refuses it; the fixed reverse stage binds `dv` first (tests/safety/test_aliasing.py)."""
    src = """
    def pullback(ds, *, t5=t5, t6=t6, t8=t8, v=v, v_item1=v_item1):
        pop = tape_reader(tape)
        dseq1 = dt5 = dt6 = dt7 = dv_item1 = dx = None
        for k1, v_item1 in reversed_enumerate(seq1, n1):
            dt8 = unreduce(ds, t8, None, False)
            dv = accumulate_into(dv, dt8 * v)
            dv += dt8 * v
            t8 = pop()
            dv_part1, dv = setitem_vjp(dv, 0, True)
            dt7 = unbroadcast(dv_part1, t7)
            v = pop()
            dt4 = dv
            dv = None
            v = pop()
            dv = accumulate_into(dv, unstack_vjp(dt4, v))
            dv_item1 = dv
            dv = None
            v = pop()
            dseq1 = accumulate_at(dseq1, seq1, k1, dv_item1)
            dv_item1 = None
        del pop
        return (dx,)
    """
    adjoints = ["ds", "dseq1", "dt4", "dt5", "dt6", "dt7", "dt8", "dv", "dv_item1", "dx"]
    assert _unbound(src, adjoints) == {"dv"}
