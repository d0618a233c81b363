"""red38's cases: (function, arguments, the argument differentiated, checks). Scalar
outputs get grad, jvp, hvp by all three routes and hessian (both routes); programs the
plain lowering should take get grad_plain too; float arguments grad of grad."""
import numpy as np

from tests.gradcheck import rng
from tests.red38 import programs_edge as E
from tests.red38 import programs_hard as H
from tests.red38 import programs_loops as L
from tests.red38 import programs_misc as M

SCALAR = ("grad", "jvp", "hvp", "hvp_fr", "hvp_auto", "hessian", "hessian_fr")
PLAIN = SCALAR + ("grad_plain",)
FLOAT = ("grad", "jvp", "hvp", "hvp_fr", "hvp_auto", "gog")


def _loops(r):
    W = 0.5 * r.normal(size=(2, 3))
    X = r.normal(size=(5, 3))
    Y = r.normal(size=(5, 2))
    return {
        "hebbian_outer": (L.hebbian_outer, (W, X), 0, PLAIN),
        "manual_backprop_outer": (L.manual_backprop_outer, (W, X, Y), 0, PLAIN),
        "rnn_outer_grad_norm": (L.rnn_outer_grad_norm, (0.5 * r.normal(size=(3, 3)), r.normal(size=(4, 3))), 0, PLAIN),
        "outer_break": (L.outer_break, (W, X), 0, PLAIN),
        "outer_continue": (L.outer_continue, (W, X), 0, PLAIN),
        "outer_while": (L.outer_while, (W, X), 0, PLAIN),
        "sgd_early_stop": (L.sgd_early_stop, (r.normal(size=3), X, r.normal(size=5)), 0, SCALAR),
        "while_decay": (L.while_decay, (r.normal(size=3),), 0, PLAIN),
        "slice_accumulate": (L.slice_accumulate, (r.normal(size=5),), 0, PLAIN),
        "window_sums": (L.window_sums, (r.normal(size=6),), 0, PLAIN),
        "slice_rows_update": (L.slice_rows_update, (r.normal(size=(4, 3)),), 0, PLAIN),
        "heat_explicit": (L.heat_explicit, (r.normal(size=7),), 0, PLAIN),
        "dead_saves_chain": (L.dead_saves_chain, (r.normal(size=3),), 0, PLAIN),
        "momentum_outer": (L.momentum_outer, (W, X), 0, PLAIN),
        "nested_outer_rows": (L.nested_outer_rows, (W, X), 0, PLAIN),
    }


def _misc(r):
    X = r.normal(size=(6, 3))
    xs = np.array([-1.7, -0.6, 0.3, 0.8, 1.4, -0.2])
    ypm = np.sign(r.normal(size=6))
    return {
        "gaussian_nll": (M.gaussian_nll, (np.array([0.1, -0.2, 0.3, -0.1]), r.normal(size=5)), 0, SCALAR),
        "spring_chain": (M.spring_chain, (1.3, np.array([0.0, 1.2, 1.9, 3.1])), 0, FLOAT),
        "spring_chain_pos": (M.spring_chain, (1.3, np.array([0.0, 1.2, 1.9, 3.1])), 1, SCALAR),
        "layer_loss": (M.layer_loss, (r.normal(size=6), r.normal(size=3)), 0, SCALAR),
        "map_objective": (M.map_objective, (r.normal(size=3), X, r.normal(size=6)), 0, SCALAR),
        "huber_piecewise": (M.huber_piecewise, (xs,), 0, SCALAR),
        "softplus_piecewise": (M.softplus_piecewise, (xs,), 0, SCALAR),
        "piecewise_scaled": (M.piecewise_scaled, (xs, 0.7), 1, FLOAT),
        "piecewise_scaled_x": (M.piecewise_scaled, (xs, 0.7), 0, SCALAR),
        "mlp_custom_act": (M.mlp_custom_act, (r.normal(size=6), X), 0, SCALAR),
        "logreg_custom": (M.logreg_custom, (r.normal(size=3), X, ypm), 0, SCALAR),
        "plain_straight": (M.plain_straight, (r.normal(size=3), r.normal(size=3)), 0, PLAIN),
        "plain_straight_y": (M.plain_straight, (r.normal(size=3), r.normal(size=3)), 1, PLAIN),
        "plain_range_sim": (M.plain_range_sim, (0.4, 2.0), 0, FLOAT + ("grad_plain",)),
        "plain_range_sim_k": (M.plain_range_sim, (0.4, 2.0), 1, FLOAT + ("grad_plain",)),
        "plain_rnn": (M.plain_rnn, (0.5 * r.normal(size=(3, 3)), r.normal(size=(4, 3))), 0, PLAIN),
        "plain_branch": (M.plain_branch, (r.normal(size=4),), 0, PLAIN),
    }


