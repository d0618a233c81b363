"""red39's cases: (function, arguments, the argument differentiated, checks). Scalar
outputs of arrays get grad, jvp, jacfwd, jacrev, hvp by its three routes and hessian by
both routes (plus grad_plain where the plain lowering applies); float arguments grad of
grad; vector outputs jvp, jacfwd and jacrev."""
import numpy as np

from tests.gradcheck import rng
from tests.red39 import programs_alias as A
from tests.red39 import programs_habits as H
from tests.red39 import programs_impl as I
from tests.red39 import programs_lib as B
from tests.red39 import programs_nn as N
from tests.red39 import programs_ops as O
from tests.red39 import programs_phys as P
from tests.red39 import programs_records as R
from tests.red39 import programs_solvers as V
from tests.red39 import programs_stats as S

SCALAR = ("grad", "jvp", "jacfwd", "jacrev", "hvp", "hvp_fr", "hvp_auto", "hessian",
          "hessian_fr", "jacfwd_grad", "jacrev_grad")
PLAIN = SCALAR + ("grad_plain",)
FLOAT = ("grad", "jvp", "hvp", "hvp_fr", "hvp_auto", "gog", "gog3")
FLOAT_PLAIN = FLOAT + ("grad_plain",)
VECTOR = ("jvp", "jacfwd", "jacrev")
TUPLE = ("hessian_tuple", "hvp_tuple")
RECORD = ("grad", "jvp", "hvp", "hvp_fr", "hvp_auto", "hessian_tree")
F32 = ("jvp32", "grad32", "hvp32")


def _stats(r):
    X = 0.6 * r.normal(size=(8, 3))
    yb = (r.uniform(size=8) < 0.5).astype(float)
    yc = np.array([1.0, 0.0, 3.0, 2.0, 1.0, 4.0, 0.0, 2.0])
    w = 0.3 * r.normal(size=3)
    t = np.linspace(0.0, 2.0, 7)
    ydec = 2.0 * np.exp(-0.7 * t) + 0.05 * r.normal(size=7)
    C = r.uniform(size=(3, 4))
    a, b = np.array([0.2, 0.5, 0.3]), np.array([0.1, 0.4, 0.3, 0.2])
    P_ = r.dirichlet([2.0, 3.0, 4.0], size=5)
    return {
        "logreg_newton_step": (S.logreg_newton_step, (w, X, yb), 0, PLAIN),
        "poisson_irls": (S.poisson_irls, (0.1 * w, X, yc), 0, SCALAR),
        "poisson_nll": (S.poisson_nll, (w, X, yc), 0, PLAIN),
        "laplace_evidence": (S.laplace_evidence, (w, X, yb), 0, SCALAR),
        "laplace_predictive": (S.laplace_predictive, (w, X, yb, np.array([0.3, -0.5, 1.0])), 0, SCALAR),
        "gauss_newton_exp": (S.gauss_newton_exp, (np.array([1.8, 0.6]), t, ydec), 0, SCALAR),
        "softmax_regression": (S.softmax_regression, (r.normal(size=9), X, np.array([0, 1, 2, 1, 0, 2, 2, 1])), 0, PLAIN),
        "beta_regression": (S.beta_regression, (np.array([0.2, -0.1, 0.3, 1.5]), X, r.uniform(0.1, 0.9, size=8)), 0, SCALAR),
        "eight_schools": (S.eight_schools, (0.3 * r.normal(size=10), 10 * r.normal(size=8), np.array([15.0, 10, 16, 11, 9, 11, 10, 18])), 0, PLAIN),
        "kalman_2d": (S.kalman_2d, (0.3, np.cumsum(r.normal(size=6))), 0, FLOAT),
        "arma11": (S.arma11, (np.array([0.5, -0.3]), r.normal(size=7)), 0, PLAIN),
        "logreg_fit_lam": (S.logreg_fit_lam, (0.7, X, yb), 0, FLOAT),
        "poisson_backtracking": (S.poisson_backtracking, (w, X, yc), 0, SCALAR),
        "cox_partial": (S.cox_partial, (w, X), 0, PLAIN),
        "bradley_terry": (S.bradley_terry, (0.3 * r.normal(size=4), np.array([0, 1, 2, 0, 3, 1]), np.array([1, 2, 3, 2, 0, 3])), 0, PLAIN),
        "dirichlet_nll": (S.dirichlet_nll, (np.array([0.2, 0.5, 0.9]), P_), 0, PLAIN),
        "mvn_tril": (S.mvn_tril, (0.3 * r.normal(size=6), r.normal(size=(5, 3))), 0, SCALAR),
        "sinkhorn_eps": (S.sinkhorn_cost, (0.4, C, a, b), 0, FLOAT),
        "sinkhorn_cost": (S.sinkhorn_cost_c, (C.reshape(-1), a, b), 0, SCALAR),
        "glm_partial": (S.glm_partial, (w, X, yb), 0, SCALAR),
    }


