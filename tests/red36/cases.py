"""red36's cases: (function, arguments, the argument differentiated, checks). Scalar
outputs get grad, jvp, hvp by both routes and hessian; vector outputs jvp, jacfwd and
jacrev; float arguments grad of grad; container arguments hessian_tree."""
import numpy as np

from tests.gradcheck import rng
from tests.red36 import programs_ml as M
from tests.red36 import programs_opt as O
from tests.red36 import programs_sim as S
from tests.red36 import programs_stats as T

SCALAR = ("grad", "jvp", "hvp", "hvp_fr", "hessian")
VECTOR = ("jvp", "jacfwd", "jacrev")
FLOAT = ("grad", "jvp", "hvp", "hvp_fr", "gog")
TREE = ("grad", "jvp", "hvp", "hvp_fr", "hessian_tree")


def _ml(r):
    X = r.normal(size=(8, 3)) * 0.7
    X4 = r.normal(size=(4, 4)) * 0.5
    ypm = np.sign(r.normal(size=8))
    labels = np.array([0, 2, 1, 1, 0, 2, 2, 0])
    mdn = {"w1": r.normal(size=4), "b1": 0.1 * r.normal(size=4), "w2": 0.5 * r.normal(size=(4, 6))}
    enc = {"Wm": 0.5 * r.normal(size=(3, 2)), "Wv": 0.3 * r.normal(size=(3, 2)),
           "Wd": 0.5 * r.normal(size=(2, 3))}
    gru = {k: 0.5 * r.normal(size=(3, 2) if k[0] == "W" else (3, 3))
           for k in ("Wz", "Uz", "Wr", "Ur", "Wh", "Uh")}
    xs = [r.normal(size=2) for _ in range(3)]
    Ws = [0.5 * r.normal(size=(3, 3)) for _ in range(2)]
    bs = [0.1 * r.normal(size=3) for _ in range(2)]
    return {
        "multihead_attention": (M.multihead_attention, (0.5 * r.normal(size=(4, 4)), X4, 0.5 * r.normal(size=(4, 4)), 0.5 * r.normal(size=(4, 4))), 0, SCALAR),
        "multihead_attention_X": (M.multihead_attention, (0.5 * r.normal(size=(4, 4)), X4, 0.5 * r.normal(size=(4, 4)), 0.5 * r.normal(size=(4, 4))), 1, SCALAR),
        "causal_attention": (M.causal_attention, (r.normal(size=(3, 2)),), 0, VECTOR),
        "prenorm_block": (M.prenorm_block, (r.normal(size=(4, 3)), r.normal(size=(3, 4)), 1 + 0.1 * r.normal(size=4), 0.1 * r.normal(size=4)), 0, SCALAR),
        "prenorm_gamma": (M.prenorm_block, (r.normal(size=(4, 3)), r.normal(size=(3, 4)), 1 + 0.1 * r.normal(size=4), 0.1 * r.normal(size=4)), 2, SCALAR),
        "layer_norm_vec": (M.layer_norm, (r.normal(size=(2, 3)), np.ones(3), np.zeros(3)), 0, VECTOR),
        "rms_norm_loss": (M.rms_norm_loss, (1 + 0.1 * r.normal(size=4), r.normal(size=(3, 4))), 0, SCALAR),
        "rms_norm_X": (M.rms_norm_loss, (1 + 0.1 * r.normal(size=4), r.normal(size=(3, 4))), 1, SCALAR),
        "mdn_nll": (M.mdn_nll, (mdn, r.normal(size=6), r.normal(size=6)), 0, TREE),
        "vae_elbo": (M.vae_elbo, (enc, r.normal(size=(4, 3)), r.normal(size=(4, 2))), 0, TREE),
        "gru_loss": (M.gru_loss, (gru, xs), 0, ("grad", "jvp", "hvp", "hvp_fr")),
        "conv2d_loop": (M.conv2d_loop, (r.normal(size=(2, 2)), r.normal(size=(4, 4))), 0, SCALAR),
        "conv2d_loop_img": (M.conv2d_loop, (r.normal(size=(2, 2)), r.normal(size=(3, 4))), 1, SCALAR),
        "conv1d_strided": (M.conv1d_strided, (r.normal(size=3), r.normal(size=7)), 0, VECTOR),
        "conv1d_strided_x": (M.conv1d_strided, (r.normal(size=3), r.normal(size=7)), 1, VECTOR),
        "conv1d_as_strided": (M.conv1d_as_strided, (r.normal(size=3), r.normal(size=7)), 0, ("grad", "jvp")),
        "mlp_input_grad": (M.mlp_input_grad, (r.normal(size=3),), 0, SCALAR),
        "adam_unrolled": (M.adam_unrolled, (r.normal(size=3), X, r.normal(size=8)), 0, SCALAR),
        "label_smoothing": (M.label_smoothing, (r.normal(size=(3, 3)), X, labels), 0, SCALAR),
        "kl_logits": (M.kl_divergence_logits, (r.normal(size=4), r.normal(size=4)), 0, SCALAR),
        "kl_logits_b": (M.kl_divergence_logits, (r.normal(size=4), r.normal(size=4)), 1, SCALAR),
        "gelu_mlp": (M.gelu_mlp, (r.normal(size=(3, 4)), r.normal(size=3)), 0, SCALAR),
        "swish_lambda": (M.swish_lambda, (r.normal(size=3), X), 0, SCALAR),
        "partial_activation": (M.partial_activation, (r.normal(size=3), X), 0, SCALAR),
        "maxout": (M.maxout, (r.normal(size=(3, 4)), X[:5]), 0, SCALAR),
        "residual_stack": (M.residual_stack, (Ws, r.normal(size=3)), 1, VECTOR),
        "residual_stack_W": (M.residual_stack, (Ws, r.normal(size=3)), 0, ("jvp", "jac_tree")),
        "weight_decay_dict": (M.weight_decay_dict, ({"w": r.normal(size=3), "b": 0.2}, X, r.normal(size=8)), 0, TREE),
        "triplet_loss": (M.triplet_loss, (r.normal(size=(5, 2)), np.array([0, 1, 2]), np.array([3, 4, 0]), np.array([1, 2, 3])), 0, SCALAR),
        "ntxent": (M.ntxent, (r.normal(size=(4, 3)),), 0, SCALAR),
        "pool_avg_max": (M.pool_avg_max, (r.normal(size=(4, 3)),), 0, VECTOR),
        "positional_encoding": (M.positional_encoding_loss, (r.normal(size=3),), 0, SCALAR),
        "ranking_loss": (M.ranking_loss, (r.normal(size=4), np.array([0.3, 2.0, 1.0, -1.0])), 0, SCALAR),
        "knowledge_distill": (M.knowledge_distill, (r.normal(size=(3, 3)), X[:4], r.normal(size=(4, 3))), 0, SCALAR),
        "dict_of_losses": (M.dict_of_losses, (r.normal(size=3), X, r.normal(size=8)), 0, SCALAR),
        "zip_layers": (M.zip_layers, (Ws, bs, r.normal(size=3)), 2, SCALAR),
        "zip_layers_Ws": (M.zip_layers, (Ws, bs, r.normal(size=3)), 0, ("grad", "jvp", "hvp", "hvp_fr")),
        "batch_loop_mean": (M.batch_loop_mean, (r.normal(size=3), X, ypm), 0, SCALAR),
        "embedding_bag": (M.embedding_bag, (r.normal(size=(5, 3)), [np.array([0, 1]), np.array([2, 4, 4])]), 0, SCALAR),
    }


