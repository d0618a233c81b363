"""red35's cases: (function, arguments, the argument differentiated, checks). Scalar
outputs get grad, jvp, hvp and hessian; vector outputs jvp, jacfwd and jacrev; float
arguments of scalar functions grad of grad; container arguments hessian_tree."""
import numpy as np

from tests.gradcheck import rng
from tests.red35 import programs_ml as M
from tests.red35 import programs_alias as A
from tests.red35 import programs_py as Y
from tests.red35 import programs_fin as F
from tests.red35 import programs_geom as G
from tests.red35 import programs_more as B
from tests.red35 import programs_sim as S
from tests.red35 import programs_stats as T

SCALAR = ("grad", "jvp", "hvp", "hessian")
VECTOR = ("jvp", "jacfwd", "jacrev")
FLOAT = ("grad", "jvp", "hvp", "gog")
TREE = ("grad", "jvp", "hvp", "hessian_tree")


def _ml(r):
    X = r.normal(size=(8, 3)) * 0.7
    yb = (r.uniform(size=8) < 0.5).astype(float)
    labels = np.array([0, 2, 1, 1, 0, 2, 2, 0])
    mlp = {"W1": r.normal(size=(3, 4)) * 0.5, "b1": r.normal(size=4) * 0.1,
           "W2": r.normal(size=(4, 1)) * 0.5, "b2": np.array([0.1])}
    small = {"W1": r.normal(size=(3, 2)) * 0.5, "b1": r.normal(size=2) * 0.1,
             "W2": r.normal(size=(2, 1)) * 0.5, "b2": np.array([0.1])}
    Xg = r.normal(size=(5, 2))
    return {
        "logreg_l2": (M.logreg_l2, (r.normal(size=3), X, yb), 0, SCALAR + ("vg", "jvp_grad")),
        "logreg_bias": (M.logreg_bias, ((r.normal(size=3), 0.2), X, yb), 0, TREE),
        "softmax_xent_aux": (M.softmax_xent_aux, (r.normal(size=(3, 3)), X, labels), 0, ("aux",)),
        "softmax_xent": (M.softmax_xent, (r.normal(size=(3, 3)), X, labels), 0, SCALAR + ("vg",)),
        "softmax_onehot": (M.softmax_onehot, (r.normal(size=(3, 3)), X, np.eye(3)[labels]), 0, SCALAR),
        "mlp_dict": (M.mlp_dict, (mlp, X, r.normal(size=8)), 0, ("grad", "vg", "jvp", "hvp")),
        "mlp_dict_hess": (M.mlp_dict, (small, X[:4], r.normal(size=4)), 0, ("hessian_tree",)),
        "mlp_dict_l2": (M.mlp_dict_l2, (mlp, X, r.normal(size=8)), 0, ("grad", "jvp", "hvp")),
        "mlp_dict_jac": (M.mlp_dict, (small, X[:4], r.normal(size=4)), 0, ("jac_tree",)),
        "mlp_flat_relu": (M.mlp_flat_relu, (r.normal(size=12), X[:, :2], r.normal(size=8)), 0, SCALAR),
        "mlp_softplus": (M.mlp_softplus, (r.normal(size=9), X[:4]), 0, VECTOR),
        "layernorm_vec": (M.layernorm_vec, (r.normal(size=(2, 4)),), 0, VECTOR),
        "layernorm_loss": (M.layernorm_loss, (r.normal(size=4) + 1.0, r.normal(size=(3, 4))), 0, SCALAR),
        "attention_out": (M.attention_out, (r.normal(size=3), r.normal(size=(5, 3)), r.normal(size=(5, 2))), 0, VECTOR),
        "attention_K": (M.attention_out, (r.normal(size=3), r.normal(size=(4, 3)), r.normal(size=(4, 2))), 1, VECTOR),
        "self_attention": (M.self_attention, (r.normal(size=(3, 2)), r.normal(size=(2, 2)), r.normal(size=(2, 2))), 1, VECTOR),
        "gmm_loglik": (M.gmm_loglik, (np.array([-1.0, 0.5, 2.0]), r.normal(size=10) * 1.5, np.zeros(3), np.array([0.2, -0.1, 0.0])), 0, SCALAR),
        "gmm_loglik_w": (M.gmm_loglik, (np.array([-1.0, 0.5, 2.0]), r.normal(size=10) * 1.5, np.zeros(3), np.array([0.2, -0.1, 0.0])), 3, SCALAR),
        "gmm_stats": (M.gmm_stats, (np.array([-0.5, 1.0]), r.normal(size=5)), 0, SCALAR),
        "gp_mll": (M.gp_mll, (np.array([0.1, 0.2, -1.0]), Xg, r.normal(size=5)), 0, SCALAR + ("vg",)),
        "gp_mll_solve": (M.gp_mll_solve, (np.array([0.1, 0.2, -1.0]), Xg, r.normal(size=5)), 0, SCALAR),
        "dc_mlp": (M.dc_mlp, (M.Linear(r.normal(size=(3, 2)), r.normal(size=2)), X, r.normal(size=8)), 0, ("grad", "jvp", "hvp")),
        "batchnorm_loss": (M.batchnorm_loss, (r.normal(size=(5, 3)),), 0, SCALAR),
        "hinge_l2": (M.hinge_l2, (r.normal(size=3), X, np.sign(yb - 0.5)), 0, SCALAR),
                "contrastive": (M.contrastive, (r.normal(size=(3, 2)), r.normal(size=(3, 2))), 0, SCALAR),
        "focal_loss": (M.focal_loss, (r.normal(size=3), X, yb), 0, SCALAR),
        "train_steps": (M.train_steps, (r.normal(size=3), X, yb), 0, SCALAR),
        "train_steps_lr": (M.train_steps, (r.normal(size=3), X, yb, 0.3), 3, FLOAT),
        "rbf_features": (M.rbf_features, (r.normal(size=3), r.normal(size=4)), 0, VECTOR),
        "embedding_loss": (M.embedding_loss, (r.normal(size=(4, 2)), np.array([0, 2, 2]), r.normal(size=2)), 0, SCALAR),
        "logreg_aux": (M.logreg_aux, (r.normal(size=3), X, yb), 0, ("aux",)),
        "mlp_aux": (M.mlp_aux, ({"W": r.normal(size=(3, 2)), "b": r.normal(size=2)}, X, r.normal(size=8)), 0, ("aux",)),
        "gp_aux": (M.gp_aux, (np.array([0.1, 0.2, -1.0]), Xg, r.normal(size=5)), 0, ("aux",)),
        "logreg_lam": (M.logreg_l2, (r.normal(size=3), X, yb, 0.3), (0, 3), ("hessian_tuple", "hvp_tuple", "cross")),
        "gmm_mu_sigma": (M.gmm_loglik, (np.array([-1.0, 0.5, 2.0]), r.normal(size=10) * 1.5, np.zeros(3), np.zeros(3)), (0, 2), ("hessian_tuple", "hvp_tuple", "cross_rev")),
        "poly_ridge": (M.poly_ridge, (r.normal(size=3), r.normal(size=6), r.normal(size=6)), 0, SCALAR),
    }


