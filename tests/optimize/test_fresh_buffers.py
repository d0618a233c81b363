"""Adjoints that start from a buffer no other name holds (transform/reverse/fresh_buffers.py)
and a slice read's first write written out (transform/reverse/slice_adds.py first_write).

- An arithmetic result over an array of the adjoint's value's known shape is a new array:
  the adjoint owns it (`du = g * 2 * u`, later `du += c` in place).
- A copy `u = un` whose u adjoint is an owned array reset right after moves it:
  `dun = du`, not `dun = own(du)` (a copy per step of `un = u.copy(); ...; u = un`).
- `accumulate_at(None, u, np.s_[-1:], g)` becomes `du = cotangent_zeros(u)` and, unless
  g is None, `du[-1:] = g`.

Where none applies: a view or a call's result (`np.sum`'s spread), a cotangent handed in
(vjp), a value of unknown or broadcast shape, complex values. Every program runs against
finite differences under every policy; the specialised rule is asked how often it calls
`own` and `accumulate_at`, and a handed-in cotangent must come back unchanged.
"""
import gast
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import grad, vjp
from transform.api import _wrt_names, compiled, signature_of
from transform.reverse.fresh_buffers import array_shapes, fresh_array, moved
from transform.analysis.accumulation import Form
from transform.analysis.shapes import SCALAR


def heat_copy(u, k, steps):
    for _ in range(steps):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u ** 3)


def heat_copy_sum(u, k, steps):
    for _ in range(steps):                  # du = np.sum's spread (a call): not owned
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u)


def heat_copy_out(u, k, steps):
    for _ in range(steps):                  # du is the cotangent handed in: not owned
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return u


