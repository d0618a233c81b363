"""red41's cases: (function, arguments, the argument differentiated, checks), red40's
check names (tests/red40/check.py): array arguments with scalar outputs get SCALAR,
float arguments FLOAT, vector-valued outputs VECTOR."""
import numpy as np

from tests.gradcheck import rng
from tests.red41 import programs_bio as B
from tests.red41 import programs_eng as E
from tests.red41 import programs_fin as F
from tests.red41 import programs_habits as H
from tests.red41 import programs_ml as M
from tests.red41 import programs_phys as P
from tests.red41 import programs_stats as T

SCALAR = ("grad", "vg", "vjp", "jvp", "jacfwd", "jacrev", "hvp", "hvp_fr", "hvp_auto", "hessian",
          "hessian_fr", "jacfwd_grad", "jacrev_grad", "grad_plain")
FLOAT = ("grad", "vg", "vjp", "jvp", "hvp", "hvp_fr", "hvp_auto", "gog", "gog3", "grad_plain")
VECTOR = ("vjp", "jvp", "jacfwd", "jacrev")


def _bio(r):
    t = np.array([0.5, 1.0, 2.0, 4.0, 6.0, 8.0, 12.0])
    c = B.bateman(B.PKParams(1.2, 0.2, 20.0), t) * np.exp(0.1 * r.normal(size=7))
    conc = np.array([0.1, 0.3, 1.0, 3.0, 10.0])
    obs = r.normal(size=8).cumsum() * 0.3
    pats = [(0, 0, 0), (0, 1, 0), (2, 2, 3), (1, 1, 1), (3, 0, 3)]
    return {
        "pk_oral_fit": (B.pk_oral_fit, (np.log(np.array([1.0, 0.25, 18.0])), t, c), 0, SCALAR),
        "pk_rk4_multidose": (B.pk_rk4_multidose, (np.log(np.array([0.8, 0.3])), r.uniform(2, 8, size=14)), 0, SCALAR),
        "pk_two_compartment_expm": (B.pk_two_compartment_expm, (np.log(np.array([0.3, 0.5, 0.2])), np.array([0.5, 1.0, 3.0])), 0, SCALAR),
        "hill_dose_response": (B.hill_dose_response, (np.array([1.0, 0.0, 0.2, -1.0]), conc, conc / (1 + conc) + 0.05 * r.normal(size=5)), 0, SCALAR),
        "michaelis_menten_euler": (B.michaelis_menten_euler, (0.9,), 0, FLOAT),
        "wright_fisher_selection": (B.wright_fisher_selection, (0.3,), 0, FLOAT),
        "mutation_selection": (B.mutation_selection_balance, (np.log(0.01),), 0, FLOAT),
        "leslie_growth_rate": (B.leslie_growth_rate, (np.log(np.array([0.2, 1.1, 0.9])), np.array([0.6, 0.4])), 0, SCALAR),
        "leslie_eig": (B.leslie_eig, (np.log(np.array([0.2, 1.1, 0.9])), np.array([0.6, 0.4])), 0, SCALAR),
        "jukes_cantor_pair": (B.jukes_cantor_pair, (np.log(0.2), 80.0, 20.0), 0, FLOAT),
        "jukes_cantor_three_taxa": (B.jukes_cantor_three_taxa, (np.log(np.array([0.1, 0.2, 0.15])), pats, [10, 3, 2, 8, 1]), 0, SCALAR),
        "hmm_forward_loglik": (B.hmm_forward_loglik, (np.array([1.0, 0.5, -0.5, 0.8]), obs), 0, SCALAR),
        "hmm_scaled_forward": (B.hmm_scaled_forward, (np.array([1.0, 0.5, -0.5, 0.8]), obs), 0, SCALAR),
        "fitzhugh_nagumo": (B.fitzhugh_nagumo, (np.array([0.7, 0.8, 0.08]),), 0, SCALAR),
        "hardy_weinberg": (B.hardy_weinberg_inbreeding, (np.array([0.3, 0.2]), np.array([30.0, 40.0, 30.0])), 0, SCALAR),
        "logistic_growth_fit": (B.logistic_growth_fit, (np.log(np.array([0.5, 10.0, 1.0])), np.arange(8.0), 10 / (1 + 9 * np.exp(-0.6 * np.arange(8.0)))), 0, SCALAR),
        "pk_auc_scipy": (B.pk_auc_scipy, (np.log(np.array([1.2, 0.2, 20.0])), t), 0, SCALAR),
        "life_expectancy": (B.life_expectancy, (np.array([0.9, 0.85, 0.8, 0.6, 0.3, 0.0]),), 0, SCALAR),
        "sir_age_structured": (B.sir_age_structured, (np.log(0.5), np.array([[2.0, 0.5], [0.5, 1.0]])), 0, FLOAT),
    }


