"""Aliasing: writes into the caller's data or into memory another live name
shares are refused at the write (file, line, both names); writes no other name sees
afterwards keep working, with gradients checked against finite differences."""
import traceback

import numpy as np
import pytest

from tests.containers.check import assert_error_at
from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad
from transform.alias.check import check_aliasing
from transform.frontend.parse import parse_function

from . import alias_funcs as F

V = np.array([3.0, 1.0, 2.0])
M = np.array([[1.0, 0.5], [0.2, 0.3]])

# fn, args, the text of the refused line, words the message says
REFUSED = [
    # (an argument written into is copied on entry: the sort is then refused as on a
    # local array, the fill works, see ALLOWED; np.copyto and out= are refused as on a
    # local array too since session 40, tidy40: they said "writing into the argument")
    (F.sort_argument, (V,), "x.sort()", "`.sort()` changes `x`", "np.sort(x)"),
    (F.view_of_argument_written, (V, 1.5), "v[0] = w", "`v`", "argument `x`"),
    (F.transposed_argument_written, (M, 1.5), "Y[0] = w", "`Y`", "argument `X`"),
    (F.loop_element_of_argument_written, (M, 1.5), "row[0] = w", "`row`", "argument `X`"),
    (F.helper_result_of_argument_written, (V, 1.5), "v[0] = w", "argument `x`"),
    (F.dict_argument_value_written, ({"W": V}, 1.5), "W[0] = w", "argument `params`"),
    (F.attribute_of_argument_written, (F.Box(V), 1.5), "W[0] = w", "argument `box`"),
    (F.copyto_argument, (V, 1.5), "np.copyto(x, w)", "`copyto(...)` changes `x`"),
    (F.out_argument, (V, 1.5), "out=x", "`out=` changes `x`", "`x = np.add(a, b)`"),
    (F.global_written, (1.5,), "g[0] = w", "global `G`"),
    (F.loop_element_of_a_fresh_list_written, (V,), "v[0] = v[1] * v[0]", "loop variable `v`",
     "v.copy()"),
    (F.generator_kept_for_later, (V,), "g = (a[0] * t", "generator expression", "list"),
    (F.concatenated_list_holds_then_write, (V,), "h[0] = 0.0", "`h`", "`hs`",
     "`hs = [x] + [h.copy()]`"),
    (F.helper_view_of_local_written, (V,), "r[0] = 0.0", "`r`", "`A`"),
    (F.helper_list_holding_local, (V,), "a[0] = 0.0", "`a`", "`both`"),
    (F.positional_out_argument, (V, 1.5), "np.multiply(x, w, x)",
     "an output argument changes `x`"),
    (F.positional_out_local, (V, 1.5), "np.tanh(a, a)", "`a`", "`v`"),
    (F.nested_writes_its_parameter, (V, 1.5), "v[0] = w", "argument `v`"),
    (F.symplectic_step, (M, 0.1), "S[1] = v - dt * x", "`S`", "`v`", "line", "copy()"),
    (F.view_then_write, (V, 1.5), "a[0] = w", "`a`", "`s`", "view"),
    (F.list_holds_then_write, (V,), "h[0] = 0.0", "`h`", "`hist`", "holds",
     "`hist = [h.copy()]`"),
    (F.view_read_in_a_later_loop_trip, (1.5,), "a[i] = w * (i + 1)", "`a`", "`s`"),
    (F.view_read_after_a_break, (1.5,), "a[i] = w", "`a`", "`s`"),
    (F.sort_local, (V,), "a.sort()", "np.sort(a)"),
    (F.augmented_transpose, (M,), "Y += 1", "`Y`", "`X`"),
]


def _args(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _wrt(args):
    return tuple(k for k, a in enumerate(args) if isinstance(a, (float, np.ndarray)))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c[0].__name__)