def _sim(r):
    return {
        "leapfrog_energy": (S.leapfrog_energy, (r.normal(size=3), r.normal(size=3)), 0, SCALAR + ("vg", "jacfwd_grad")),
        "leapfrog_energy_dt": (S.leapfrog_energy, (r.normal(size=2), r.normal(size=2), 0.1), 2, FLOAT),
        "leapfrog_final": (S.leapfrog_final, (r.normal(size=2), r.normal(size=2)), 0, VECTOR),
        "leapfrog_dt": (S.leapfrog_dt, (0.2, 0.9), 0, FLOAT + ("gog3",)),
        "spring_network": (S.spring_network, (np.array([0.0, 0.0, 1.1, 0.1, 1.0, 1.2, -0.1, 0.9]),), 0, SCALAR + ("jacfwd_grad",)),
        "spring_vectorised": (S.spring_vectorised, (np.array([[0.0, 0.0], [1.1, 0.1], [1.0, 1.2], [-0.1, 0.9]]), 1.0), 0, SCALAR),
        "spring_forces": (S.spring_forces, (np.array([0.0, 0.0, 1.1, 0.1, 0.3, 1.2]),), 0, VECTOR),
        "heat_steps": (S.heat_steps, (r.normal(size=6),), 0, VECTOR),
        "heat_new_array": (S.heat_new_array, (r.normal(size=6), 0.2), 0, SCALAR),
        "heat_kappa": (S.heat_new_array, (r.normal(size=6), 0.2), 1, FLOAT),
        "heat_roll": (S.heat_roll, (r.normal(size=5),), 0, VECTOR),
        "heat_2d": (S.heat_2d, (r.normal(size=16),), 0, VECTOR),
        "wave_equation": (S.wave_equation, (0.5, np.sin(np.linspace(0, np.pi, 6))), 0, FLOAT),
        "wave_u0": (S.wave_equation, (0.5, r.normal(size=6)), 1, SCALAR),
        "kick_first": (S.kick_first, (r.normal(size=4),), 0, SCALAR),
        "kick_slices": (S.kick_slices, (r.normal(size=6),), 0, VECTOR),
        "euler_until": (S.euler_until, (2.0, 1.0), 0, FLOAT),
        "bounce": (S.bounce, (2.0,), 0, FLOAT),
        "nbody_energy": (S.nbody_energy, (r.normal(size=9),), 0, SCALAR + ("vg",)),
        "nbody_accel": (S.nbody_accel, (r.normal(size=6),), 0, VECTOR),
        "dc_hamiltonian": (S.dc_hamiltonian, (S.State(r.normal(size=2), r.normal(size=2)),), 0, ("grad", "jvp", "hvp")),
        "dc_integrate": (S.dc_integrate, (r.normal(size=3),), 0, SCALAR),
        "clipped_dynamics": (S.clipped_dynamics, (np.array([0.2, -0.5, 0.9]),), 0, VECTOR),
        "pendulum_rk2": (S.pendulum_rk2, (0.8,), 0, FLOAT),
        "chain_sag": (S.chain_sag, (-0.1 * np.ones(4) + 0.02 * r.normal(size=4),), 0, SCALAR),
        "lotka_volterra": (S.lotka_volterra, ((1.1, 0.4), 0.9), 0, ("jvp", "jac_tree")),
        "diffusion_while": (S.diffusion_steps_while, (np.array([1.0, -0.2, 0.4, 0.1]),), 0, SCALAR),
        "heat_checkpointed": (S.heat_checkpointed, (r.normal(size=5), 0.8), 0, SCALAR),
        "heat_checkpointed_k": (S.heat_checkpointed, (r.normal(size=5), 0.8), 1, FLOAT),
        "leapfrog_checkpointed": (S.leapfrog_checkpointed, (r.normal(size=3), 0.1), 0, SCALAR),
        "leapfrog_checkpointed_dt": (S.leapfrog_checkpointed, (r.normal(size=3), 0.1), 1, FLOAT),
        "verlet_positions": (S.verlet_positions, (r.normal(size=2), r.normal(size=2)), 1, VECTOR),
    }