def _hard(r):
    W = 0.5 * r.normal(size=(2, 3))
    X = r.normal(size=(5, 3))
    FP = FLOAT + ("grad_plain",)
    return {
        "outer_read_in_loop": (H.outer_read_in_loop, (W, X), 0, PLAIN),
        "outer_minus_self": (H.outer_minus_self, (r.normal(size=3), X), 0, PLAIN),
        "outer_into_slice": (H.outer_into_slice, (W, X), 0, PLAIN),
        "outer_conditional_scale": (H.outer_conditional_scale, (W, X), 0, PLAIN),
        "outer_break_after_read": (H.outer_break_after_read, (W, X), 0, SCALAR),
        "buffer_reused": (H.buffer_reused, (r.normal(size=4),), 0, PLAIN),
        "while_continue_mix": (H.while_continue_mix, (np.abs(r.normal(size=3)),), 0, SCALAR),
        "kalman_scalar": (H.kalman_scalar, (0.3, r.normal(size=6)), 0, FP),
        "standardized_energy": (H.standardized_energy, (r.normal(size=5),), 0, SCALAR),
        "orbit_energy": (H.orbit_energy, (1.4,), 0, FLOAT),
        "box_penalty": (H.box_penalty, (r.normal(size=3),), 0, SCALAR),
        "piecewise_args_c": (H.piecewise_args, (np.array([-1.2, -0.3, 0.4, 0.9]), 0.8), 1, FLOAT),
        "piecewise_args_x": (H.piecewise_args, (np.array([-1.2, -0.3, 0.4, 0.9]), 0.8), 0, SCALAR),
        "piecewise_constant": (H.piecewise_constant, (np.array([-1.6, -0.4, 0.2, 0.7, 1.3]),), 0, SCALAR),
        "robust_regression_loop": (H.robust_regression_loop, (r.normal(size=3), X, 2 * r.normal(size=5)), 0, SCALAR),
        "plain_inplace": (H.plain_inplace, (r.normal(size=3),), 0, PLAIN),
        "plain_stepped_range": (H.plain_stepped_range, (0.7, 1.3), 0, FP),
        "plain_stepped_range_a": (H.plain_stepped_range, (0.7, 1.3), 1, FP),
        "plain_branch_in_loop": (H.plain_branch_in_loop, (r.normal(size=3),), 0, PLAIN),
        "plain_array_index_loop": (H.plain_array_index_loop, (r.normal(size=5),), 0, PLAIN),
    }


def _edge(r):
    W = 0.5 * r.normal(size=(2, 3))
    X = r.normal(size=(4, 3))
    return {
        "outer_in_data": (E.outer_in_data, (X, W), 0, PLAIN),
        "epochs_manual_backprop": (E.epochs_manual_backprop, (W, X, 0.5 * r.normal(size=(4, 2))), 0, SCALAR),
        "growing_slices": (E.growing_slices, (r.normal(size=4),), 0, PLAIN),
        "stop_on_value": (E.stop_on_value, (0.4,), 0, FLOAT),
        "outer_two_accumulators": (E.outer_two_accumulators, (W, X), 0, PLAIN),
        "leaky_keyword": (E.leaky_keyword, (r.normal(size=3), X), 0, SCALAR),
        "leaky_default": (E.leaky_default, (r.normal(size=3), X), 0, SCALAR),
        "alias_rows": (E.alias_rows, (W, X), 0, ("grad", "jvp", "hvp_fr")),
        "outer_of_w_row": (E.outer_of_W_row, (W, X), 0, PLAIN),
        "outer_of_w_row_x": (E.outer_of_W_row, (W, X), 1, ("grad", "jvp", "hvp_fr")),
        "acc_then_modified": (E.acc_returned_then_modified, (W, X), 0, PLAIN),
        "outer_multiply_acc": (E.outer_multiply_acc, (W, X), 0, PLAIN),
        "outer_stride": (E.outer_stride, (W, X), 0, PLAIN),
        "outer_reversed": (E.outer_reversed, (W, X), 0, PLAIN),
        "outer_reversed_x": (E.outer_reversed, (W, X), 1, ("grad", "jvp", "hvp_fr")),
    }


def all_cases():
    r = rng("red38 cases")
    out = {}
    for part in (_loops, _misc, _hard, _edge):
        out.update(part(r))
    return out