def _eng(r):
    nodes = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    bars = [(0, 1), (0, 2), (1, 3), (2, 3), (0, 3), (1, 2)]
    X3 = np.column_stack([r.normal(size=(6, 2)), r.uniform(4, 6, size=6)])
    om = np.array([0.1, -0.2, 0.15])
    uv = 500 * (X3 @ E.rodrigues(om).T + 0.1)[:, :2] / (X3 @ E.rodrigues(om).T + 0.1)[:, 2:3]
    A = np.array([[1.0, 0.1], [0.0, 1.0]])
    return {
        "fem_bar_loop": (E.fem_bar_loop, (0.3 * r.normal(size=5),), 0, SCALAR),
        "fem_bar_add_at": (E.fem_bar_add_at, (0.3 * r.normal(size=4), r.uniform(0.5, 1.5, size=4)), 0, SCALAR),
        "fem_poisson_source": (E.fem_poisson_source, (r.normal(size=6),), 0, SCALAR),
        "truss_compliance": (E.truss_compliance, (r.uniform(0.5, 1.5, size=6), nodes, bars, [2, 3, 6, 7], np.array([0.0, -1.0, 0.5, -1.0])), 0, SCALAR),
        "truss_nodes": (E.truss_compliance, (r.uniform(0.5, 1.5, size=6), nodes + 0.05 * r.normal(size=(4, 2)), bars, [2, 3, 6, 7], np.array([0.0, -1.0, 0.5, -1.0])), 1, SCALAR),
        "arm_forward_kinematics": (E.arm_forward_kinematics, (np.array([0.3, 0.5, -0.4]),), 0, VECTOR),
        "arm_ik_loss": (E.arm_ik_loss, (np.array([0.3, 0.5, -0.4]), np.array([1.2, 1.1])), 0, SCALAR),
        "dh_chain": (E.dh_chain, (np.array([0.3, -0.5, 0.9]),), 0, SCALAR),
        "quaternion_rotate_loss": (E.quaternion_rotate_loss, (np.array([0.9, 0.1, -0.2, 0.3]), r.normal(size=(3, 3)), r.normal(size=(3, 3))), 0, SCALAR),
        "rodrigues": (E.rodrigues, (om,), 0, VECTOR),
        "reprojection_error": (E.reprojection_error, (np.array([0.12, -0.18, 0.1, 0.1, 0.12, 0.08]), X3, uv + r.normal(size=uv.shape)), 0, SCALAR),
        "bezier_length": (E.bezier_length, (np.array([0.0, 0.0, 0.3, 1.0, 0.8, 1.2, 1.0, 0.1]),), 0, SCALAR),
        "gauss_legendre_integral": (E.gauss_legendre_integral, (np.array([0.7, 2.3]),), 0, SCALAR),
        "lqr_riccati_cost": (E.lqr_riccati_cost, (np.array([0.0, -0.5]), A, np.array([[0.0], [0.1]]), np.array([1.0, -0.5])), 0, SCALAR),
        "neo_hookean_strain": (E.neo_hookean_strain, (0.1 * r.normal(size=9),), 0, SCALAR),
        "beam_deflection_modes": (E.beam_deflection_modes, (2.0,), 0, FLOAT),
        "hazen_williams_network": (E.hazen_williams_network, (np.log(np.array([0.2, 0.15, 0.1, 0.12])),), 0, SCALAR),
        "spring_network_energy": (E.spring_network_energy, (np.array([0.0, 0.0, 1.1, 0.1, 0.3, 0.9, 1.2, 1.0]),), 0, SCALAR),
    }