def _stats(r):
    X = r.normal(size=(8, 3)) * 0.7
    yb = (r.uniform(size=8) < 0.5).astype(float)
    xs = r.normal(size=10) + 0.5
    pos = np.abs(xs) + 0.3
    counts = r.poisson(2.0, size=8).astype(float)
    return {
        "norm_nll": (T.norm_nll, (np.array([0.3, -0.2]), xs), 0, SCALAR + ("vg",)),
        "norm_nll_frozen": (T.norm_nll_frozen, (np.array([0.3, -0.2]), xs), 0, SCALAR),
        "weibull_nll": (T.weibull_nll, (np.array([0.2, 0.1]), pos), 0, SCALAR),
        "gamma_nll": (T.gamma_nll, (np.array([0.2, 0.1]), pos), 0, SCALAR),
        "beta_binomial": (T.beta_binomial, (np.array([0.3, 0.5]), np.array([2.0, 5.0, 1.0]), np.array([6.0, 8.0, 4.0])), 0, SCALAR),
        "student_t_hand": (T.student_t_hand, (r.normal(size=3), X, r.normal(size=8)), 0, SCALAR),
        "bayes_logreg": (T.bayes_logreg_post, (r.normal(size=3), X, yb), 0, SCALAR + ("vg",)),
        "ar2_nll": (T.ar2_nll, (np.array([0.5, -0.2]), r.normal(size=9)), 0, SCALAR),
        "kalman_1d": (T.kalman_1d, (np.array([-1.0, -0.5]), [0.3, 0.1, -0.4, 0.8]), 0, SCALAR + ("vg",)),
        "poisson_glm": (T.poisson_glm, (0.3 * r.normal(size=3), X, counts), 0, SCALAR),
        "mvn_chol": (T.mvn_chol, (r.normal(size=3), r.normal(size=3), r.normal(size=(3, 3))), 0, SCALAR),
        "mvn_chol_A": (T.mvn_chol, (r.normal(size=3), r.normal(size=3), r.normal(size=(3, 3))), 2, SCALAR),
        "mvn_scipy": (T.mvn_scipy, (r.normal(size=2), r.normal(size=(4, 2))), 0, SCALAR),
        "censored_nll": (T.censored_nll, (np.array([0.1, 0.2]), xs, xs > 1.0), 0, SCALAR),
        "logistic_mle_scalar": (T.logistic_mle_scalar, (0.7,), 0, FLOAT + ("gog3",)),
        "huber_robust": (T.huber_robust, (r.normal(size=3), X, r.normal(size=8) * 2), 0, SCALAR),
        "laplace_evidence": (T.laplace_evidence, (r.normal(size=3), X, yb), 0, SCALAR),
        "newton_with_grad": (T.newton_with_grad, (r.normal(size=3), X, yb), 0, SCALAR),
        "newton_with_hessian": (T.newton_with_hessian, (r.normal(size=3), X, yb), 0, ("grad", "jvp")),
        "newton_with_hvp": (T.newton_with_hvp, (r.normal(size=3), X, yb), 0, ("grad", "jvp")),
        "vg_inside": (T.vg_inside, (r.normal(size=3), X, yb), 0, ("grad", "jvp", "hvp")),
        "newton_loop_scalar": (T.newton_loop_scalar, (1.5,), 0, ("jvp", "grad", "gog")),
        "dc_prior_nll": (T.dc_prior_nll, (0.4, T.Prior(0.1, 2.0), xs), 0, FLOAT),
        "dc_prior_tau": (T.dc_prior_nll, (0.4, T.Prior(0.1, 2.0), xs), 1, ("grad", "jvp", "hvp")),
        "dict_hyper": (T.dict_hyper, ({"mu": 0.3, "log_s": -0.1}, xs), 0, TREE),
        "list_accumulate": (T.list_accumulate, (r.normal(size=5),), 0, SCALAR),
        "where_max": (T.where_max, (np.array([0.5, -0.3, 1.4, -1.2, 0.05]),), 0, SCALAR),
        "views_loss": (T.views_loss, (r.normal(size=12),), 0, SCALAR),
        "norm_losses": (T.norm_losses, (r.normal(size=6),), 0, SCALAR),
        "norm_vec_out": (T.norm_vec_out, (r.normal(size=4),), 0, VECTOR),
        "rosenbrock": (T.rosenbrock, (r.normal(size=4),), 0, SCALAR + ("jacrev_grad", "jvp_grad")),
        "tuple_helper_stats": (T.tuple_helper_stats, (r.normal(size=5),), 0, SCALAR),
        "sorted_trimmed": (T.sorted_trimmed, (r.normal(size=5),), 0, SCALAR),
        "cumsum_logit": (T.cumsum_logit, (r.normal(size=5),), 0, SCALAR),
        "softplus_barrier": (T.softplus_barrier, (np.array([0.2, -0.4, 0.5]),), 0, SCALAR),
        "quantile_like": (T.quantile_like, (np.array([0.3, -1.2, 0.8, 2.0]),), 0, SCALAR),
        "scalar_special": (T.scalar_special, (1.7,), 0, FLOAT),
        "scalar_erf": (T.scalar_erf, (0.6,), 0, FLOAT + ("gog3",)),
        "multi_output_tuple": (T.multi_output_tuple, (r.normal(size=3),), 0, ("jacfwd_tuple", "jvp")),
        "enumerate_weights": (T.enumerate_weights, (r.normal(size=4),), 0, SCALAR),
        "piecewise_hi": (T.piecewise_branch, (1.3,), 0, FLOAT),
        "piecewise_mid": (T.piecewise_branch, (0.4,), 0, FLOAT),
        "f32_loss": (T.f32_loss, (r.normal(size=3).astype(np.float32), r.normal(size=(4, 3)).astype(np.float32)), 0, ("grad32", "jvp32", "hvp32")),
        "f32_vec": (T.f32_vec, (r.normal(size=4).astype(np.float32),), 0, ("jvp32",)),
        "f32_logreg": (M.logreg_l2, (r.normal(size=3).astype(np.float32), X.astype(np.float32), yb.astype(np.float32)), 0, ("grad32", "jvp32", "hvp32")),
    }