def _sim(r):
    return {
        "rk4_oscillator": (S.rk4_oscillator, (np.array([1.0, 0.3]),), 0, VECTOR),
        "rk4_omega": (S.rk4_omega, (1.3,), 0, FLOAT),
        "adaptive_euler": (S.adaptive_euler, (np.array([0.5, -0.3, 0.8]),), 0, SCALAR),
        "decay_until": (S.decay_until_threshold, (1.3,), 0, FLOAT),
        "projectile_range": (S.projectile_range, (10.0,), 0, FLOAT),
        "particles_soft": (S.particles_soft, (np.array([0.0, 0.0, 1.1, 0.2, 0.3, 1.0, 1.2, 1.3]),), 0, SCALAR),
        "particles_vectorised": (S.particles_vectorised, (r.normal(size=(4, 2)),), 0, SCALAR),
        "velocity_verlet": (S.velocity_verlet, (r.normal(size=2), r.normal(size=2)), 0, VECTOR),
        "velocity_verlet_p": (S.velocity_verlet, (r.normal(size=2), r.normal(size=2)), 1, VECTOR),
        "verlet_energy": (S.verlet_energy_drift, (r.normal(size=2),), 0, SCALAR),
        "finite_volume_upwind": (S.finite_volume_upwind, (r.normal(size=5),), 0, VECTOR),
        "burgers_godunov": (S.burgers_godunov, (r.normal(size=5),), 0, SCALAR),
        "lax_wendroff": (S.lax_wendroff, (r.normal(size=5),), 0, VECTOR),
        "bodies_energy": (S.bodies_energy, (r.normal(size=4),), 0, SCALAR),
        "spring_chain": (S.spring_chain, (np.array([0.0, 0.0, 1.2, 0.1, 2.0, 0.9, 2.5, 2.0]),), 0, SCALAR),
        "heat_implicit": (S.heat_implicit, (r.normal(size=4),), 0, VECTOR),
        "crank_nicolson_r": (S.crank_nicolson_r, (0.4,), 0, FLOAT),
        "shooting_residual": (S.shooting_residual, (1.2,), 0, FLOAT),
        "cellular_smooth": (S.cellular_smooth, (r.normal(size=16),), 0, VECTOR),
        "pendulum_period": (S.pendulum_period, (0.5,), 0, FLOAT),
        "orbit_leapfrog": (S.orbit_leapfrog, (0.9,), 0, FLOAT),
        "sir_model": (S.sir_model, (np.array([2.0, 0.3]),), 0, SCALAR),
        "mass_spring_damper": (S.mass_spring_damper_matrix, (2.0,), 0, FLOAT),
        "reflecting_walls": (S.reflecting_walls, (0.35,), 0, FLOAT),
        "particle_list_update": (S.particle_list_update, (r.normal(size=6),), 0, SCALAR),
    }


