"""red40's cases: (function, arguments, the argument differentiated, checks). Scalar
outputs of arrays get grad, value_and_grad, jvp, jacfwd, jacrev, hvp by its three
routes, hessian by both routes, jacfwd/jacrev of grad and grad(lowering="plain"); float
arguments grad, value_and_grad, jvp, hvp by three routes, grad of grad (and grad^3) and
the plain lowering; float32 arguments jvp, grad and hvp in float32."""
import numpy as np

from tests.gradcheck import rng
from tests.red40 import programs_fin as F
from tests.red40 import programs_habits as H
from tests.red40 import programs_ml as M
from tests.red40 import programs_signal as G
from tests.red40 import programs_sim as S
from tests.red40 import programs_stats as T

SCALAR = ("grad", "vg", "vjp", "jvp", "jacfwd", "jacrev", "hvp", "hvp_fr", "hvp_auto", "hessian",
          "hessian_fr", "jacfwd_grad", "jacrev_grad", "grad_plain")
FLOAT = ("grad", "vg", "vjp", "jvp", "hvp", "hvp_fr", "hvp_auto", "gog", "gog3", "grad_plain")
F32 = ("jvp32", "grad32", "hvp32")


def _ml(r):
    X = r.normal(size=(4, 3))
    xs = r.normal(size=(4, 2))
    X6 = r.normal(size=(6, 3))
    yb = (r.uniform(size=6) < 0.5).astype(float)
    Xb = (r.uniform(size=(5, 3)) < 0.5).astype(float)
    return {
        "causal_attention_mask": (M.causal_attention_mask, (0.5 * r.normal(size=18), X), 0, SCALAR),
        "attention_temperature": (M.attention_temperature, (0.7, r.normal(size=3), r.normal(size=(4, 3)), r.normal(size=(4, 2))), 0, FLOAT),
        "rotary_loss": (M.rotary_loss, (0.5 * r.normal(size=32), r.normal(size=(3, 4))), 0, SCALAR),
        "layer_norm_class": (M.layer_norm_class, (np.concatenate([1 + 0.2 * r.normal(size=3), 0.1 * r.normal(size=3)]), X), 0, SCALAR),
        "layer_norm_input": (M.layer_norm_input, (X, np.array([1.0, 0.8, 1.2])), 0, SCALAR),
        "lstm_sequence": (M.lstm_sequence, (0.5 * r.normal(size=40), xs), 0, SCALAR),
        "gru_dict_params": (M.gru_dict_params, (0.5 * r.normal(size=24), xs), 0, SCALAR),
        "mdn_mixture_nll": (M.mdn_mixture_nll, (0.4 * r.normal(size=44), r.normal(size=5), r.normal(size=5)), 0, SCALAR),
        "vae_elbo_reparam": (M.vae_elbo_reparam, (0.3 * r.normal(size=22), Xb, r.normal(size=(5, 2))), 0, SCALAR),
        "infonce": (M.infonce, (r.normal(size=6), r.normal(size=(4, 3)), r.normal(size=(4, 3))), 0, SCALAR),
        "margin_contrastive": (M.margin_contrastive, (0.5 * r.normal(size=6), r.normal(size=(5, 3)), r.normal(size=(5, 3)), np.array([1.0, 0, 1, 0, 0])), 0, SCALAR),
        "focal_partial": (M.focal_partial, (0.5 * r.normal(size=3), X6, yb), 0, SCALAR),
        "weight_norm_layer": (M.weight_norm_layer, (r.normal(size=6), X), 0, SCALAR),
        "swiglu_ffn": (M.swiglu_ffn, (0.5 * r.normal(size=18), X), 0, SCALAR),
        "cross_entropy_take": (M.cross_entropy_take, (r.normal(size=9), X6, np.array([0, 2, 1, 1, 0, 2])), 0, SCALAR),
        "beta_vae_schedule": (M.beta_vae_schedule, (0.4 * r.normal(size=9), X, r.normal(size=(4, 1))), 0, SCALAR),
        "dropout_fixed_mask": (M.dropout_fixed_mask, (0.5 * r.normal(size=8), X, np.array([[1.0, 0.0], [1, 1], [0, 1], [1, 1]])), 0, SCALAR),
    }