def _more(r):
    x5 = np.array([0.4, -0.7, 1.1, -0.2, 0.6])
    return {
        "methods_mix": (B.methods_mix, (x5,), 0, SCALAR),
        "leaky_masked": (B.leaky_masked, (x5,), 0, SCALAR),
        "relu_masked_assign": (B.relu_masked_assign, (x5,), 0, VECTOR),
        "from_scalars": (B.from_scalars, (np.array([1.5, 0.3, 0.4]),), 0, SCALAR),
        "solve_built": (B.solve_built, (np.array([1.5, 2.3, 0.9]),), 0, VECTOR),
        "fft_power": (B.fft_power, (r.normal(size=6),), 0, SCALAR),
        "smooth_conv": (B.smooth_conv, (r.normal(size=6),), 0, VECTOR),
        "trapz_energy": (B.trapz_energy, (0.7,), 0, FLOAT),
        "lstm_loss": (B.lstm_loss, (0.5 * r.normal(size=(8, 3)), [r.normal(size=1) for _ in range(3)]), 0, SCALAR),
        "dict_sgd": (B.dict_sgd, ({"w": r.normal(size=2), "b": 0.1}, r.normal(size=(5, 2)), r.normal(size=5)), 0, TREE),
        "sorted_keys": (B.sorted_keys, ({"bb": r.normal(size=2), "a": r.normal(size=2)},), 0, ("grad", "jvp", "hvp")),
        "dc_replace": (B.dc_replace, (B.Config(0.7, r.normal(size=3)), r.normal(size=3)), 0, ("grad", "jvp", "hvp")),
        "fixed_point": (B.fixed_point, (0.8,), 0, FLOAT),
        "builtin_clamp": (B.builtin_clamp, (np.array([0.3, -0.9, 1.2, 0.1]),), 0, SCALAR),
        "outer_kron": (B.outer_kron, (r.normal(size=4),), 0, SCALAR),
        "tuple_axis": (B.tuple_axis, (r.normal(size=4), r.normal(size=3)), 0, SCALAR),
        "prealloc_loop": (B.prealloc_loop, (r.normal(size=4),), 0, VECTOR),
        "append_hstack": (B.append_hstack, (r.normal(size=3),), 0, VECTOR),
        "dropout_fixed_seed": (B.dropout_fixed_seed, (r.normal(size=(2, 3)), r.normal(size=3)), 0, SCALAR),
        "polyval_coef": (B.polyval_coef, (r.normal(size=3), r.normal(size=4)), 0, SCALAR),
        "take_put": (B.take_put, (r.normal(size=3),), 0, SCALAR),
        "count_weighted": (B.count_weighted, (x5,), 0, SCALAR),
        "odeint_decay": (B.odeint_decay, (0.7,), 0, ("grad", "jvp", "hvp")),
        "float_conversion": (B.float_conversion, (r.normal(size=3),), 0, SCALAR),
        "swap_transpose": (B.swap_transpose, (r.normal(size=12),), 0, SCALAR),
        "softmax_temperature": (B.softmax_temperature, (1.3,), 0, FLOAT + ("gog3",)),
        "loop_power": (B.loop_power, (r.normal(size=3),), 0, SCALAR),
        "inner_matmul": (B.inner_matmul, (r.normal(size=(3, 3)), r.normal(size=3)), 0, SCALAR),
        "implicit_newton": (B.implicit_newton, (np.array([0.3, 1.0, 2.0]),), 0, VECTOR),
        "hist_dict": (B.hist_dict, (r.normal(size=3),), 0, SCALAR),
        "while_counter": (B.while_counter, (np.array([0.3, -1.5, 0.8, 0.1]),), 0, SCALAR),
        "norm_axis_inf": (B.norm_axis_inf, (r.normal(size=6),), 0, SCALAR),
    }