def _ml(r):
    X = r.normal(size=(3, 4))
    X6 = r.normal(size=(6, 3))
    lab = np.array([0, 2, 1, 1, 0, 2])
    tokens = r.integers(0, 5, size=8)
    rows, cols = r.integers(0, 4, size=10), r.integers(0, 5, size=10)
    P = r.uniform(size=(4, 4))
    P = P + P.T
    np.fill_diagonal(P, 0)
    P = P / P.sum() + np.eye(4)
    return {
        "transformer_block": (M.transformer_block, (0.4 * r.normal(size=112), X), 0, SCALAR),
        "transformer_block_x": (M.transformer_block, (0.4 * r.normal(size=112), X), 1, SCALAR),
        "smoothed_cross_entropy": (M.smoothed_cross_entropy, (0.5 * r.normal(size=(3, 3)), X6, lab), 0, SCALAR),
        "conv1d_convolve": (M.conv1d_convolve, (0.5 * r.normal(size=6), r.normal(size=(2, 8)), r.normal(size=6)), 0, SCALAR),
        "conv1d_convolve_x": (M.conv1d_convolve, (0.5 * r.normal(size=6), r.normal(size=(2, 8)), r.normal(size=6)), 1, SCALAR),
        "conv1d_windows": (M.conv1d_windows, (0.5 * r.normal(size=18), r.normal(size=(2, 6))), 0, SCALAR),
        "maxpool_net": (M.maxpool_net, (r.normal(size=7), r.normal(size=10)), 0, SCALAR),
        "skipgram_negative": (M.skipgram_negative_sampling, (0.5 * r.normal(size=(5, 3)), 0.5 * r.normal(size=(5, 3)), [0, 2, 4], [1, 3, 0], [np.array([2, 3]), np.array([0, 1]), np.array([1, 2])]), 0, SCALAR),
        "embedding_scatter": (M.embedding_scatter, (0.5 * r.normal(size=(5, 3)), tokens, r.normal(size=3)), 0, SCALAR),
        "matrix_factorisation": (M.matrix_factorisation, (0.3 * r.normal(size=27), rows, cols, r.normal(size=10)), 0, SCALAR),
        "tsne_kl": (M.tsne_kl, (r.normal(size=8), P), 0, SCALAR),
        "soft_dtw": (M.soft_dtw, (r.normal(size=4), r.normal(size=5)), 0, SCALAR),
        "crf_log_likelihood": (M.crf_log_likelihood, (0.5 * r.normal(size=15), r.normal(size=(5, 2)), np.array([0, 1, 1, 2, 0])), 0, SCALAR),
        "rbm_free_energy": (M.rbm_free_energy, (0.5 * r.normal(size=19), (r.uniform(size=(5, 4)) < 0.5).astype(float)), 0, SCALAR),
        "gumbel_softmax": (M.gumbel_softmax_loss, (r.normal(size=4), -np.log(-np.log(r.uniform(size=(6, 4)))), np.array([1.0, -1.0, 2.0, 0.5])), 0, SCALAR),
        "mixture_of_experts": (M.mixture_of_experts, (0.5 * r.normal(size=18), X6, r.normal(size=6)), 0, SCALAR),
        "distillation_loss": (M.distillation_loss, (0.5 * r.normal(size=(3, 3)), X6, r.normal(size=(6, 3)), lab), 0, SCALAR),
        "batchnorm_train": (M.batchnorm_train, (r.normal(size=9), X6), 0, SCALAR),
        "diffusion_denoise": (M.diffusion_denoise_loss, (0.5 * r.normal(size=5), r.normal(size=(6, 2)), r.normal(size=(6, 2)), np.array([1, 3, 5, 7, 9, 2])), 0, SCALAR),
    }