def _sim(r):
    grid = np.array([0.0, 0.0, 1.1, 0.1, 0.2, 1.05, 3.3, 0.2, 2.2, 1.3])
    u0 = np.sin(np.linspace(0, np.pi, 9)) + 0.1 * r.normal(size=9)
    return {
        "nbody_cutoff_masked": (S.nbody_cutoff_masked, (grid,), 0, SCALAR),
        "nbody_cutoff_loops": (S.nbody_cutoff_loops, (grid,), 0, SCALAR),
        "heat_explicit_profile": (S.heat_explicit_profile, (u0,), 0, SCALAR),
        "heat_explicit_alpha": (S.heat_explicit_alpha, (0.3, u0), 0, FLOAT),
        "heat_periodic_2d": (S.heat_periodic_2d, (0.1, r.normal(size=(4, 5))), 0, FLOAT),
        "spring_damped_euler": (S.spring_damped_euler, (np.array([3.0, 0.4]),), 0, SCALAR),
        "spring_chain_rk4": (S.spring_chain_rk4, (0.5 * r.normal(size=6),), 0, SCALAR),
        "sir_fit_rk4": (S.sir_fit_rk4, (np.log(np.array([0.9, 0.3])), np.array([0.02, 0.04, 0.07, 0.1, 0.13])), 0, SCALAR),
        "seir_while": (S.seir_while, (0.8,), 0, FLOAT),
        "butcher_rk": (S.butcher_rk, (np.array([0.5, 0.1]),), 0, SCALAR),
        "lotka_midpoint": (S.lotka_midpoint, (np.array([1.0, 0.5, 0.8, 0.3]), np.array([1.2, 0.8])), 0, SCALAR),
        "lotka_midpoint_y0": (S.lotka_midpoint, (np.array([1.0, 0.5, 0.8, 0.3]), np.array([1.2, 0.8])), 1, SCALAR),
        "wave_leapfrog": (S.wave_leapfrog, (0.9, np.sin(np.linspace(0, np.pi, 7))), 0, FLOAT),
        "advection_diffusion": (S.advection_diffusion, (1 + 0.3 * r.normal(size=8),), 0, SCALAR),
        "projectile_drag": (S.projectile_drag, (6.0,), 0, FLOAT),
        "nbody_leapfrog_softened": (S.nbody_leapfrog_softened, (np.array([0.0, 0.0, 1.0, 0.2, -0.3, 0.9]),), 0, SCALAR),
        "langevin_fixed_noise": (S.langevin_fixed_noise, (np.array([0.8, -0.4, 1.1]), r.normal(size=(6, 3))), 0, SCALAR),
    }


def _stats(r):
    X = np.column_stack([np.ones(8), 0.5 * r.normal(size=(8, 2))])
    yc = np.array([1.0, 0.0, 3.0, 2.0, 1.0, 4.0, 0.0, 2.0])
    yb = (r.uniform(size=8) < 0.5).astype(float)
    x = r.standard_t(4, size=10)
    Xg = r.uniform(0, 2, size=(6, 1))
    yg = np.sin(3 * Xg[:, 0]) + 0.1 * r.normal(size=6)
    y8 = np.array([28.0, 8, -3, 7, -1, 1, 18, 12])
    return {
        "poisson_exposure": (T.poisson_exposure, (0.2 * r.normal(size=3), X, yc, r.uniform(0.5, 2, size=8)), 0, SCALAR),
        "gamma_glm_inverse": (T.gamma_glm_inverse, (np.array([1.0, 0.1, -0.1]), X, r.gamma(2.0, 0.5, size=8)), 0, SCALAR),
        "negbin_log_alpha": (T.negbin_log_alpha, (np.array([0.3, 0.2, -0.1, -0.5]), X, yc), 0, SCALAR),
        "probit_stats": (T.probit_stats, (0.4 * r.normal(size=3), X, yb), 0, SCALAR),
        "student_t_by_hand": (T.student_t_by_hand, (np.array([0.1, 0.2, np.log(4.0)]), x), 0, SCALAR),
        "student_t_stats": (T.student_t_stats, (np.array([0.1, 0.2]), x), 0, SCALAR),
        "t_regression_nu": (T.t_regression_nu, (3.5, X, r.normal(size=8), np.array([0.1, 0.5, -0.3])), 0, FLOAT),
        "noncentered_hierarchy": (T.noncentered_hierarchy, (0.3 * r.normal(size=10), y8, np.array([15.0, 10, 16, 11, 9, 11, 10, 18])), 0, SCALAR),
        "hierarchy_method": (T.hierarchy_method, (0.3 * r.normal(size=5), np.array([0, 1, 2, 0, 1, 2, 2]), r.normal(size=7)), 0, SCALAR),
        "kde_loo_bandwidth": (T.kde_loo_bandwidth, (0.5, r.normal(size=7)), 0, FLOAT),
        "kde_density_points": (T.kde_density_points, (r.normal(size=3), r.normal(size=8)), 0, SCALAR),
        "gp_marginal_np": (T.gp_marginal_np, (np.log(np.array([0.5, 1.0, 0.3])), Xg, yg), 0, SCALAR),
        "gp_marginal_np_y": (T.gp_marginal_np, (np.log(np.array([0.5, 1.0, 0.3])), Xg, yg), 2, SCALAR),
        "gp_matern_scipy": (T.gp_matern_scipy, (np.log(np.array([0.7, 0.3])), Xg, yg), 0, SCALAR),
        "gp_cho_solve": (T.gp_cho_solve, (np.log(np.array([0.8, 2.5])), Xg[:, 0], yg), 0, SCALAR),
        "weibull_censored": (T.weibull_censored, (np.array([0.3, 0.1]), r.weibull(1.5, size=8) + 0.1, np.array([1.0, 1, 0, 1, 0, 1, 1, 0])), 0, SCALAR),
        "quantile_smooth": (T.quantile_smooth, (0.3 * r.normal(size=3), X, r.normal(size=8)), 0, SCALAR),
        "garch11_nll": (T.garch11_nll, (np.log(np.array([0.1, 0.1, 0.8])), r.normal(size=8)), 0, SCALAR),
        "mc_marginal_fixed_draws": (T.mc_marginal_fixed_draws, (np.array([0.2, -0.5]), r.normal(size=5), r.normal(size=20)), 0, SCALAR),
        "cauchy_location_scale": (T.cauchy_location_scale, (np.array([0.1, 0.2]), x), 0, SCALAR),
        "ar2_conditional": (T.ar2_conditional, (np.array([0.5, -0.2]), np.cumsum(r.normal(size=9))), 0, SCALAR),
        "bayes_logreg_prior": (T.bayes_logreg_prior, (0.3 * r.normal(size=3), X, yb), 0, SCALAR),
        "zero_truncated_poisson": (T.zero_truncated_poisson, (0.4, np.array([1.0, 2, 1, 3, 1, 4])), 0, FLOAT),
    }