def _alias(r):
    x3 = np.array([0.4, -0.7, 1.1])
    return {
        "alias_iadd": (A.alias_iadd, (x3,), 0, VECTOR),
        "alias_setitem": (A.alias_setitem, (x3,), 0, VECTOR),
        "two_zero_buffers": (A.two_zero_buffers, (x3,), 0, VECTOR),
        "zero_buffer_item": (A.zero_buffer_item, (0.6, x3), 0, FLOAT),
        "zero_buffer_x": (A.zero_buffer_item, (0.6, x3), 1, SCALAR),
        "repeated_index_iadd": (A.repeated_index_iadd, (x3,), 0, VECTOR),
        "add_at": (A.add_at, (x3,), 0, VECTOR),
        "helper_inplace": (A.helper_inplace, (x3,), 0, VECTOR),
        "helper_setitem": (A.helper_setitem, (x3,), 0, VECTOR),
        "helper_append": (A.helper_append, (x3,), 0, SCALAR),
        "transpose_view_write": (A.transpose_view_write, (x3,), 0, VECTOR),
        "row_view_loop": (A.row_view_loop, (r.normal(size=(3, 2)),), 0, SCALAR),
        "asarray_copy": (A.asarray_copy, (x3,), 0, SCALAR),
        "astype_roundtrip": (A.astype_roundtrip, (x3,), 0, ("jvp", "grad")),
        "recursive_power": (A.recursive_power, (0.7,), 0, FLOAT),
        "mutual_recursion": (A.mutual_recursion, (x3,), 0, SCALAR),
        "type_checks": (A.type_checks, (0.7,), 0, FLOAT),
        "dtype_branch": (A.dtype_branch, (x3,), 0, SCALAR),
        "dict_output": (A.dict_output, (x3,), 0, ("jvp", "jac_out")),
        "tuple_output": (A.tuple_output, (x3, 0.5), 0, ("jvp", "jacfwd_tuple")),
        "tuple_output_y": (A.tuple_output, (x3, 0.5), 1, ("jvp", "jacfwd_tuple")),
        "early_return": (A.early_return, (np.array([0.4, 1.3, -0.2]),), 0, SCALAR),
        "early_return_none": (A.early_return, (x3 * 0.5,), 0, SCALAR),
        "keyword_order": (A.keyword_order, (x3, r.normal(size=(3, 3))), 0, SCALAR),
        "helper_dict": (A.helper_dict, (x3,), 0, SCALAR),
        "printing": (A.printing, (x3,), 0, SCALAR),
        "keepdims_sum": (A.keepdims_sum, (np.abs(r.normal(size=6)) + 0.5,), 0, VECTOR),
        "where_scalar_tangent": (A.where_scalar_tangent, (0.8, np.array([0.5, -0.3, 1.2])), 0, ("jvp", "jacfwd", "jacrev")),
        "loop_tuple_swap": (A.loop_tuple_swap, (x3,), 0, SCALAR),
        "ones_like_scale": (A.ones_like_scale, (x3,), 0, SCALAR),
        "cumulative_lists": (A.cumulative_lists, (x3,), 0, VECTOR),
    }