def _stats(r):
    X = r.normal(size=(8, 3)) * 0.5
    yb = (r.uniform(size=8) < 0.5).astype(float)
    counts = r.poisson(2.0, size=8).astype(float)
    pos = np.abs(r.normal(size=8)) + 0.3
    Xg = r.normal(size=(5, 2))
    u = r.uniform(0.1, 0.9, size=(5, 2))
    return {
        "gamma_glm": (T.gamma_glm_log_link, (0.3 * r.normal(size=3), X, pos), 0, SCALAR),
        "negbin_glm": (T.negbin_glm, (0.3 * r.normal(size=3), X, counts), 0, SCALAR),
        "probit_nll": (T.probit_nll, (0.5 * r.normal(size=3), X, yb), 0, SCALAR),
        "probit_logcdf": (T.probit_logcdf, (0.5 * r.normal(size=3), X, 2 * yb - 1), 0, SCALAR),
        "gp_cholesky_nll": (T.gp_cholesky_nll, (np.array([0.1, 0.2, -1.0]), Xg, r.normal(size=5)), 0, SCALAR),
        "gp_predict_mean": (T.gp_predict_mean, (r.normal(size=(2, 2)), Xg, r.normal(size=5)), 0, VECTOR),
        "gp_predict_y": (T.gp_predict_mean, (r.normal(size=(2, 2)), Xg, r.normal(size=5)), 2, VECTOR),
        "gp_variance": (T.gp_variance, (r.normal(size=(2, 2)), Xg), 0, VECTOR),
        "gp_slogdet": (T.gp_slogdet, (0.2, Xg, r.normal(size=5)), 0, FLOAT),
        "hierarchical": (T.hierarchical_logdensity, (r.normal(size=5) * 0.5, r.normal(size=3), np.array([1.0, 0.5, 2.0])), 0, SCALAR),
        "banana_logp": (T.banana_logp, (r.normal(size=2),), 0, SCALAR),
        "mala_logq": (T.mala_proposal_logq, (r.normal(size=2),), 0, SCALAR),
        "hmc_leapfrog": (T.hmc_leapfrog_logp, (r.normal(size=2), r.normal(size=2)), 0, SCALAR),
        "hmc_leapfrog_p": (T.hmc_leapfrog_logp, (r.normal(size=2), r.normal(size=2)), 1, SCALAR),
        "dirichlet_multinomial": (T.dirichlet_multinomial, (0.3 * r.normal(size=3), np.array([3.0, 0.0, 5.0])), 0, SCALAR),
        "student_t_scipy": (T.student_t_scipy, (np.array([0.2, -0.1]), r.normal(size=6)), 0, SCALAR),
        "beta_logpdf_scipy": (T.beta_logpdf_scipy, (np.array([0.3, 0.5]), r.uniform(0.1, 0.9, size=5)), 0, SCALAR),
        "lognormal_mle": (T.lognormal_mle, (np.array([0.1, -0.2]), pos), 0, SCALAR),
        "expit_logit_chain": (T.expit_logit_chain, (r.normal(size=4),), 0, SCALAR),
        "xlogy_entropy": (T.xlogy_entropy, (r.normal(size=4),), 0, SCALAR),
        "bessel_vonmises": (T.bessel_vonmises, (0.3, r.uniform(-3, 3, size=5)), 0, FLOAT),
        "ordinal_logit": (T.ordinal_logit, (np.array([0.5, 0.1]), r.normal(size=6), np.array([0, 1, 2, 1, 0, 2])), 0, SCALAR),
        "zero_inflated_poisson": (T.zero_inflated_poisson, (np.array([-0.5, 0.4]), counts), 0, SCALAR),
        "mixture_em_q": (T.mixture_em_q, (np.array([-1.0, 1.0]), r.normal(size=6)), 0, SCALAR),
        "robust_cauchy": (T.robust_cauchy, (r.normal(size=3), X, r.normal(size=8)), 0, SCALAR),
        "weighted_lstsq": (T.weighted_ls_lstsq, (1 + 0.2 * r.uniform(size=8), X, r.normal(size=8)), 0, VECTOR),
        "ridge_closed_form": (T.ridge_closed_form, (0.5, X, r.normal(size=8)), 0, FLOAT),
        "bayes_linreg_evidence": (T.bayes_linreg_evidence, (0.2, X[:5, :2], r.normal(size=5)), 0, FLOAT),
        "kde_loglik": (T.kde_loglik, (-0.5, r.normal(size=3), r.normal(size=6)), 0, FLOAT),
        "copula_gauss": (T.copula_gauss, (0.3, u), 0, FLOAT),
        "mvn_logpdf_mean": (T.mvn_logpdf_scipy_mean, (r.normal(size=2), r.normal(size=(4, 2))), 0, SCALAR),
        "logsumexp_mixture": (T.logsumexp_mixture, (r.normal(size=3), r.normal(size=6)), 0, SCALAR),
        "expm_propagator": (T.expm_propagator, (np.array([0.7, 1.3]),), 0, SCALAR),
        "huber_scipy": (T.huber_scipy, (r.normal(size=3), X, r.normal(size=8) * 2), 0, SCALAR),
        "erf_quantile_loss": (T.erf_quantile_loss, (0.3, r.normal(size=5)), 0, FLOAT),
        "gammainc_cdf": (T.gammainc_cdf, (0.2, pos), 0, ("grad", "jvp")),
        "ar1_stationary": (T.ar1_stationary, (np.array([0.4, -0.2]), r.normal(size=7)), 0, SCALAR),
        "bootstrap_fixed": (T.bootstrap_fixed_weights, (0.3, r.normal(size=6)), 0, FLOAT),
    }