def _fin(r):
    z = r.normal(size=200)
    Z = r.normal(size=(40, 6))
    A = r.normal(size=(4, 4))
    cov = A @ A.T / 4 + 0.1 * np.eye(4)
    R = 0.01 * r.normal(size=(12, 4)) + 0.002
    paths = np.exp(np.cumsum(0.1 * r.normal(size=(10, 5)), axis=1))
    paths = np.column_stack([np.ones(10), paths])
    return {
        "mc_european": (F.mc_european, (np.array([1.05, 0.25]), z), 0, SCALAR),
        "mc_asian": (F.mc_asian, (0.3, Z), 0, FLOAT),
        "mc_basket": (F.mc_basket, (np.array([0.2, 0.3, 0.25]), r.normal(size=(60, 3)), np.array([[1.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 1.0]])), 0, SCALAR),
        "mc_barrier_smoothed": (F.mc_barrier_smoothed, (0.25, Z), 0, FLOAT),
        "heston_euler": (F.heston_euler, (np.array([1.5, 0.05, 0.3]), r.normal(size=(30, 5)), r.normal(size=(30, 5))), 0, SCALAR),
        "bs_vega_portfolio": (F.bs_vega_portfolio, (np.array([0.2, 0.25, 0.3]), np.array([0.9, 1.0, 1.1])), 0, SCALAR),
        "implied_vol": (F.implied_vol, (0.05,), 0, FLOAT),
        "portfolio_variance_softmax": (F.portfolio_variance_softmax, (r.normal(size=4), cov), 0, SCALAR),
        "mean_variance_utility": (F.mean_variance_utility, (np.full(4, 0.25), np.array([0.05, 0.07, 0.03, 0.06]), cov), 0, SCALAR),
        "sharpe_ratio": (F.sharpe_ratio, (np.array([0.3, 0.2, 0.4, 0.1]), R), 0, SCALAR),
        "risk_parity": (F.risk_parity, (np.array([0.3, 0.2, 0.4, 0.1]), cov), 0, SCALAR),
        "cvar_smoothed": (F.cvar_smoothed, (np.array([0.3, 0.2, 0.4, 0.1, 0.01]), R), 0, SCALAR),
        "bond_duration": (F.bond_duration, (0.04,), 0, FLOAT),
        "vasicek_discount": (F.vasicek_discount, (np.array([0.5, 0.04, 0.01]), r.normal(size=(20, 8))), 0, SCALAR),
        "ewma_vol": (F.ewma_vol, (0.94, 0.01 * r.normal(size=10)), 0, FLOAT),
        "delta_hedge_pnl": (F.delta_hedge_pnl, (0.2, paths), 0, FLOAT),
    }