def _geom(r):
    x4 = np.array([0.0, 0.1, 0.0, 1.5, 0.0, 0.2, 2.0, 1.3, 0.1, 2.8, 1.2, 1.4])
    return {
        "dihedral": (G.dihedral, (x4,), 0, SCALAR),
        "bond_angle": (G.bond_angle, (x4[:9],), 0, SCALAR),
        "torque": (G.torque, (r.normal(size=3), r.normal(size=3)), 0, VECTOR),
        "torque_F": (G.torque, (r.normal(size=3), r.normal(size=3)), 1, VECTOR),
        "tet_volume": (G.tet_volume, (x4 + 0.1 * r.normal(size=12),), 0, SCALAR),
        "polar_energy": (G.polar_energy, (r.normal(size=6),), 0, SCALAR),
        "conv1d_windows": (G.conv1d_windows, (r.normal(size=3), r.normal(size=7)), 0, SCALAR),
        "conv1d_windows_x": (G.conv1d_windows, (r.normal(size=3), r.normal(size=7)), 1, SCALAR),
        "conv1d_loop": (G.conv1d_loop, (r.normal(size=3), r.normal(size=6)), 0, VECTOR),
        "maxpool": (G.maxpool, (r.normal(size=6),), 0, VECTOR),
        "topk_mean": (G.topk_mean, (r.normal(size=5),), 0, SCALAR),
        "take_along": (G.take_along, (r.normal(size=6),), 0, SCALAR),
        "einsum_bilinear": (G.einsum_bilinear, (r.normal(size=(3, 2)), r.normal(size=3), r.normal(size=2)), 0, SCALAR),
        "tile_repeat": (G.tile_repeat, (r.normal(size=3),), 0, SCALAR),
        "meshgrid_field": (G.meshgrid_field, (np.array([0.2, -0.3]),), 0, SCALAR),
        "special_second": (G.special_second, (np.array([0.7, 1.3, 2.2]),), 0, SCALAR),
        "log_softmax_nll": (G.log_softmax_nll, (r.normal(size=4),), 0, SCALAR),
        "digamma_mix": (G.digamma_mix, (1.7,), 0, FLOAT),
        "logit_loss": (G.logit_loss, (np.array([0.2, 0.6, 0.9]),), 0, SCALAR),
        "qr_loss": (G.qr_loss, (r.normal(size=6),), 0, SCALAR),
        "triu_energy": (G.triu_energy, (np.array([0.1, 0.9, -0.6, 1.7]),), 0, SCALAR),
        "any_all_branch": (G.any_all_branch, (np.array([1.3, -0.2, 0.5]),), 0, SCALAR),
        "reversed_range": (G.reversed_range, (r.normal(size=4),), 0, SCALAR),
        "max_key": (G.max_key, ([0.3, 1.2, -0.5, 0.9, 0.8, 0.9],), 0, ("grad", "jvp", "hvp")),
        "tri_solves": (G.tri_solves, (r.normal(size=(3, 3)), r.normal(size=3)), 0, SCALAR + ("jvp_grad",)),
        "tri_solves_b": (G.tri_solves, (r.normal(size=(3, 3)), r.normal(size=3)), 1, SCALAR),
        "tri_solves_both": (G.tri_solves, (r.normal(size=(3, 3)), r.normal(size=3)), (0, 1), ("hessian_tuple", "hvp_tuple")),
        "try_finally": (G.try_finally, (r.normal(size=3),), 0, SCALAR),
    }