def _phys(r):
    tet = np.array([0.0, 0.0, 0.0, 1.1, 0.1, 0.0, 0.5, 1.0, 0.1, 0.4, 0.3, 0.95])
    water = np.array([0.0, 0.0, 0.0, 0.95, 0.05, 0.0, -0.25, 0.93, 0.02])
    pos2 = np.array([0.0, 0.0, 1.1, 0.1, 0.4, 0.9, 1.3, 1.2])
    return {
        "lj_cluster": (P.lj_cluster, (tet,), 0, SCALAR),
        "water_energy": (P.water_energy, (water,), 0, PLAIN),
        "morse_pairs": (P.morse_pairs, (pos2,), 0, PLAIN),
        "coulomb_columns": (P.coulomb_columns, (pos2, P.Charges(np.array([1.0, -1.0, 0.5, -0.5]))), 0, SCALAR),
        "force_matching": (P.force_matching, (np.array([0.0, 1.1, 1.9, 3.2]), 0.1 * r.normal(size=4)), 0, PLAIN),
        "rotor_energy": (P.rotor_energy, (0.4, r.normal(size=(3, 2))), 0, FLOAT_PLAIN),
        "pendulum_fit": (P.pendulum_fit, (np.array([9.0, 1.1, 0.2]), 0.8 * np.cos(3 * np.linspace(0, 2, 11))), 0, SCALAR),
        "pendulum_y0": (P.pendulum_y0, (np.array([0.7, -0.2]),), 0, SCALAR),
        "kepler_trajectory": (P.kepler_trajectory, (np.array([1.0, 0.0, 0.0, 1.1]),), 0, VECTOR),
        "symplectic_while": (P.symplectic_while, (2.0,), 0, FLOAT),
        "damped_until_quiet": (P.damped_until_quiet, (0.9, np.array([1.0, 0.0])), 0, FLOAT),
        "damped_until_quiet_y0": (P.damped_until_quiet, (0.9, np.array([1.0, 0.0])), 1, SCALAR),
        "kepler_equation": (P.kepler_equation, (0.3,), 0, FLOAT),
        "spring_compliance": (P.spring_network_compliance, (np.array([1.0, 2.0, 1.5, 0.8]), np.array([0.0, 0.5, 0.0, 1.0])), 0, SCALAR),
        "heat_implicit_kappa": (P.heat_implicit_kappa, (0.3, r.normal(size=5)), 0, FLOAT),
        "normal_mode_energy": (P.normal_mode_energy, (np.array([0.0, 0.1, 1.1, -0.1, 2.0, 0.2]),), 0, PLAIN),
        "velocity_trace": (P.velocity_trace, (np.array([1.0, 3.0]),), 0, VECTOR),
        "chemical_equilibrium": (P.chemical_equilibrium, (0.5,), 0, FLOAT),
    }


