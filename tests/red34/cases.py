"""The red team's cases (programs.py): arguments, the argument differentiated, and the
derivatives that apply. Scalar outputs get hvp, hessian (array or float argument) and
grad of grad (float argument); vector outputs jvp, jacfwd and jacrev."""
import numpy as np

from tests.gradcheck import rng
from tests.red34 import programs as P

SCALAR = ("jvp", "hvp", "hessian")
VECTOR = ("jvp", "jacfwd", "jacrev")
PHYS = ("jvp", "hvp", "hessian", "jacfwd_grad", "jvp_grad")


def _spd(r, n):
    A = r.normal(size=(n, n))
    return A


def _data(r):
    X = r.normal(size=(8, 3)) * 0.5
    return X, (r.uniform(size=8) < 0.5).astype(float)


def _cases(r):
    X, yb = _data(r)
    counts = r.poisson(2.0, size=8).astype(float)
    xs = r.normal(size=10)
    pos = np.array([[0.0, 0.0], [1.1, 0.1], [0.2, 1.05], [1.2, 1.15]]) + 0.03 * r.normal(size=(4, 2))
    mlp = [(r.normal(size=(3, 4)) * 0.5, r.normal(size=4) * 0.1),
           (r.normal(size=(4, 1)) * 0.5, r.normal(size=1) * 0.1)]
    return {
        "poisson_loglik": (P.poisson_loglik, (r.normal(size=3) * 0.3, X, counts), 0, SCALAR + ("jvp_grad",)),
        "logistic_nll": (P.logistic_nll, (r.normal(size=3), X, yb), 0, SCALAR),
        "gaussian_nll": (P.gaussian_nll, (np.array([0.3, -0.2]), xs), 0, SCALAR),
        "student_t_nll": (P.student_t_nll, (np.array([0.1, 0.2]), xs), 0, SCALAR),
        "gamma_loglik": (P.gamma_loglik, (np.array([0.4, -0.1]), np.abs(xs) + 0.2), 0, SCALAR),
        "negbin_loglik": (P.negbin_loglik, (0.7, counts), 0, SCALAR + ("gog",)),
        "laplace_logdet": (P.laplace_logdet, (r.normal(size=3) * 0.3, X), 0, SCALAR),
        "mvn_logpdf": (P.mvn_logpdf, (r.normal(size=3), r.normal(size=3), _spd(r, 3)), 0, SCALAR),
        "mvn_logpdf_L": (P.mvn_logpdf, (r.normal(size=3), r.normal(size=3), _spd(r, 3)), 2, ("jvp", "hvp")),
        "cho_loglik": (P.cho_loglik, (r.normal(size=3), r.normal(size=3), _spd(r, 3)), 0, SCALAR),
        "cho_loglik_A": (P.cho_loglik, (r.normal(size=3), r.normal(size=3), _spd(r, 3)), 2, ("jvp", "hvp")),
        "mixture_nll": (P.mixture_nll, ({"w": np.array([0.4, 0.6]), "mu": [-0.5, 0.8], "s": [0.7, 1.2]}, xs), 0, ("jvp", "hvp")),
        "huber_loss": (P.huber_loss, (r.normal(size=3), X, r.normal(size=8)), 0, SCALAR),
        "logsumexp_lik": (P.logsumexp_lik, (r.normal(size=5),), 0, SCALAR),
        "softplus_reg": (P.softplus_reg, (r.normal(size=3), X), 0, SCALAR),
        "mlp_loss": (P.mlp_loss, (mlp, r.normal(size=(5, 3)), r.normal(size=5)), 0, ("jvp", "hvp")),
        "mlp_flat": (P.mlp_flat, (r.normal(size=12) * 0.5, r.normal(size=(5, 2)), r.normal(size=5)), 0, SCALAR),
        "softmax_ce": (P.softmax_ce, (r.normal(size=(3, 4)), X, np.array([0, 1, 3, 2, 1, 0, 3, 2])), 0, SCALAR),
        "attention": (P.attention, (r.normal(size=3), r.normal(size=(5, 3)), r.normal(size=(5, 2))), 0, VECTOR),
        "rnn_loss": (P.rnn_loss, (np.array([0.5, 0.8, 0.3]), [0.3, -0.2, 0.9, 0.1]), 0, SCALAR),
        "layernorm_out": (P.layernorm_out, (r.normal(size=5), 1.3), 0, VECTOR),
        "gelu_loss": (P.gelu_loss, (0.8, r.normal(size=6)), 0, SCALAR + ("gog",)),
        "lj_energy": (P.lj_energy, (pos,), 0, PHYS),
        "morse_energy": (P.morse_energy, (pos.ravel(),), 0, PHYS),
        "spring_chain": (P.spring_chain, (np.arange(5.0) * 1.1 + 0.1 * r.normal(size=5),), 0, PHYS),
        "pendulum_qd": (P.pendulum_lagrangian, (0.4, 1.2), 1, ("jvp", "hvp", "gog")),
        "pendulum_q": (P.pendulum_lagrangian, (0.4, 1.2), 0, ("jvp", "hvp", "gog")),
        "double_pendulum": (P.double_pendulum_L, (np.array([0.3, -0.2]), np.array([0.5, 0.9])), 1, PHYS),
        "implicit_euler": (P.implicit_euler_step, (np.array([0.7, -0.4]),), 0, VECTOR),
        "rk4_decay": (P.rk4_decay, (0.8, 1.5), 0, ("jvp", "gog", "hvp")),
        "ode_residuals": (P.ode_residuals, (np.array([0.7, 2.0]), [0.5, 1.0, 1.5, 2.0], r.normal(size=4)), 0, VECTOR),
        "heat_step": (P.heat_step, (r.normal(size=6),), 0, VECTOR),
        "elastic_energy": (P.elastic_energy, (r.normal(size=5), 0.5, 1.5), 0, SCALAR),
        "dc_loss": (P.dc_loss, (P.Params(0.7, r.normal(size=3)), r.normal(size=3)), 0, ("jvp", "hvp")),
        "class_energy": (P.class_energy, (r.normal(size=4), 1.7), 0, SCALAR),
        "dict_params_loss": (P.dict_params_loss, ({"w": r.normal(size=4), "b": 0.3}, r.normal(size=4)), 0, ("jvp", "hvp")),
        "builtins_loss": (P.builtins_loss, (np.array([0.5, -1.2, 2.0, 0.3]),), 0, SCALAR),
        "lambda_loss": (P.lambda_loss, (r.normal(size=4),), 0, SCALAR),
        "scalar_newton": (P.scalar_newton, (0.9,), 0, ("jvp", "hvp", "hessian", "gog", "gog3")),
        "erfc_tail": (P.erfc_tail, (0.6,), 0, ("jvp", "hvp", "gog")),
        "expm_loss": (P.expm_loss, (r.normal(size=(3, 3)) * 0.4,), 0, ("jvp", "hvp")),
        "branch_loop": (P.branch_loop, (np.array([0.5, -0.3, -1.5, 1.2]),), 0, SCALAR),
        "clip_view_loss": (P.clip_view_loss, (np.array([0.5, -0.3, 0.8, 1.2, -0.4, 0.9]),), 0, SCALAR),
        "while_newton_sqrt": (P.while_newton_sqrt, (2.3,), 0, ("jvp", "gog", "hvp")),
        "quad_form": (P.quad_form, (r.normal(size=3), _spd(r, 3)), 0, SCALAR + ("jacfwd_grad",)),
        "inplace_loop": (P.inplace_loop, (r.normal(size=4),), 0, SCALAR + ("jvp_grad",)),
        "pow_loss": (P.pow_loss, (r.normal(size=3), 3.0), 0, SCALAR),
        "pow_loss_p": (P.pow_loss, (r.normal(size=3), 3.0), 1, ("jvp", "hvp", "gog")),
        "norm_loss": (P.norm_loss, (r.normal(size=3),), 0, SCALAR),
        "relu_net": (P.relu_net, (r.normal(size=3), X), 0, SCALAR),
        "sort_loss": (P.sort_loss, (r.normal(size=4),), 0, SCALAR),
        "cumsum_prod": (P.cumsum_prod, (r.normal(size=4),), 0, SCALAR),
        "einsum_loss": (P.einsum_loss, (r.normal(size=(2, 3)), r.normal(size=3)), 0, SCALAR),
        "inv_det": (P.inv_det, (r.normal(size=(3, 3)) + 2 * np.eye(3),), 0, SCALAR),
        "special_mix": (P.special_mix, (r.uniform(0.5, 2.0, size=3),), 0, SCALAR),
        "digamma_loss": (P.digamma_loss, (r.uniform(0.5, 2.0, size=3),), 0, SCALAR),
        "comprehension": (P.comprehension_loss, (r.normal(size=4),), 0, SCALAR),
        "while_break": (P.while_break, (0.7,), 0, ("jvp", "hvp", "gog")),
        "gather_repeat": (P.gather_repeat, (r.normal(size=3),), 0, SCALAR),
        "stack_concat": (P.stack_concat, (r.normal(size=3),), 0, SCALAR),
        "tril_loss": (P.tril_loss, (r.normal(size=(3, 3)),), 0, SCALAR),
        "glm_blocks": (P.glm_nll, (r.normal(size=3), 0.2, X, r.normal(size=8)), (0, 1), ("hessian_tuple", "hvp_tuple")),
        "glm_cross": (P.glm_nll, (r.normal(size=3), 0.2, X, r.normal(size=8)), (0, 1), ("cross", "cross_rev")),
        "lagrange_mixed": (P.double_pendulum_L, (np.array([0.3, -0.2]), np.array([0.5, 0.9])), (1, 0), ("cross", "cross_rev")),
        "pendulum_mixed": (P.pendulum_lagrangian, (0.4, 1.2), (1, 0), ("cross",)),
        "newton_mixed": (P.newton_step_value, (1.3, 2.0), (0, 1), ("cross",)),
        "method_loss": (P.Model(X, yb).loss, (r.normal(size=3),), 0, SCALAR + ("jvp_grad",)),
        "f32_loss": (P.f32_loss, (r.normal(size=3), r.normal(size=(4, 3))), 0, ("jvp", "hvp")),
        "float_default": (P.float_default, (r.normal(size=3),), 0, SCALAR),
        "float_default_scale": (P.float_default, (r.normal(size=3), 1.5), 1, ("jvp", "hvp", "gog")),
        "where_div": (P.where_div, (r.normal(size=5),), 0, SCALAR),
        "tuple_helper": (P.tuple_helper, (r.normal(size=5),), 0, SCALAR),
        "fstring_print": (P.fstring_print, (r.normal(size=3), X), 0, SCALAR),
        "abs_max_loss": (P.abs_max_loss, (r.normal(size=4),), 0, SCALAR),
        "logdet_chol": (P.logdet_chol, (r.normal(size=(3, 3)),), 0, ("jvp", "hvp")),
        "solve_loss": (P.solve_loss, (r.normal(size=3), r.normal(size=(3, 3)) + 3 * np.eye(3)), 0, SCALAR),
        "solve_loss_A": (P.solve_loss, (r.normal(size=3), r.normal(size=(3, 3)) + 3 * np.eye(3)), 1, ("jvp", "hvp")),
        "view_scale": (P.view_scale, (r.normal(size=4),), 0, VECTOR),
        "view_assign": (P.view_assign, (r.normal(size=4),), 0, VECTOR),
        "empty_fill": (P.empty_fill, (r.normal(size=4),), 0, SCALAR),
        "mod_loss": (P.mod_loss, (np.array([0.3, 1.45, -0.7, 2.2]),), 0, SCALAR),
        "mask_loss": (P.mask_loss, (r.normal(size=5),), 0, SCALAR),
        "fill_diag": (P.fill_diag, (r.normal(size=3), r.normal(size=(3, 3))), 0, SCALAR),
        "list_store": (P.list_store, (r.normal(size=2),), 0, SCALAR),
        "dict_update": (P.dict_update, (r.normal(size=3),), 0, SCALAR),
        "interp_poly": (P.interp_poly, (np.array([-1.3, 0.4, 2.1]),), 0, SCALAR),
        "arg_inplace": (P.arg_inplace, (r.normal(size=3),), 0, SCALAR),
        "eigh_loss": (P.eigh_loss, (r.normal(size=(3, 3)),), 0, ("jvp", "hvp")),
        "reuse_loopvar": (P.reuse_loopvar, (r.normal(size=3),), 0, SCALAR),
        "beta_fn": (P.beta_fn, (r.uniform(0.5, 2.0, size=3),), 0, SCALAR),
        "stack_rows": (P.stack_rows, (r.normal(size=3),), 0, SCALAR),
        "where_scalar": (P.where_scalar, (np.array([0.5, -0.4, 0.1, 1.3]),), 0, SCALAR),
        "reshape_methods": (P.reshape_methods, (r.normal(size=6),), 0, SCALAR),
        "global_const": (P.global_const, (r.normal(size=3),), 0, SCALAR),
        "tuple_return_jac": (P.tuple_return_jac, (r.normal(size=3),), 0, ("jvp", "jacfwd_tuple")),
        "int_exponent_loop": (P.int_exponent_loop, (0.7,), 0, ("jvp", "hvp", "gog", "gog3")),
        "lj_cutoff": (P.lj_cutoff, (pos * 1.05,), 0, PHYS),
        "periodic_harmonic": (P.periodic_harmonic, (np.array([[0.1, 0.2], [2.5, 0.3], [1.2, 2.8]]),), 0, PHYS),
        "norm_springs": (P.norm_springs, (pos,), 0, PHYS),
        "cube_root_newton": (P.cube_root_newton, (2.5,), 0, ("jvp", "hvp", "gog", "gog3")),
        "gauss_newton_step": (P.gauss_newton_step, (np.array([0.7, 2.0]), np.array([0.5, 1.0, 1.5, 2.0]), np.array([1.4, 1.0, 0.7, 0.5])), 0, VECTOR),
        "coulomb_soft": (P.coulomb_soft, (np.array([1.0, -1.0, 0.5]), pos[:3]), 1, PHYS),
        "coulomb_soft_q": (P.coulomb_soft, (np.array([1.0, -1.0, 0.5]), pos[:3]), 0, SCALAR),
        "langevin_loglik": (P.langevin_loglik, (0.6, r.normal(size=6)), 0, ("jvp", "hvp", "gog")),
        "langevin_xs": (P.langevin_loglik, (0.6, r.normal(size=6)), 1, SCALAR),
        "kl_gauss": (P.kl_gauss, (r.normal(size=3), r.normal(size=3)), (0, 1), ("hessian_tuple", "hvp_tuple", "cross")),
        "ar1_nll": (P.ar1_nll, ((0.5, 0.1), r.normal(size=8)), 0, ("jvp", "hvp", "hessian_container")),
        "vmap_like": (P.vmap_like, (r.normal(size=(2, 3)), [r.normal(size=3) for _ in range(3)]), 0, SCALAR),
        "ridge_closed_form": (P.ridge_closed_form, (0.5, X, r.normal(size=8)), 0, ("jvp", "hvp", "gog")),
        "bfgs_like_update": (P.bfgs_like_update, (np.array([0.3, -0.6]),), 0, SCALAR),
        "chain_energy": (P.chain_energy, (np.array([0.0, 1.1, 2.0]), 1.5), 0, PHYS),
        "chain_energy_k": (P.chain_energy, (np.array([0.0, 1.1, 2.0]), 1.5), 1, ("jvp", "hvp", "gog")),
        "dict_helper": (P.dict_helper, (r.normal(size=4),), 0, SCALAR),
        "conversions": (P.conversions, (r.normal(size=3),), 0, SCALAR),
        "scalar_math": (P.scalar_math, (0.7,), 0, ("jvp", "hvp", "gog", "gog3")),
        "ternary_loop": (P.ternary_loop, (r.normal(size=5),), 0, SCALAR),
        "nested_helpers": (P.nested_helpers, (r.normal(size=3), r.normal(size=(4, 3))), 0, SCALAR),
        "zip_two": (P.zip_two, (np.array([0.5, -0.3]), [0.1, 0.7, 1.3], [0.2, 0.4, 0.9]), 0, SCALAR),
        "minmax_builtin": (P.minmax_builtin, (0.8, -0.6), (0, 1), ("hessian_tuple", "hvp_tuple", "cross")),
        "reversed_scan": (P.reversed_scan, (r.normal(size=4),), 0, SCALAR),
        "gmm_loglik": (P.gmm_loglik, (np.array([-0.8, 0.9]), xs[:6], np.array([0.3, 0.7])), 0, SCALAR),
        "gmm_weights": (P.gmm_loglik, (np.array([-0.8, 0.9]), xs[:6], np.array([0.3, 0.7])), 2, SCALAR),
        "maml_loss": (P.maml_loss, (r.normal(size=3), X, r.normal(size=8), X[::-1] + 0.1, r.normal(size=8)), 0, ("jvp", "hvp")),
        "maml_query": (P.maml_loss, (r.normal(size=3), X, r.normal(size=8), X[::-1] + 0.1, r.normal(size=8)), 4, ("jvp", "hvp")),
        "vg_inside": (P.vg_inside, (r.normal(size=3), X, r.normal(size=8)), 0, ("jvp", "hvp")),
        "verlet": (P.verlet, (r.normal(size=3), r.normal(size=3)), 0, VECTOR),
        "verlet_v": (P.verlet, (r.normal(size=3), r.normal(size=3)), 1, VECTOR),
        "standardize_X": (P.standardize_loss, (r.normal(size=(5, 3)), r.normal(size=3)), 0, ("jvp", "hvp", "hessian")),
        "standardize_w": (P.standardize_loss, (r.normal(size=(5, 3)), r.normal(size=3)), 1, SCALAR),
        "gp_nll": (P.gp_nll, (0.2, np.linspace(0.0, 2.0, 5), r.normal(size=5)), 0, ("jvp", "hvp", "gog")),
    }


def cases():
    """{name: (fn, args, wrt, checks)}; cases needing SciPy are dropped without it."""
    out = _cases(rng("red34"))
    if P.special is None:
        out = {k: v for k, v in out.items() if k not in SCIPY}
    return out


SCIPY = {"student_t_nll", "gamma_loglik", "negbin_loglik", "cho_loglik", "cho_loglik_A",
         "logsumexp_lik", "gelu_loss", "erfc_tail", "expm_loss", "special_mix", "digamma_loss",
         "solve_loss", "solve_loss_A", "beta_fn", "gmm_loglik", "gmm_weights"}