def _fin(r):
    R = r.normal(size=(12, 3)) * 0.1 + 0.02
    cov = np.cov(R.T)
    return {
        "black_scholes": (F.black_scholes, (1.1,), 0, FLOAT + ("gog3",)),
        "black_scholes_sigma": (F.black_scholes, (1.1, 1.0, 0.5, 0.02, 0.3), 4, FLOAT),
        "black_scholes_erf": (F.black_scholes_erf, (1.1, 0.3), 0, FLOAT),
        "black_scholes_erf_vol": (F.black_scholes_erf, (1.1, 0.3), 1, FLOAT),
        "black_scholes_cross": (F.black_scholes_erf, (1.1, 0.3), (0, 1), ("cross", "hessian_tuple")),
        "bs_stats": (F.bs_stats, (1.1,), 0, FLOAT),
        "mc_call": (F.mc_call, (1.05,), 0, ("grad", "jvp")),
        "mc_smooth": (F.mc_smooth, (np.array([0.2, -0.1, -0.5]),), 0, SCALAR),
        "discounted_return": (F.discounted_return, (0.9,), 0, FLOAT + ("gog3",)),
        "returns_vector": (F.returns_vector, (0.9, r.normal(size=4)), 1, VECTOR),
        "returns_vector_gamma": (F.returns_vector, (0.9, r.normal(size=4)), 0, ("jvp", "jacfwd", "jacrev")),
        "drawdown": (F.drawdown, (np.array([0.05, -0.1, 0.03, -0.04, 0.02]),), 0, SCALAR),
        "portfolio_var": (F.portfolio_var, (np.array([0.3, 0.5, 0.2]), cov), 0, SCALAR),
        "sharpe": (F.sharpe, (np.array([0.3, 0.5, 0.2]), R), 0, SCALAR),
        "policy_gradient": (F.policy_gradient_loss, (r.normal(size=(3, 2)), r.normal(size=(6, 3)), np.array([0, 1, 1, 0, 1, 0]), r.normal(size=6)), 0, SCALAR),
        "hand_interp_loss": (F.hand_interp_loss, (r.normal(size=5), np.array([0.1, 0.33, 0.6, 0.95])), 0, SCALAR),
        "hand_interp_x": (F.hand_interp_loss, (r.normal(size=5), np.array([0.1, 0.33, 0.6, 0.95])), 1, SCALAR),
        "int_lookup": (F.int_lookup, (0.77,), 0, FLOAT),
        "nonzero_gather": (F.nonzero_gather, (np.array([0.4, -0.7, 1.1, -0.3]),), 0, SCALAR),
        "floor_mod": (F.floor_mod, (np.array([0.4, -0.75, 1.1]),), 0, SCALAR),
        "implied_vol": (F.implied_vol, (0.15,), 0, ("grad", "jvp")),
    }