def _nn(r):
    X = r.normal(size=(5, 3))
    y = r.normal(size=5)
    yb = (r.uniform(size=6) < 0.5).astype(float)
    X6 = r.normal(size=(6, 3))
    Xs, ys = r.normal(size=(6, 2)), r.normal(size=6)
    return {
        "mlp_mse": (N.mlp_mse, (0.5 * r.normal(size=21), X, y), 0, PLAIN),
        "rnn_states": (N.rnn_states, (0.5 * r.normal(size=18), r.normal(size=(4, 2))), 0, SCALAR),
        "dense_layers": (N.dense_layers, (0.5 * r.normal(size=11), X), 0, SCALAR),
        "partial_act_mlp": (N.partial_act_mlp, (0.5 * r.normal(size=6), X), 0, SCALAR),
        "lambda_stack": (N.lambda_stack, (np.array([0.8, 1.2, 0.9]), r.normal(size=4)), 0, SCALAR),
        "attention_softmax": (N.attention_softmax, (r.normal(size=3), r.normal(size=(4, 3)), r.normal(size=(4, 2))), 0, PLAIN),
        "attention_softmax_K": (N.attention_softmax, (r.normal(size=3), r.normal(size=(4, 3)), r.normal(size=(4, 2))), 1, SCALAR),
        "planar_flow": (N.planar_flow, (np.array([0.5, -0.3, 0.8, 0.4, 0.1]), r.normal(size=(5, 2))), 0, PLAIN),
        "minibatch_loss": (N.minibatch_loss, (0.3 * r.normal(size=3), X6, yb), 0, PLAIN),
        "tied_autoencoder": (N.tied_autoencoder, (0.5 * r.normal(size=6), X), 0, PLAIN),
        "unrolled_lr": (N.unrolled_lr, (0.2, X6, r.normal(size=6), X, y), 0, FLOAT_PLAIN),
        "sgd_config": (N.sgd_config, (0.1 * r.normal(size=3), X6, yb), 0, SCALAR),
        "residual_block": (N.residual_block, (0.4 * r.normal(size=18), X), 0, PLAIN),
        "gated_unit": (N.gated_unit, (np.array([0.5, -0.4, 0.9, 0.3]), r.normal(size=5)), 0, SCALAR),
        "energy_model": (N.energy_model, (np.array([0.5, 0.1, -0.2]), r.normal(size=6), np.linspace(-3, 3, 31)), 0, SCALAR),
        "star_args_network": (N.hvp_of_network, (r.normal(size=4), Xs), 0, SCALAR),
        "layer_norm_mlp": (N.layer_norm_mlp, (0.5 * r.normal(size=9), X), 0, PLAIN),
    }


def _impl(r):
    X, y = r.normal(size=(6, 3)), r.normal(size=6)
    Xv, yv = r.normal(size=(4, 3)), r.normal(size=4)
    X2, y2 = r.normal(size=(5, 2)), r.normal(size=5)
    return {
        "ridge_val": (I.ridge_val, (0.5, X, y, Xv, yv), 0, FLOAT_PLAIN),
        "ridge_targets": (I.ridge_targets, (y, X, Xv, yv), 0, PLAIN),
        "power_rayleigh": (I.power_rayleigh, (np.array([2.0, 0.3, 0.1, 1.0, 0.2, 0.5]),), 0, SCALAR),
        "cos_fixed_point": (I.cos_fixed_point, (0.8,), 0, FLOAT),
        "expm_taylor": (I.expm_taylor, (np.array([0.1, 0.7, -0.5, 0.2]),), 0, SCALAR),
        "moment_residuals": (I.moment_residuals, (np.array([0.2, -0.1]), r.normal(size=20)), 0, VECTOR),
        "bound_method": (I.Objective(X2, 0.5 * y2).value, (0.5 * r.normal(size=2),), 0, SCALAR),
        "partial_fn": (I.quartic_partial_fn(X2, y2), (r.normal(size=2),), 0, SCALAR),
        "lambda_fn": (I.lambda_closure_fn(X2), (0.5 * r.normal(size=2),), 0, SCALAR),
        "keyword_only_data": (I.keyword_only_data, (r.normal(size=2),), 0, PLAIN),
        "star_unpack": (I.star_unpack, (np.array([0.1, 0.2, 0.9, -0.1]), r.normal(size=5)), 0, SCALAR),
        "force_norm": (I.force_norm, (np.array([0.0, 1.2, 1.9, 3.1]),), 0, SCALAR),
        "inplace_rows": (I.inplace_rows, (np.array([0.7, 0.2, -0.3]), r.normal(size=(4, 2))), 0, SCALAR),
        "transpose_views": (I.transpose_views, (r.normal(size=6), r.normal(size=(4, 3))), 0, PLAIN),
        "tuple_stats_loss": (I.tuple_stats_loss, (r.normal(size=6),), 0, PLAIN),
        "newton_min_inner": (I.newton_min_inner, (0.9,), 0, FLOAT),
    }