def heat_concat(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(np.sin(u) * u)


def branch_copies(u, k, steps, flag):
    for _ in range(steps):
        un = u.copy()
        if flag:
            un[1:] = k * u[:-1]
            u = un
        else:
            u = un * k
    return np.sum(u ** 2)


def shared_value(x):
    y = x * 3.0
    z = y                                   # two names for one array
    w = y
    return np.sum(z ** 2) + np.sum(np.sin(w) * x)


def relabel(x, w):
    y = x * 2.0
    z = np.sin(y)
    x = y                                   # x assigned twice: dx moves into dy
    return np.sum(x ** 2) + np.sum(z * w)


def plus_in_place(x):
    t = x * 1.0
    return np.sum(t ** 2) + np.mean(t) + np.sum(np.cos(t[1:]))


def broadcast_rows(x, W):
    return np.sum((W * x) ** 2) + np.sum(x ** 2)


def view_out(x):
    y = x * 2.0
    return y[1:]                            # a view of a fresh array, returned


def complex_slices(u, w):
    z = np.exp(1j * u)                      # w[1:]'s cotangent may be complex
    return np.real(np.sum(z[1:] * w[1:]) + np.sum(z[:1]))


_U = np.linspace(0.1, 0.9, 7) ** 2
CASES = [
    (heat_copy, lambda r: [r.normal(size=7), 0.2, 3], (0, 1)),
    (heat_copy_sum, lambda r: [r.normal(size=7), 0.2, 3], (0, 1)),
    (heat_copy_out, lambda r: [r.normal(size=7), 0.2, 3], (0, 1)),
    (heat_concat, lambda r: [r.normal(size=8), 0.3, 3], (0, 1)),
    (branch_copies, lambda r: [r.normal(size=5), 0.7, 3, True], (0, 1)),
    (branch_copies, lambda r: [r.normal(size=5), 0.7, 3, False], (0, 1)),
    (shared_value, lambda r: [r.normal(size=4)], (0,)),
    (plus_in_place, lambda r: [r.normal(size=5)], (0,)),
    (relabel, lambda r: [r.normal(size=5), r.normal(size=5)], (0, 1)),
    (broadcast_rows, lambda r: [r.normal(size=4), r.normal(size=(3, 4))], (0, 1)),
    (view_out, lambda r: [r.normal(size=5)], (0,)),
    (complex_slices, lambda r: [r.normal(size=5), r.normal(size=5)], (0, 1)),
]
IDS = [f"{c[0].__name__}{k}" for k, c in enumerate(CASES)]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt", CASES, ids=IDS)
def test_gradients_match_finite_differences(fn, make, wrt, policy):
    check_function(fn, make(rng("fresh_buffers", fn.__name__)), wrt, policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [heat_copy, heat_concat])
def test_float32_buffers_stay_float32(fn, policy):
    # finite differences of a float32 program are too coarse here: the float32 gradient
    # is compared with the float64 one (checked against finite differences above)
    u = rng("fresh_buffers", "f32").normal(size=7)
    du32, dk32 = grad(fn, ("u", "k"), policy=policy)(u.astype(np.float32), 0.2, 3)
    du64, dk64 = grad(fn, ("u", "k"), policy=policy)(u, 0.2, 3)
    assert du32.dtype == np.float32
    np.testing.assert_allclose(du32, du64, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dk32, dk64, rtol=1e-4)


def helper_calls(fn, args, wrt, helper, cotangent=1.0):
    """How often the rule specialised to args' shapes calls runtime `helper`."""
    params = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    names, _ = _wrt_names(fn, tuple(params[k] for k in wrt))
    rule = compiled(fn, names, "loop", signature=signature_of(args))
    free = dict(zip(rule.rrule.__code__.co_freevars, rule.rrule.__closure__ or ()))
    cell, seen = free.get(helper), []       # the helpers are the rule's free names
    original = None if cell is None else cell.cell_contents
    if cell is not None:
        cell.cell_contents = lambda *a: seen.append(1) or original(*a)
    try:
        rule.rrule(*args)[1](cotangent)
    finally:
        if cell is not None:
            cell.cell_contents = original
    return len(seen)


HEAT = (_U, 0.2, 4)


@pytest.mark.parametrize("fn,owns", [(heat_copy, 0), (heat_copy_sum, 4)])
def test_a_fresh_adjoint_moves_through_the_copies(fn, owns):
    # heat_copy: du = g * 3 * u ** 2 is fresh, so every step's `dun = du` moves it;
    # heat_copy_sum: du is np.sum's spread (a view or a fill the code did not make
    # itself as an array op): one copy per step, as before
    assert helper_calls(fn, HEAT, (0, 1), "own") == owns


def test_a_moved_buffer_takes_later_adds_in_place():
    names, _ = _wrt_names(relabel, ("x", "w"))
    args = (_U, _U)
    text = compiled(relabel, names, "loop", signature=signature_of(args)).source
    assert "dy = dx\n" in text and "dy += dz * np.cos(y)" in text


def test_a_handed_in_cotangent_is_copied_and_never_written():
    cot = rng("fresh_buffers", "cot").normal(size=_U.shape)
    before = cot.copy()
    assert helper_calls(heat_copy_out, HEAT, (0, 1), "own", cot.copy()) == 4
    out, pullback = vjp(heat_copy_out, *HEAT, wrt=("u", "k"))
    pullback(cot)
    np.testing.assert_array_equal(cot, before)


def test_first_slice_reads_allocate_without_a_call():
    assert helper_calls(heat_concat, (_U, 0.3, 4), (0, 1), "accumulate_at") == 0
    # complex values keep the helper (a complex cotangent into a real buffer)
    assert helper_calls(complex_slices, (_U, _U), (0, 1), "accumulate_at") == 1


def _expr(text, role=None):
    node = gast.parse(text).body[0].value
    for n in gast.walk(node):
        if isinstance(n, gast.Call) and role:
            n.func.role = role
    return node


CLASSES = {"x": "shape:3", "W": "shape:2,3", "s": SCALAR, "t": "shape:2,3"}


@pytest.mark.parametrize("text,name,fresh", [
    ("g * 2 * x", "x", True),
    ("x ** 2 - g", "x", True),
    ("g * W", "x", False),          # an array of another shape (broadcast): not x's
    ("g * W", "t", True),           # W has t's shape
    ("g * s", "x", False),          # a number only
    ("g * 2", "x", False),          # nothing sized
    ("x", "x", False),              # a name alone: two names would share it
    ("g @ W", "x", False),          # a matrix product
    ("np.cos(x)", "x", False),      # a call's result
    ("g * x", "s", False),          # a scalar's adjoint
    ("(g @ x) * 2", "x", False),
])
def test_fresh_arithmetic(text, name, fresh):
    assert fresh_array(_expr(text), CLASSES, name) is fresh


def test_unreduce_of_a_known_shape_is_sized():
    assert array_shapes(_expr("unreduce(g, x, None, False)", "unreduce"), CLASSES) == {(3,)}
    assert fresh_array(_expr("unreduce(g, x, None, False) / n", "unreduce"), CLASSES, "x")
    for text in ("unreduce(g, x, 1, False)", "unreduce(g, x, None, True)",
                 "unreduce(g, y, None, False)", "unreduce(g, x, axis, False)"):
        assert array_shapes(_expr(text, "unreduce"), CLASSES) == set()
    assert array_shapes(_expr("unreduce(g, x, None, False)", "unbroadcast"), CLASSES) == set()


def test_what_moves():
    owned = Form("no", False, True)
    assert moved(owned, True) and not moved(owned, False)
    assert not moved(Form("no", False, False), True)
    assert not moved(Form("maybe", False, True), True)
    assert not moved(Form("no", True, True), True)
    assert not moved(Form("no", False, True, container=True), True)