def _stats(r):
    Xg = r.uniform(0, 3, size=(6, 1))
    yg = np.sin(2 * Xg[:, 0]) + 0.1 * r.normal(size=6)
    X = np.column_stack([np.ones(8), 0.5 * r.normal(size=8)])
    yc = np.array([1.0, 0.0, 3.0, 2.0, 1.0, 4.0, 0.0, 2.0])
    resp = (r.uniform(size=(5, 3)) < 0.6).astype(float)
    Xc = r.normal(size=(6, 3, 2))
    Xn = r.normal(size=(5, 4, 2))
    groups = np.array([0, 0, 0, 1, 1, 2, 2, 2])
    pts = r.uniform(size=(5, 2))
    yb = r.uniform(0.1, 0.9, size=8)
    counts = np.array([[3.0, 1, 4], [2, 2, 1], [0, 5, 2]])
    x_pos = r.gamma(2.0, 1.5, size=10)
    idx = [r.integers(0, 6, size=6) for _ in range(4)]
    return {
        "gp_loglik_triangular": (T.gp_loglik_triangular, (np.log(np.array([0.8, 1.0, 0.2])), Xg, yg), 0, SCALAR),
        "gp_loglik_triangular_X": (T.gp_loglik_triangular, (np.log(np.array([0.8, 1.0, 0.2])), Xg, yg), 1, SCALAR),
        "gp_predictive_mean": (T.gp_predictive_mean, (np.log(np.array([0.8, 1.0, 0.3])), Xg[:, 0], yg, np.array([0.5, 1.5, 2.5])), 0, SCALAR),
        "kalman_loglik": (T.kalman_loglik, (np.log(np.array([0.3, 0.5])), np.cumsum(r.normal(size=10))), 0, SCALAR),
        "kalman_loglik_y": (T.kalman_loglik, (np.log(np.array([0.3, 0.5])), np.cumsum(r.normal(size=10))), 1, SCALAR),
        "kalman_2d": (T.kalman_2d, (np.array([-1.0, 0.0]), np.cumsum(np.cumsum(0.3 * r.normal(size=8)))), 0, SCALAR),
        "irt_2pl": (T.irt_2pl, (0.3 * r.normal(size=11), resp), 0, SCALAR),
        "multinomial_logit": (T.multinomial_logit_choice, (np.array([0.5, -0.3]), Xc, np.array([0, 2, 1, 1, 0, 2])), 0, SCALAR),
        "nested_logit": (T.nested_logit, (np.array([0.5, -0.3, 0.4, 0.8]), Xn, np.array([0, 3, 1, 2, 2])), 0, SCALAR),
        "random_intercept": (T.random_intercept_marginal, (np.array([0.2, 0.5, -0.5, -1.0]), r.normal(size=8), groups, X), 0, SCALAR),
        "variogram_fit": (T.variogram_fit, (np.log(np.array([0.1, 1.0, 0.5])), np.linspace(0.1, 2, 8), 0.1 + 0.9 * (1 - np.exp(-np.linspace(0.1, 2, 8) / 0.6)) + 0.02 * r.normal(size=8), np.arange(10.0, 18.0)), 0, SCALAR),
        "ordinary_kriging": (T.ordinary_kriging, (np.log(0.5), pts, r.normal(size=5), np.array([0.4, 0.6])), 0, FLOAT),
        "ordinary_kriging_x0": (T.ordinary_kriging, (np.log(0.5), pts, r.normal(size=5), np.array([0.4, 0.6])), 3, SCALAR),
        "beta_regression": (T.beta_regression, (np.array([0.1, 0.3, 1.5]), X, yb), 0, SCALAR),
        "dirichlet_multinomial": (T.dirichlet_multinomial, (np.log(np.array([1.0, 2.0, 0.5])), counts), 0, SCALAR),
        "arma11_css": (T.arma11_css, (np.array([0.4, 0.2]), np.cumsum(r.normal(size=10)) * 0.3), 0, SCALAR),
        "poisson_offset_newton": (T.poisson_offset_newton, (np.array([0.1, 0.1]), X, yc, np.log(r.uniform(0.5, 2, size=8))), 0, SCALAR),
        "hurdle_poisson": (T.hurdle_poisson, (np.array([-0.5, 0.2, 0.3, 0.1]), X, yc), 0, SCALAR),
        "skew_normal_nll": (T.skew_normal_nll, (np.array([0.1, 0.2, 1.5]), r.normal(size=8)), 0, SCALAR),
        "gamma_mixture": (T.gamma_mixture_em_step, (np.array([0.2, 0.5, 1.0]), x_pos), 0, SCALAR),
        "bootstrap_mean_var": (T.bootstrap_mean_var, (0.3 * r.normal(size=6), r.normal(size=6), idx), 0, SCALAR),
    }