def _ops(r):
    X = 0.7 * r.normal(size=(7, 2))
    yt = X @ np.array([0.8, -0.5]) + r.normal(size=7)
    feats = r.normal(size=(5, 3))
    return {
        "arm_reach": (O.arm_reach, (np.array([0.3, 0.5, -0.2]),), 0, PLAIN),
        "heading_error": (O.heading_error, (np.array([0.0, 0.0, 1.0, 0.3, 2.1, 0.2, 2.9, 0.9]),), 0, PLAIN),
        "interp_field": (O.interp_field, (0.13, np.array([-1.3, -0.2, 0.45, 1.1])), 0, FLOAT_PLAIN),
        "work_integral": (O.work_integral, (r.normal(size=5) * 0.3 - 1.0,), 0, PLAIN),
        "polytrend": (O.polytrend, (np.array([0.1, -0.3, 0.8]), np.linspace(-1, 1, 6), r.normal(size=6)), 0, PLAIN),
        "smooth_conv": (O.smooth_conv, (r.normal(size=6),), 0, PLAIN),
        "curvature_penalty": (O.curvature_penalty, (r.normal(size=6),), 0, PLAIN),
        "weighted_stats": (O.weighted_stats, (r.normal(size=5),), 0, PLAIN),
        "tobit_nll": (O.tobit_nll, (np.array([0.5, -0.3]), X, np.maximum(yt, 0.0)), 0, PLAIN),
        "probit_ndtr": (O.probit_ndtr, (np.array([0.5, -0.3]), X, (yt > 0).astype(float)), 0, PLAIN),
        "binomial_xlog1py": (O.binomial_xlog1py, (r.normal(size=4), np.array([2.0, 0.0, 5.0, 3.0]), np.array([5.0, 4.0, 6.0, 3.0])), 0, PLAIN),
        "policy_entropy": (O.policy_entropy, (0.5 * r.normal(size=9), feats, np.array([0, 2, 1, 1, 0])), 0, PLAIN),
        "logit_link": (O.logit_link, (np.array([0.2, 0.45, 0.7, 0.9]), r.normal(size=4)), 0, PLAIN),
        "det_volume": (O.det_volume, (r.normal(size=9),), 0, PLAIN),
        "tensordot_energy": (O.tensordot_energy, (r.normal(size=6), r.normal(size=(4, 2, 3))), 0, PLAIN),
        "survival_cumprod": (O.survival_cumprod, (r.normal(size=5),), 0, PLAIN),
        "max_min_soft": (O.max_min_soft, (np.array([0.5, -0.7, 1.3, 0.2, -0.1]),), 0, PLAIN),
        "norm_ord": (O.norm_ord, (r.normal(size=6),), 0, PLAIN),
        "power_both": (O.power_both, (np.array([1.3, 0.7]),), 0, PLAIN),
        "inv_quadratic": (O.inv_quadratic, (r.normal(size=2),), 0, PLAIN),
    }


