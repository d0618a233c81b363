"""Session 34 red team (red): realistic ML, physics and statistics programs
(programs.py, cases.py) through jvp, jacfwd, jacrev, hessian, hvp, jvp/jacfwd of grad
and grad of grad, each against central finite differences in float64 (check.py: first
order against differences of the plain function, second order against differences of
`grad`, itself checked first). Every case either matches or is refused with a
TransformError; REFUSED lists the refusals left (the red team's report says why)."""

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from tests.red34 import programs as P
from tests.red34.cases import cases
from tests.red34.check import CHECKS, run_checked
from transform import TransformError, grad, hessian, hvp, jvp

CASES = cases()
REFUSED = {
    # rules whose JVP terms call derivative helpers reverse mode has no rule for yet
    # (stats_vjp, cho_factor_jvp, expm_jvp, solved_matrix, eigh_jvp: session 35;
    # interp_poly passes since session 39: interp_x_vjp has a reverse rule)
    # (x[1].item() under hvp and hessian passes since session 38, noticed38)
    # documented: *args functions, methods of objects made in the function, derivatives
    # of grad of a bound method
    ("elastic_energy", "jvp"), ("elastic_energy", "hvp"), ("elastic_energy", "hessian"),
    # (class_energy's jvp, hvp, hessian run since session 35's methods in forward mode)
    ("method_loss", "jvp_grad"),
    # writes through views, in-place library calls, `+=` on a list entry (all modes)
    ("view_scale", "jvp"), ("view_scale", "jacfwd"), ("view_scale", "jacrev"),
    ("view_assign", "jvp"), ("view_assign", "jacfwd"), ("view_assign", "jacrev"),
    # (fill_diag runs since session 40: np.fill_diagonal as a subscript write, red41)
    ("list_store", "jvp"), ("list_store", "hvp"), ("list_store", "hessian"),
}
CHECKED = [(name, check) for name, case in CASES.items() for check in case[3]]


@pytest.mark.parametrize("name, check", CHECKED, ids=[f"{n}-{c}" for n, c in CHECKED])
def test_against_finite_differences(name, check, capsys):
    run_checked("red34", CHECKS, CASES[name], name, check, (name, check) in REFUSED)


def test_refusal_list_names_cases():
    assert REFUSED <= set(CHECKED)


def test_stop_gradient_second_order_holds_the_stopped_value():
    # x**2 * stop_gradient(x): the Hessian is 2 diag(x) (x held), not the differences of
    # grad (which move the stopped value too): against sg_fixed with c = x held
    x = np.array([0.3, -0.7, 1.1])
    want = np.stack([numerical_jvp(lambda y: numerical_grad(P.sg_fixed, [y, x], 0), [x], 0,
                                   e, eps=1e-4) for e in np.eye(3)], axis=-1)
    assert_close(hessian(P.sg_loss)(x), want, 1e-5, 1e-6)
    v = np.array([1.0, -2.0, 0.5])
    assert_close(hvp(P.sg_loss, (x,), (v,)), want @ v, 1e-5, 1e-6)
    assert_close(jvp(grad(P.sg_loss), (x,), (v,))[1], want @ v, 1e-5, 1e-6)


def test_hessian_of_a_tuple_wrt_gives_argument_blocks():
    # a ValueError ("too many values to unpack") before session 34
    r = rng("red34 blocks")
    w, X, y = r.normal(size=3), r.normal(size=(6, 3)), r.normal(size=6)
    H = hessian(P.glm_nll, wrt=(0, 1))(w, 0.3, X, y)
    assert np.shape(H[0][0]) == (3, 3) and np.shape(H[0][1]) == (3,) and np.ndim(H[1][1]) == 0
    gw, gs = grad(P.glm_nll, 0), grad(P.glm_nll, 1)
    args = [w, 0.3, X, y]
    assert_close(H[1][0], numerical_grad(gs, args, 0), 1e-5, 1e-6)
    assert_close(H[1][1], numerical_grad(gs, args, 1), 1e-5, 1e-6)
    assert_close(H[0][1], numerical_jvp(gw, args, 1, 1.0), 1e-5, 1e-6)


def test_norm_orders_without_a_second_derivative_are_refused():
    with pytest.raises(TransformError, match="ord=1"):
        hvp(P.norm_one, (np.array([0.3, -1.2, 2.0]),), (np.ones(3),))


def test_dict_items_with_non_float_entries():
    x, cfg = np.array([1.0, 2.0]), {"w": 1.5}
    for t in (np.array([1.0, 0.0]), np.array([0.3, -0.4])):
        _, got = jvp(P.labelled_dict, (x, cfg), (t,), wrt=0)
        assert_close(got, numerical_jvp(P.labelled_dict, [x, cfg], 0, t))
        assert_close(hvp(P.labelled_dict, (x, cfg), (t,)),
                     numerical_jvp(grad(P.labelled_dict), [x, cfg], 0, t), 1e-5, 1e-6)


def test_bound_method_hessian_holds_the_object():
    r = rng("red34 method")
    model = P.Model(r.normal(size=(6, 3)), (r.uniform(size=6) < 0.5) * 1.0)
    w = r.normal(size=3)
    H = hessian(model.loss)(w)
    want = np.stack([numerical_jvp(grad(model.loss), [w], 0, e) for e in np.eye(3)], -1)
    assert_close(H, want, 1e-5, 1e-6)
    assert_close(hessian(P.Model.loss, wrt=1)(model, w), H, 1e-12, 1e-12)


def test_keyword_only_parameter_in_hvp_is_a_type_error():
    # a ValueError from list.index inside hvp before session 34
    w, X, y = np.ones(3), np.eye(3), np.zeros(3)
    for call in (lambda: hvp(P.kw_loss, (w, X, y), (1.0,), wrt="lam"),
                 lambda: hessian(P.kw_loss, wrt="lam")(w, X, y),
                 lambda: hvp(P.kw_loss, (w, X, y), (w, 1.0), wrt=(0, "lam"))):
        with pytest.raises(TypeError, match="keyword-only"):
            call()
    # jvp and grad of grad take it at its default
    assert_close(grad(grad(P.kw_loss, "lam"), "lam")(w, X, y), 6 * 0.1)


def test_item_and_keyword_calls_in_forward_code():
    x, t = np.array([0.4, -1.1, 0.8]), np.array([0.5, 1.0, -2.0])
    assert_close(jvp(P.conversions, (x,), (t,))[1], numerical_jvp(P.conversions, [x], 0, t))
    # `_pair(r, k=k, r0=1.2)`: k passed by keyword reaches hvp and grad of grad
    args = [np.array([0.0, 1.1, 2.0]), 1.5]
    assert_close(grad(grad(P.chain_energy, 1), 1)(*args),
                 numerical_grad(grad(P.chain_energy, 1), args, 1), 1e-5, 1e-6)


def test_items_of_an_object_that_is_not_a_dict_is_refused_at_the_loop():
    with pytest.raises(TransformError, match="not a dict") as info:
        jvp(P.pairs_loss, (P.Pairs(0.5, 1.5),), (P.Pairs(1.0, 0.0),))
    assert "programs_c.py" in str(info.value)


def test_prod_second_derivative_along_axes_with_a_zero_entry():
    X = rng("red34 prod").normal(size=(3, 2, 2))
    X[1, 0, 1] = 0.0
    for v in (np.ones_like(X), rng("red34 prod v").normal(size=X.shape)):
        assert_close(hvp(P.row_products, (X,), (v,)),
                     numerical_jvp(grad(P.row_products), [X], 0, v), 1e-5, 1e-6)