def _signal(r):
    x = r.normal(size=12)
    t = np.linspace(0, 1, 20)
    return {
        "fir_design_loss": (G.fir_design_loss, (r.normal(size=3), x, r.normal(size=12)), 0, SCALAR),
        "iir_first_order": (G.iir_first_order, (0.6, x), 0, FLOAT),
        "iir_biquad_inplace": (G.iir_biquad_inplace, (np.array([0.5, 0.3, -0.4]), x), 0, SCALAR),
        "lfilter_scipy": (G.lfilter_scipy, (np.array([0.5, 0.3]), x), 0, SCALAR),
        "dft_matrix_power": (G.dft_matrix_power, (x[:8],), 0, SCALAR),
        "rfft_power": (G.rfft_power, (x[:8],), 0, SCALAR),
        "autocorrelation": (G.autocorrelation, (x,), 0, SCALAR),
        "correlate_np": (G.correlate_np, (x, np.array([1.0, -0.5, 0.25])), 0, SCALAR),
        "hann_spectrum_peak": (G.hann_spectrum_peak, (4.3,), 0, FLOAT),
        "savgol_by_lstsq": (G.savgol_by_lstsq, (x,), 0, SCALAR),
        "tv_denoise": (G.tv_denoise, (x, x + 0.1 * r.normal(size=12)), 0, SCALAR),
        "chirp_fit": (G.chirp_fit, (np.array([2.0, 1.0, 0.3]), t, np.sin(2 * np.pi * (2.1 * t + 0.4 * t * t))), 0, SCALAR),
        "sinusoid_ls": (G.sinusoid_ls, (np.array([1.0, 5.0, 0.5]), t, np.cos(5.2 * t) * np.exp(-0.4 * t)), 0, SCALAR),
        "matched_filter": (G.matched_filter_softargmax, (0.3, r.normal(size=10), np.array([0.0, 1.0, 0.5, -0.2])), 0, FLOAT),
        "moving_average_cumsum": (G.moving_average_cumsum, (x,), 0, SCALAR),
        "wiener_gain": (G.wiener_gain, (0.4, r.uniform(0.5, 2.0, size=6)), 0, FLOAT),
        "polyphase_decimate": (G.polyphase_decimate, (r.normal(size=4), x), 0, SCALAR),
    }


def _habits(r):
    x = np.array([0.7, -0.4, 1.2, 0.3, -0.9, 0.5])
    X, y = r.normal(size=(6, 3)), r.normal(size=6)
    X32 = X.astype(np.float32)
    yb = (r.uniform(size=6) < 0.5).astype(np.float32)
    return {
        "standardise_tuple": (H.standardise_tuple, (x,), 0, SCALAR),
        "dict_summary": (H.dict_summary, (x,), 0, SCALAR),
        "polynomial_class": (H.polynomial_class, (np.array([0.5, -0.3, 0.2, 0.1]), np.linspace(-1, 1, 5)), 0, SCALAR),
        "star_args_sum": (H.star_args_sum, (x,), 0, SCALAR),
        "partial_chain": (H.partial_chain, (x,), 0, SCALAR),
        "lambda_dict_dispatch": (H.lambda_dict_dispatch, (x,), 0, SCALAR),
        "early_return_norm": (H.early_return_norm, (x,), 0, SCALAR),
        "while_break_series": (H.while_break_series, (0.5 * x,), 0, SCALAR),
        "inplace_on_copy": (H.inplace_on_copy, (x,), 0, SCALAR),
        "print_progress": (H.print_progress, (0.1 * r.normal(size=3), X, y), 0, SCALAR),
        "scaler_classmethod": (H.scaler_classmethod, (X, np.array([0.5, -0.3, 0.8])), 0, SCALAR),
        "views_and_slices": (H.views_and_slices, (r.normal(size=12),), 0, SCALAR),
        "kwargs_splat_call": (H.kwargs_splat_call, (x,), 0, SCALAR),
        "stateful_accumulator": (H.stateful_accumulator, (x,), 0, SCALAR),
        "enumerate_weights": (H.enumerate_weights, (x,), 0, SCALAR),
        "nested_tuple_return": (H.nested_tuple_return, (x,), 0, SCALAR),
        "min_builtin_of_arrays": (H.min_builtin_of_arrays, (x,), 0, SCALAR),
        "float32_logreg": (H.float32_logreg, (r.normal(size=3).astype(np.float32), X32, yb), 0, F32),
        "float32_mlp": (H.float32_mlp, (r.normal(size=6).astype(np.float32), X32), 0, F32),
        "float32_layer_norm": (M.layer_norm_class, (np.concatenate([1 + 0.2 * r.normal(size=3), 0.1 * r.normal(size=3)]).astype(np.float32), X32[:4]), 0, F32),
        "float32_heat": (S.heat_explicit_profile, (np.sin(np.linspace(0, 3, 7)).astype(np.float32),), 0, F32),
        "float32_portfolio": (F.portfolio_variance_softmax, (r.normal(size=3).astype(np.float32), (np.eye(3) + 0.1).astype(np.float32)), 0, F32),
    }


def all_cases():
    r = rng("red40 cases")
    out = {}
    for part in (_ml, _sim, _stats, _fin, _signal, _habits):
        out.update(part(r))
    return out