def _alias(r):
    X = r.normal(size=(4, 3))
    W = 0.5 * r.normal(size=(3, 2))
    return {
        "view_write_column": (A.view_write_column, (np.array([0.7, -0.4]), X), 0, PLAIN),
        "transposed_view_write": (A.transposed_view_write, (r.normal(size=3),), 0, PLAIN),
        "closure_model": (A.closure_model, (np.array([1.5, 0.6, 0.2]), np.linspace(0, 2, 6), r.normal(size=6)), 0, PLAIN),
        "float_conversion": (A.float_conversion_scale, (r.normal(size=3),), 0, PLAIN),
        "item_and_tolist": (A.item_and_tolist, (np.array([0.4, 1.3, -0.8]),), 0, PLAIN),
        "rows_iterated": (A.rows_iterated, (0.5 * r.normal(size=(2, 3)), X), 0, PLAIN),
        "array_of_scalars": (A.array_of_scalars, (np.array([0.7, 1.2]),), 0, PLAIN),
        "tuple_swap": (A.tuple_swap, (r.normal(size=4),), 0, PLAIN),
        "add_at_histogram": (A.add_at_histogram, (r.normal(size=5), np.array([0, 2, 0, 1, 2])), 0, PLAIN),
        "sorted_copy_inplace": (A.sorted_copy_inplace, (np.array([0.3, -1.1, 0.8, 2.0, -0.2]),), 0, PLAIN),
        "dict_accumulate": (A.dict_accumulate, (np.array([0.5, 1.2, -0.7, 0.9]), ["a", "b", "a", "c"]), 0, PLAIN),
        "inplace_on_arg_copy": (A.inplace_on_argument_copy, (r.normal(size=4),), 0, PLAIN),
        "overlapping_iadd": (A.overlapping_iadd, (r.normal(size=5),), 0, PLAIN),
        "where_both_sides": (A.where_both_sides, (np.array([0.5, -0.7, 1.3, -0.2]),), 0, PLAIN),
        "matrix_inplace_matmul": (A.matrix_inplace_matmul, (0.3 * r.normal(size=4),), 0, PLAIN),
        "running_max_loop": (A.running_max_loop, (np.array([0.2, -0.5, 0.9, 0.4, 1.6]),), 0, PLAIN),
        "scalar_list_stack": (A.scalar_list_stack, (0.6,), 0, FLOAT_PLAIN),
        "weights_and_bias": (A.weights_and_bias, (W, 0.1 * r.normal(size=2), X, r.normal(size=4)), (0, 1), TUPLE),
        "energy_two_args": (A.energy_two_args, (np.array([0.0, 1.2, 1.9, 3.1]), 2.0), (0, 1), TUPLE),
        "energy_cross": (A.energy_two_args, (np.array([0.0, 1.2, 1.9, 3.1]), 2.0), (0, 1), ("cross", "cross_rev")),
    }


def _solvers(r):
    return {
        "thomas_loss": (V.thomas_loss, (np.array([3.0, 2.5, 3.2, 2.8]), r.normal(size=4)), 0, PLAIN),
        "thomas_loss_rhs": (V.thomas_loss, (np.array([3.0, 2.5, 3.2, 2.8]), r.normal(size=4)), 1, PLAIN),
        "cholesky_by_hand": (V.cholesky_by_hand, (0.5 * r.normal(size=9),), 0, PLAIN),
        "gauss_seidel": (V.gauss_seidel, (np.array([3.0, 4.0, 3.5, 5.0]), r.normal(size=4)), 0, PLAIN),
        "adaptive_rk": (V.adaptive_rk, (1.3,), 0, FLOAT_PLAIN),
        "implicit_euler_newton": (V.implicit_euler_newton, (0.8,), 0, FLOAT_PLAIN),
        "hmc_leapfrog": (V.hmc_leapfrog, (np.array([0.5, 0.2]), np.array([0.3, -0.4])), 0, PLAIN),
        "continued_fraction": (V.continued_fraction, (0.7,), 0, FLOAT_PLAIN),
        "stiffness_loop": (V.stiffness_loop, (np.array([1.0, 2.0, 1.5]), np.array([0.0, 0.4, 1.1, 1.5])), 0, PLAIN),
        "stiffness_nodes": (V.stiffness_loop, (np.array([1.0, 2.0, 1.5]), np.array([0.0, 0.4, 1.1, 1.5])), 1, PLAIN),
        "secant_root": (V.secant_root, (0.6,), 0, FLOAT_PLAIN),
    }