def _opt(r):
    X = r.normal(size=(6, 3)) * 0.7
    x6 = np.array([0.4, -0.7, 1.1, -0.2, 0.6, 0.9])
    return {
        "backtracking": (O.backtracking_quadratic, (np.array([0.8, -0.6]),), 0, SCALAR),
        "newton_sqrt": (O.newton_sqrt, (2.0,), 0, FLOAT + ("gog3",)),
        "newton_inner_solve": (O.newton_inner_solve, (np.array([1.5, 2.5]),), 0, SCALAR),
        "gd_inner": (O.gradient_descent_inner, (r.normal(size=3), X, r.normal(size=6)), 0, SCALAR),
        "projected_gd": (O.projected_gd, (np.array([0.1, 0.3, -0.2]),), 0, SCALAR),
        "softmax_bisection": (O.softmax_bisection, (np.array([0.3, 1.25, -0.4, 0.9]),), 0, SCALAR),
        "golden_section": (O.golden_section, (0.7,), 0, FLOAT),
        "trust_region": (O.trust_region_step, (np.array([0.8, -0.5]),), 0, SCALAR),
        "fixed_point_while": (O.fixed_point_while, (0.8,), 0, FLOAT),
        "lbfgs_two_loop": (O.lbfgs_two_loop, (r.normal(size=3), [r.normal(size=3) for _ in range(2)], [r.normal(size=3) + 2 for _ in range(2)]), 0, VECTOR),
        "lbfgs_s": (O.lbfgs_two_loop, (r.normal(size=3), [r.normal(size=3) for _ in range(2)], [r.normal(size=3) + 2 for _ in range(2)]), 1, ("jvp", "jac_tree")),
        "kwargs_forward": (O.kwargs_forward, (r.normal(size=3), X), 0, SCALAR),
        "star_args_fns": (O.star_args_fns, (r.normal(size=3),), 0, SCALAR),
        "partial_loss": (O.partial_loss, (r.normal(size=3), X, r.normal(size=6)), 0, SCALAR),
        "map_sorted": (O.map_sorted, (np.array([0.4, -0.7, 1.1, -0.2]),), 0, SCALAR),
        "closure_counter": (O.closure_counter, (r.normal(size=3),), 0, VECTOR),
        "inplace_copy_ops": (O.inplace_copy_ops, (r.normal(size=4),), 0, SCALAR),
        "reversed_views": (O.reversed_views, (x6,), 0, SCALAR),
        "transpose_reshape": (O.transpose_reshape, (r.normal(size=12),), 0, SCALAR),
        "dict_helper_returns": (O.dict_helper_returns, (x6[:5],), 0, SCALAR),
        "tuple_unpack_chain": (O.tuple_unpack_chain, (r.normal(size=8),), 0, SCALAR),
        "poly_class_roots": (O.poly_class_roots, (np.array([-2.0, 0.1, 1.0]),), 0, SCALAR),
        "model_built_inside": (O.model_built_inside, (r.normal(size=3), X, r.normal(size=6)), 0, SCALAR),
        "enumerate_zip": (O.enumerate_zip_weights, (r.normal(size=3), r.normal(size=3)), 0, SCALAR),
        "enumerate_zip_w": (O.enumerate_zip_weights, (r.normal(size=3), r.normal(size=3)), 1, SCALAR),
        "any_all_branch": (O.any_all_branch, (r.normal(size=4),), 0, SCALAR),
        "nested_comprehension": (O.nested_comprehension, (r.normal(size=(2, 3)),), 0, SCALAR),
        "augmented_dict_update": (O.augmented_dict_update, (r.normal(size=4),), 0, SCALAR),
        "default_args_helper": (O.default_args_helper, (r.normal(size=3),), 0, SCALAR),
        "max_builtin_key": (O.max_builtin_key, (x6,), 0, SCALAR),
        "where_clip_kinks": (O.where_clip_kinks, (np.array([0.5, -0.5, 1.3, -1.4, 0.1, -0.1]),), 0, SCALAR),
        "abs_sign_mix": (O.abs_sign_mix, (x6,), 0, SCALAR),
        "exp_moving_average": (O.exp_moving_average, (r.normal(size=4),), 0, VECTOR),
        "cumulative_ops": (O.cumulative_ops, (r.normal(size=4),), 0, VECTOR),
        "finite_diff_inside": (O.finite_diff_inside, (r.normal(size=3),), 0, VECTOR),
        "einsum_contractions": (O.einsum_contractions, (r.normal(size=12),), 0, VECTOR),
        "kron_outer_trace": (O.kron_outer_trace, (r.normal(size=3),), 0, SCALAR),
        "eigen_loss": (O.eigen_loss, (r.normal(size=9),), 0, SCALAR),
        "svd_nuclear": (O.svd_nuclear, (r.normal(size=6),), 0, SCALAR),
        "qr_orthogonal": (O.qr_orthogonal, (r.normal(size=9),), 0, SCALAR),
        "inverse_trace": (O.inverse_trace, (r.normal(size=3),), 0, SCALAR),
    }