def test_refused_at_the_write(case, policy):
    fn, args, marker, *words = case
    call_args = _args(args)
    with pytest.raises(TransformError) as info:
        grad(fn, wrt=_wrt(args) or (0,), policy=policy)(*call_args)
    assert_error_at(info.value, fn, marker, *words)
    for before, after in zip(args, call_args):
        if isinstance(before, np.ndarray):
            np.testing.assert_array_equal(after, before)   # the caller's data is untouched
    assert np.array_equal(G_BEFORE, F.G)


G_BEFORE = F.G.copy()


ALLOWED = {
    "view_read_only_before_the_write": (F.view_read_only_before_the_write, (M, 0.7)),
    "view_rebound_to_a_copy": (F.view_rebound_to_a_copy, (V, 0.7)),
    "base_rebound_to_a_copy": (F.base_rebound_to_a_copy, (V, 0.7)),
    "symplectic_step_with_copies": (F.symplectic_step_with_copies, (M, 0.1)),
    "row_read_in_the_written_statement": (F.row_read_in_the_written_statement, (M, 0.3)),
    "rnn_reads_previous_row": (F.rnn_reads_previous_row,
                               (np.array([[0.3, -0.2], [0.1, 0.4]]),
                                np.array([[0.5, -0.1], [0.2, 0.3], [-0.4, 0.6]]))),
    "list_of_copies_then_write": (F.list_of_copies_then_write, (V,)),
    "alias_dead_after_write": (F.alias_dead_after_write, (V, 0.7)),
    "loop_element_copied_then_written": (F.loop_element_copied_then_written, (V,)),
    "nested_writes_its_own_copy": (F.nested_writes_its_own_copy, (V, 0.7)),
    "generator_consumed_at_once": (F.generator_consumed_at_once, (V,)),
    "fresh_helper_result_written": (F.fresh_helper_result_written, (M, np.array([0.4, -0.3]))),
    "view_taken_in_the_loop_read_next_trip": (F.view_taken_in_the_loop_read_next_trip, (0.7,)),
    "fill_argument": (F.fill_argument, (V, 1.5)),     # x is copied on entry
    # session 30 (lib30): np.add.at is `x[...] = added_at(x, 0, w)`, x copied on entry
    "add_at_argument": (F.add_at_argument, (V, 1.5)),
}


def _allowed_params():
    for name in ALLOWED:
        for policy in POLICIES:
            yield pytest.param(name, policy, id=f"{name}-{policy}")


@pytest.mark.parametrize("name, policy", list(_allowed_params()))
def test_unshared_write_keeps_working(name, policy):
    fn, args = ALLOWED[name]
    check_grad(fn, args, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_list_extended_in_place_through_an_alias_is_refused_before_it_runs(policy):
    # a list display is known to be a list: `ys += [...]` extends it in place
    with pytest.raises(TransformError, match="`ys` is not supported here") as info:
        grad(F.list_extended_in_place_through_alias, policy=policy)(V.copy())
    assert "<thunkgrad" not in "".join(traceback.format_tb(info.tb))


def test_symplectic_with_copies_matches_the_primal():
    value = grad(F.symplectic_step_with_copies, wrt=(0, 1))
    assert value is not None
    from transform import value_and_grad
    v, _ = value_and_grad(F.symplectic_step_with_copies)(M.copy(), 0.1)
    assert v == pytest.approx(F.symplectic_step_with_copies(M.copy(), 0.1), rel=1e-14)


# ---- the analysis itself: precise where it is cheap -------------------------------------
def _check(fn):
    check_aliasing(parse_function(fn))


def fresh_array_per_trip_appended(x):
    xs = []
    for i in range(3):
        v = np.zeros(2)
        v[0] = x * i          # this trip's v: no earlier list entry is this array
        xs.append(v)
    return xs


def same_array_appended_every_trip(x):
    xs = []
    v = np.zeros(2)
    for i in range(3):
        v[0] = x * i          # the list holds this very array from the previous trip
        xs.append(v)
    return xs


def test_each_trip_allocates_a_new_array():
    _check(fresh_array_per_trip_appended)


def test_one_array_appended_every_trip_is_refused():
    with pytest.raises(TransformError, match="`xs` holds `v`"):
        _check(same_array_appended_every_trip)