def _records(r):
    X, y = r.normal(size=(5, 3)), r.normal(size=5)
    yb = (r.uniform(size=5) < 0.5).astype(float)
    mlp = R.MLPParams(0.5 * r.normal(size=(3, 2)), 0.1 * r.normal(size=2), r.normal(size=2))
    X32 = X.astype(np.float32)
    return {
        "mlp_record": (R.mlp_record, (mlp, X, y), 0, RECORD),
        "lj_record": (R.lj_record, (R.PairPotential(1.2, 1.0), np.array([1.05, 1.3, 0.98, 1.6])), 0, RECORD),
        "logreg_dict": (R.logreg_dict, ({"w": r.normal(size=3), "b": 0.2}, X, yb), 0, RECORD),
        "logreg32": (R.logreg32, (r.normal(size=3).astype(np.float32), X32, yb.astype(np.float32)), 0, F32),
        "mlp32": (R.mlp32, (r.normal(size=6).astype(np.float32), X32), 0, F32),
    }


def _lib(r):
    t = np.linspace(0.0, 2.0, 7)
    return {
        "mode_frequencies": (B.mode_frequencies, (np.array([1.0, 2.0, 1.5]),), 0, SCALAR),
        "markov_expm": (B.markov_expm, (np.array([0.8, 1.1, 0.6]),), 0, SCALAR),
        "ivp_decay": (B.ivp_decay, (0.9,), 0, FLOAT),
        "ivp_decay_t": (B.ivp_decay_t, (0.9,), 0, FLOAT),
        "ivp_trajectory": (B.ivp_trajectory, (np.array([1.0, 0.6]),), 0, VECTOR),
        "odeint_osc": (B.odeint_osc, (np.array([1.0, 0.2]),), 0, SCALAR),
        "lstsq_gauss_newton": (B.lstsq_gauss_newton, (np.array([1.8, 0.6]), t, 2 * np.exp(-0.7 * t) + 0.05 * r.normal(size=7)), 0, SCALAR),
        "mc_elbo": (B.mc_elbo, (np.array([0.2, -0.1, -0.5, 0.3]), r.normal(size=(3, 2))), 0, SCALAR),
        "einsum_trace_energy": (B.einsum_trace_energy, (0.5 * r.normal(size=9),), 0, SCALAR),
        "nuclear_norm": (B.nuclear_norm, (r.normal(size=6),), 0, SCALAR),
    }


def _habits(r):
    x = np.array([0.7, -0.4, 1.2])
    return {name: (fn, (x,), 0, PLAIN) for name, fn in (
        ("gp_jitter_fallback", H.gp_jitter_fallback), ("errstate_ratio", H.errstate_ratio),
        ("validated", H.validated), ("warn_large", H.warn_large),
        ("none_default", H.none_default), ("early_exit_loop", H.early_exit_loop),
        ("while_else_relax", H.while_else_relax), ("match_mode", H.match_mode))}


def all_cases():
    r = rng("red39 cases")
    out = {}
    for part in (_stats, _phys, _nn, _impl, _ops, _alias, _solvers, _records, _lib, _habits):
        out.update(part(r))
    return out