def _phys(r):
    return {
        "ising_mean_field": (P.ising_mean_field, (0.2,), 0, FLOAT),
        "ising_inhomogeneous": (P.ising_inhomogeneous, (0.3 * r.normal(size=6),), 0, SCALAR),
        "potts_mean_field": (P.potts_mean_field, (0.5 * r.normal(size=12),), 0, SCALAR),
        "xy_lattice_energy": (P.xy_lattice_energy, (r.uniform(-np.pi, np.pi, size=16),), 0, SCALAR),
        "energy_balance": (P.energy_balance, (np.array([0.6, 0.3]),), 0, SCALAR),
        "lens_system_focus": (P.lens_system_focus, (np.array([0.5, -0.4]),), 0, SCALAR),
        "fabry_perot": (P.fabry_perot, (1.3, np.linspace(0.5, 0.7, 9)), 0, FLOAT),
        "implicit_heat_banded": (P.implicit_heat_banded, (0.05, np.sin(np.linspace(0.3, 3, 7))), 0, FLOAT),
        "implicit_heat_banded_u0": (P.implicit_heat_banded, (0.05, np.sin(np.linspace(0.3, 3, 7))), 1, SCALAR),
        "implicit_heat_dense": (P.implicit_heat_dense, (0.05, np.sin(np.linspace(0.3, 3, 7))), 0, FLOAT),
        "two_stream_radiative": (P.two_stream_radiative, (0.7,), 0, FLOAT),
        "debye_huckel": (P.debye_huckel_energy, (np.array([1.0, -1.0, 0.5, -0.5]), np.array([0.0, 0.7, 1.9, 2.6])), 1, SCALAR),
        "partition_levels": (P.partition_function_levels, (1.3,), 0, FLOAT),
        "schottky": (P.heat_capacity_two_level, (0.6,), 0, FLOAT),
        "brownian_fixed_noise": (P.brownian_harmonic_fixed_noise, (1.5, r.normal(size=20)), 0, FLOAT),
    }