def _py(r):
    x3 = np.array([0.4, -0.7, 1.1])
    return {
        "array_from_entries": (Y.array_from_entries, (x3,), 0, VECTOR),
        "fancy_store": (Y.fancy_store, (x3,), 0, VECTOR),
        "strided_2d": (Y.strided_2d, (r.normal(size=12),), 0, VECTOR),
        "fill_scalar": (Y.fill_scalar, (0.7, x3), 0, FLOAT),
        "sort_inplace_copy": (Y.sort_inplace_copy, (x3,), 0, VECTOR),
        "gen_sum_cond": (Y.gen_sum_cond, (x3,), 0, SCALAR),
        "walrus_loop": (Y.walrus_loop, (x3,), 0, SCALAR),
        "conditional_expr": (Y.conditional_expr, (x3,), 0, SCALAR),
        "math_helpers": (Y.math_helpers, (x3,), 0, SCALAR),
        "reduce_lambda": (Y.reduce_lambda, (x3,), 0, SCALAR),
        "sum_of_arrays": (Y.sum_of_arrays, (r.normal(size=(4, 3)),), 0, SCALAR),
        "matrix_power_loss": (Y.matrix_power_loss, (r.normal(size=4),), 0, SCALAR),
        "powers_and_pinvs": (Y.powers_and_pinvs, (r.normal(size=12),), 0, SCALAR + ("jvp_grad",)),
        "deco_helpers": (Y.deco_helpers, (x3,), 0, SCALAR + ("jvp_grad", "jacfwd_grad")),
        "deco_vector": (Y.deco_vector, (x3,), 0, VECTOR),
        "deco_scalar": (Y.deco_scalar, (0.6,), 0, FLOAT + ("gog3",)),
        "axis_reductions": (Y.axis_reductions, (r.normal(size=12),), 0, SCALAR),
        "nearest_distance": (Y.nearest_distance, (r.normal(size=2), r.normal(size=(4, 2))), 0, SCALAR),
        "round_isclose": (Y.round_isclose, (np.array([0.33, -0.71, 1.12]),), 0, SCALAR),
        "chained_compare": (Y.chained_compare, (x3,), 0, SCALAR),
        "zeros_int_promote": (Y.zeros_int_promote, (x3,), 0, SCALAR),
        "concat_pieces": (Y.concat_pieces, (x3,), 0, VECTOR),
        "diag_write": (Y.diag_write, (x3 + 1.0,), 0, SCALAR),
        "swap_rows": (Y.swap_rows, (r.normal(size=6),), 0, VECTOR),
    }


def cases():
    r = rng("red35 cases")
    out = {}
    for part in (_ml, _sim, _stats, _more, _alias, _geom, _fin, _py):
        out.update(part(r))
    return out