def cases():
    r = rng("red36 cases")
    out = {}
    for part in (_ml, _sim, _stats, _opt):
        out.update(part(r))
    return out


def _more(r):
    from tests.red36 import programs_more as P
    X = r.normal(size=(6, 3)) * 0.6
    x6 = np.array([0.4, -0.7, 1.1, -0.2, 0.6, 0.9])
    return {
        "early_stopping": (P.early_stopping, (r.normal(size=3), X, r.normal(size=6)), 0, SCALAR),
        "tolerance_while": (P.tolerance_while, (1.7,), 0, FLOAT),
        "filtered_energy": (P.filtered_energy, (x6,), 0, SCALAR),
        "progress_print": (P.progress_print, (r.normal(size=3), X), 0, SCALAR),
        "namedtuple_loss": (P.namedtuple_loss, (P.Params(r.normal(size=3), 0.2), X, np.sign(r.normal(size=6))), 0, ("grad", "vg", "jvp", "hvp", "hvp_fr")),
        "inherited_call": (P.inherited_call, (0.5 * r.normal(size=(2, 3)), r.normal(size=3)), 0, SCALAR),
        "itertools_accumulate": (P.itertools_accumulate, (r.normal(size=4),), 0, SCALAR),
        "pairwise_distances": (P.pairwise_distances, (r.normal(size=6),), 0, SCALAR),
        "iter_next": (P.iter_next, (r.normal(size=4),), 0, SCALAR),
        "generator_zip": (P.generator_zip, (r.normal(size=4), r.normal(size=4)), 0, SCALAR),
        "generator_zip_w": (P.generator_zip, (r.normal(size=4), r.normal(size=4)), 1, SCALAR),
        "dict_comprehension": (P.dict_comprehension_loss, (r.normal(size=3),), 0, SCALAR),
        "sorted_key_lambda": (P.sorted_key_lambda, (x6,), 0, SCALAR),
        "math_module": (P.math_module, (0.7,), 0, FLOAT),
        "static_class_methods": (P.static_and_class_methods, (r.normal(size=3),), 0, SCALAR),
        "while_else": (P.while_else_flag, (r.normal(size=3),), 0, SCALAR),
        "nested_loops_break": (P.nested_loops_break, (r.normal(size=4),), 0, SCALAR),
        "local_def_loop_test": (P.local_def_in_loop_test, (np.array([2.0, 3.0, 0.5]),), 0, VECTOR),
        "kwargs_helper_call": (P.kwargs_helper_call, (r.normal(size=3),), 0, SCALAR),
        "two_lambdas_swap": (P.two_lambdas_swap, (np.array([0.5, 0.3, -0.1]),), 0, SCALAR),
        "ode_event_bisect": (P.ode_event_bisect, (6.0,), 0, FLOAT),
    }


def all_cases():
    out = cases()
    out.update(_more(rng("red36 more")))
    return out