def _fin(r):
    strikes = np.array([0.8, 0.9, 1.1, 1.2])
    mats = np.array([0.5, 1, 2, 3, 5, 7, 10])
    return {
        "mc_call_seeded": (F.mc_call_seeded, (np.array([1.0, 0.2]),), 0, SCALAR),
        "mc_digital_smoothed": (F.mc_digital_smoothed, (0.25,), 0, FLOAT),
        "merton_jump_mc": (F.merton_jump_mc, (np.array([0.2, 0.5, -0.1, 0.15]), r.normal(size=40), r.poisson(0.5, size=40).astype(float), r.normal(size=40)), 0, SCALAR),
        "sabr_calibration": (F.sabr_calibration, (np.array([np.log(0.2), -0.3, np.log(0.4)]), strikes, np.array([0.25, 0.22, 0.19, 0.185])), 0, SCALAR),
        "nelson_siegel_fit": (F.nelson_siegel_fit, (np.array([0.04, -0.02, 0.01, 0.5]), mats, 0.04 - 0.02 * np.exp(-mats / 2)), 0, SCALAR),
        "cir_bond_price": (F.cir_bond_price, (np.array([0.5, 0.04, 0.1]),), 0, SCALAR),
        "cds_par_spread": (F.cds_par_spread, (np.log(np.array([0.01, 0.015, 0.02, 0.03])), np.array([1.0, 2.0, 3.0, 5.0])), 0, SCALAR),
        "bachelier_portfolio": (F.bachelier_portfolio, (np.array([8.0, 10.0, 12.0]), np.array([95.0, 100.0, 108.0])), 0, SCALAR),
        "binomial_tree_call": (F.binomial_tree_call, (0.25,), 0, FLOAT),
        "kelly_growth": (F.kelly_growth, (np.array([0.2, 0.1]), np.array([[1.0, 0.5], [-1.0, 0.2], [0.3, -1.0]]), np.array([0.4, 0.35, 0.25])), 0, SCALAR),
        "discount_curve_interp": (F.discount_curve_interp, (np.array([0.01, 0.015, 0.02, 0.025]), np.array([0.5, 1.0, 3.0, 10.0]), np.array([0.7, 1.5, 2.2, 4.0, 8.0]), np.array([2.0, 2, 2, 2, 102])), 0, SCALAR),
        "swap_annuity_loop": (F.swap_annuity_loop, (np.array([0.02, 0.025, 0.03, 0.032, 0.035]),), 0, SCALAR),
        "svi_arbitrage": (F.vol_surface_arbitrage, (np.array([0.04, 0.4, -0.4, 0.0, 0.2]), np.linspace(-0.5, 0.5, 5)), 0, SCALAR),
    }


def _habits(r):
    x = np.array([0.7, -0.4, 1.2, 0.3, -0.9, 0.5])
    return {
        "reduce_product_chain": (H.reduce_product_chain, (0.5 * x[:4],), 0, SCALAR),
        "accumulate_smooth_max": (H.accumulate_running_max_smooth, (x,), 0, SCALAR),
        "map_lambda_features": (H.map_lambda_features, (x,), 0, SCALAR),
        "sorted_key_weights": (H.sorted_key_weights, (x,), 0, SCALAR),
        "namedtuple_replace": (H.namedtuple_replace, (x[:3],), 0, SCALAR),
        "dataclass_replace": (H.dataclass_replace, (x[:3], r.normal(size=(4, 3))), 0, SCALAR),
        "callable_class_static": (H.callable_class_static, (x[:4], np.array([0.3, -0.5, 0.9])), 0, SCALAR),
        "dict_comprehension": (H.dict_comprehension_params, (x,), 0, SCALAR),
        "array_of_scalar_list": (H.array_of_scalar_list, (x,), 0, SCALAR),
        "enumerate_start_reversed": (H.enumerate_start_reversed, (x,), 0, SCALAR),
        "math_on_floats": (H.math_on_floats, (0.7,), 0, FLOAT),
        "walrus_and_ternary": (H.walrus_and_ternary, (x,), 0, SCALAR),
        "assert_and_errstate": (H.assert_and_errstate, (x,), 0, SCALAR),
        "stack_list_of_rows": (H.stack_list_of_rows, (x,), 0, SCALAR),
        "ravel_reshape": (H.ravel_reshape, (x,), 0, SCALAR),
        "star_args_helper": (H.star_args_helper, (x,), 0, SCALAR),
        "kwargs_defaults_helper": (H.kwargs_defaults_helper, (x,), 0, SCALAR),
        "global_constant_scale": (H.global_constant_scale, (x,), 0, SCALAR),
        "closure_counter": (H.closure_counter, (x,), 0, SCALAR),
        "in_place_slices_on_copy": (H.in_place_slices_on_copy, (x,), 0, SCALAR),
        "early_return_loop": (H.early_return_loop, (np.abs(x) + 0.5,), 0, SCALAR),
        "zip_pairs": (H.zip_strict_pairs, (x,), 0, SCALAR),
        "max_of_floats": (H.max_of_floats, (0.9,), 0, FLOAT),
        "print_progress_loop": (H.print_progress_loop, (x,), 0, SCALAR),
    }


def all_cases():
    r = rng("red41 cases")
    out = {}
    for part in (_bio, _eng, _ml, _stats, _phys, _fin, _habits):
        out.update(part(r))
    return out
