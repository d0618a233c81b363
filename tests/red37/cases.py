"""red37's cases: (function, arguments, the argument differentiated, checks). Scalar
outputs get grad, jvp, hvp by all three routes and hessian; vector outputs jvp, jacfwd
and jacrev; float arguments grad of grad."""
import numpy as np

from tests.gradcheck import rng
from tests.red37 import programs_classes as C
from tests.red37 import programs_opt as O
from tests.red37 import programs_stats as T

SCALAR = ("grad", "jvp", "hvp", "hvp_fr", "hvp_auto", "hessian")
SCALAR_FR = SCALAR + ("hessian_fr",)
VECTOR = ("jvp", "jacfwd", "jacrev")
FLOAT = ("grad", "jvp", "hvp", "hvp_fr", "hvp_auto", "gog")


def _classes(r):
    X = r.normal(size=(6, 3)) * 0.6
    y = r.normal(size=6)
    ypm = np.sign(r.normal(size=6))
    return {
        "inherited_init": (C.inherited_init_loss, (r.normal(size=3), X, y), 0, SCALAR_FR),
        "super_init_default": (C.super_init_default_lam, (r.normal(size=3), X, y), 0, SCALAR_FR),
        "super_init_keywords": (C.super_init_keywords, (r.normal(size=3), X, y), 0, SCALAR),
        "model_bias_arg": (C.model_bias_argument, (0.3, X, y), 0, FLOAT),
        "residual_sequential": (C.residual_sequential, (0.5 * r.normal(size=(3, 3)), X), 0, SCALAR),
        "explicit_base_init": (C.explicit_base_init, (r.normal(size=3),), 0, SCALAR_FR),
        "anharmonic_coupling": (C.anharmonic_coupling, (0.3,), 0, FLOAT),
        "dataclass_config": (C.dataclass_config_inherit, (r.normal(size=3), X, y), 0, SCALAR),
        "dataclass_config_lr": (C.dataclass_config_lr, (0.1, X, y), 0, FLOAT),
        "dataclass_params": (C.dataclass_params_inherit, (r.normal(size=3), X, ypm), 0, SCALAR_FR),
        "post_init_inherited": (C.post_init_inherited, (np.array([0.2, -0.3]), r.normal(size=5)), 0, SCALAR_FR),
        "kernel_hierarchy": (C.kernel_hierarchy, (np.array([0.1, -0.2]), r.normal(size=4)), 0, SCALAR),
        "lj_subclass": (C.lennard_jones_subclass, (np.array([0.0, 0.0, 1.1, 0.2, 0.3, 1.0]),), 0, SCALAR),
        "ctor_class_attr": (C.ctor_with_class_attr, (r.normal(size=3),), 0, SCALAR),
        "mutating_method_chain": (C.mutating_method_chain, (r.normal(size=3),), 0, SCALAR),
        "model_list_ensemble": (C.model_list_ensemble, (0.5 * r.normal(size=3), X), 0, SCALAR),
        "super_forward_vec": (C.super_loss_vector, (r.normal(size=6), r.normal(size=(2, 3))), 0, VECTOR),
    }


def _opt(r):
    X = r.normal(size=(6, 3)) * 0.5
    t = np.linspace(0.0, 2.0, 6)
    return {
        "newton_cubic_root": (O.newton_cubic_root, (1.3,), 0, FLOAT),
        "newton_system": (O.newton_system, (np.array([1.5, 0.7]),), 0, SCALAR_FR),
        "trust_region_dogleg": (O.trust_region_dogleg, (np.array([0.3, 0.4]),), 0, SCALAR),
        "line_search_tuple": (O.line_search_returns_tuple, (r.normal(size=3), X, r.normal(size=6)), 0, SCALAR),
        "implicit_fixed_point": (O.implicit_fixed_point, (r.normal(size=3),), 0, SCALAR),
        "implicit_solve": (O.implicit_solve_layer, (r.normal(size=3),), 0, SCALAR_FR),
        "forces_from_energy": (O.forces_from_energy, (r.normal(size=6),), 0, VECTOR),
        "morse_chain": (O.morse_chain, (np.array([0.0, 1.1, 2.0, 3.2]),), 0, SCALAR_FR),
        "morse_kwargs": (O.morse_chain_kwargs, (np.array([0.0, 1.1, 2.0, 3.2]),), 0, SCALAR),
        "spring_views": (O.spring_energy_views, (r.normal(size=8),), 0, SCALAR_FR),
        "gravity_print": (O.gravity_energy_print, (r.normal(size=9),), 0, SCALAR),
        "dihedral": (O.dihedral_energy, (r.normal(size=12),), 0, SCALAR),
        "early_return_energy": (O.early_return_energy, (np.array([0.3, -0.4, 0.5]),), 0, SCALAR),
        "star_args_caller": (O.star_args_caller, (r.normal(size=3), r.normal(size=3)), 0, SCALAR),
        "star_args_caller_y": (O.star_args_caller, (r.normal(size=3), r.normal(size=3)), 1, SCALAR),
        "kwargs_splat": (O.kwargs_splat, (r.normal(size=3),), 0, SCALAR),
        "gauss_newton": (O.gauss_newton, (np.array([1.0, 0.5]), t, 1.2 * np.exp(-0.7 * t)), 0, SCALAR),
        "lbfgs_lists": (O.lbfgs_history_lists, (np.array([0.5, -0.4]),), 0, SCALAR),
        "bisection_while": (O.bisection_while, (1.2,), 0, FLOAT),
        "pendulum": (O.pendulum_energy_sensitivity, (0.6,), 0, FLOAT),
        "mass_matrix": (O.mass_matrix_energy, (np.array([0.3, -0.5]),), 0, SCALAR_FR),
        "augmented_lagrangian": (O.augmented_lagrangian, (np.array([0.3, 0.5]),), 0, SCALAR),
        "barrier": (O.barrier_min, (np.array([0.3, -0.2, 0.5]),), 0, SCALAR),
        "cg_solve_loop": (O.cg_solve_loop, (r.normal(size=3) * 0.5,), 0, SCALAR),
    }


def _stats(r):
    X = r.normal(size=(8, 3)) * 0.5
    x = r.normal(size=8)
    yb = (r.uniform(size=8) < 0.5).astype(float)
    counts = r.poisson(2.0, size=8).astype(float)
    labels = np.array([0, 2, 1, 1, 0, 2, 2, 0])
    return {
        "gmm_loglik": (T.gmm_loglik, (np.array([-0.5, 0.8]), x), 0, SCALAR_FR),
        "gmm_scipy_lse": (T.gmm_scipy_logsumexp, (np.array([-0.5, 0.8, 0.2]), x), 0, SCALAR),
        "gmm_weights": (T.gmm_weights, (r.normal(size=3), x), 0, SCALAR),
        "poisson_glm": (T.poisson_glm, (0.3 * r.normal(size=3), X, counts), 0, SCALAR_FR),
        "logistic_laplace": (T.logistic_laplace, (r.normal(size=3), X, yb), 0, SCALAR_FR),
        "laplace_logdet": (T.laplace_logdet, (r.normal(size=3), X), 0, SCALAR),
        "softmax_regression": (T.softmax_regression, (0.5 * r.normal(size=(3, 3)), X, labels), 0, SCALAR),
        "student_t_reg": (T.student_t_regression, (r.normal(size=3), X, x), 0, SCALAR),
        "beta_binomial": (T.beta_binomial, (np.array([0.2, 0.5]), np.array([2.0, 5.0, 1.0]), np.array([6.0, 7.0, 4.0])), 0, SCALAR),
        "weibull": (T.weibull_loglik, (np.array([0.3, 0.1]), np.abs(x) + 0.2), 0, SCALAR),
        "digamma_moments": (T.digamma_moments, (r.normal(size=3) * 0.3,), 0, SCALAR),
        "erfc_tail": (T.erfc_tail, (r.normal(size=4),), 0, SCALAR),
        "gamma_prior": (T.gamma_prior_logpost, (np.array([0.2, 0.1]), x), 0, SCALAR),
        "mixture_em_loop": (T.mixture_em_loop, (np.array([-1.0, 1.0]), x), 0, SCALAR),
        "hierarchical_list": (T.hierarchical_loop_list, (np.array([0.1, 0.2]), [x[:3], x[3:5], x[5:]]), 0, SCALAR),
        "ordered_probit": (T.ordered_probit, (np.array([-0.5, 0.3]), 0.3 * x[:6], np.array([0, 1, 2, 1, 0, 2])), 0, SCALAR),
        "glm_bernoulli": (T.glm_family_bernoulli, (r.normal(size=3), X, x), 0, SCALAR),
        "glm_default_family": (T.glm_family_dispatch, (0.3 * r.normal(size=3), X, counts), 0, SCALAR),
        "von_mises": (T.von_mises_mle, (np.array([0.2, 0.3]), x), 0, SCALAR),
        "kl_gaussians_s": (T.kl_gaussians, (r.normal(size=3), 0.3 * r.normal(size=3)), 1, SCALAR),
        "multinomial_where": (T.multinomial_logit_where, (r.normal(size=4), np.array([0.5, -0.3, 1.2, -1.0])), 0, SCALAR),
        "xlogy_poisson": (T.xlogy_poisson, (0.3 * r.normal(size=4), np.array([0.0, 2.0, 1.0, 3.0])), 0, SCALAR),
    }


def _more(r):
    from tests.red37 import programs_more as P
    X = r.normal(size=(5, 3)) * 0.7
    return {
        "batchnorm_net": (P.batchnorm_net, (0.5 * r.normal(size=(3, 2)), X), 0, SCALAR_FR),
        "batchnorm_gamma": (P.batchnorm_gamma, (np.array([1.0, 0.5]), X, 0.5 * r.normal(size=(3, 2))), 0, SCALAR),
        "attribute_reductions": (P.attribute_reductions, (r.normal(size=6),), 0, SCALAR_FR),
        "list_item_methods": (P.list_item_methods, (0.5 * r.normal(size=6),), 0, SCALAR_FR),
        "dict_value_methods": (P.dict_value_methods, (r.normal(size=6),), 0, SCALAR),
        "attribute_methods_vec": (P.attribute_methods_vector, (r.normal(size=6),), 0, VECTOR),
        "clip_take_methods": (P.clip_take_methods, (np.array([0.2, -0.7, 0.3, 0.9]),), 0, SCALAR),
        "transpose_swap": (P.transpose_swap_methods, (r.normal(size=6),), 0, SCALAR),
        "closures_over_loop": (P.closures_over_loop, (r.normal(size=3),), 0, SCALAR),
        "recursion_depth": (P.recursion_depth, (r.normal(size=3),), 0, SCALAR),
        "early_return_loop": (P.early_return_loop, (r.normal(size=4),), 0, SCALAR),
        "generator_tuples": (P.generator_of_tuples, (r.normal(size=4),), 0, SCALAR),
        "star_kwargs_super": (P.star_kwargs_super, (0.5 * r.normal(size=(3, 3)), X), 0, SCALAR),
        "tuple_helper_views": (P.tuple_helper_views, (r.normal(size=5),), 0, SCALAR),
        "while_newton_vector": (P.while_newton_vector, (np.array([2.0, 3.0, 0.5]),), 0, SCALAR),
        "loop_matrix_build": (P.loop_matrix_build, (r.normal(size=4),), 0, SCALAR),
        "ensemble_mean_axis": (P.ensemble_mean_axis, (0.5 * r.normal(size=3), X), 0, SCALAR_FR),
        "attention_pool": (P.attention_pool_subclass, (0.5 * r.normal(size=(3, 2)), X), 0, SCALAR_FR),
        "implicit_newton_layer": (P.implicit_newton_layer, (r.normal(size=3),), 0, SCALAR_FR),
        "energy_force_sens": (P.energy_force_sensitivity, (np.array([0.0, 0.0, 1.1, 0.2, 0.3, 1.0]),), 0, SCALAR_FR),
        "mixture_lse_method": (P.mixture_logsumexp_method, (np.array([-0.5, 0.8]), r.normal(size=6)), 0, SCALAR_FR),
    }


def _ctors(r):
    from tests.red37 import programs_ctors as K
    X = r.normal(size=(4, 3)) * 0.7
    return {
        "derived_attr_overwrite": (K.derived_attribute_overwrite, (np.array([1.0, 2.0, 1.5]), r.normal(size=3)), 0, SCALAR_FR),
        "derived_attr_x": (K.derived_attribute_overwrite, (np.array([1.0, 2.0, 1.5]), r.normal(size=3)), 1, SCALAR),
        "classmethod_inherited": (K.classmethod_inherited, (np.array([1.0, 2.0]), r.normal(size=2)), 0, SCALAR),
        "type_self_inherited": (K.type_self_inherited_init, (np.array([1.0, 2.0]), r.normal(size=2)), 0, SCALAR_FR),
        "dataclass_factory": (K.dataclass_default_factory, (r.normal(size=3),), 0, SCALAR),
        "dataclass_scale_arg": (K.dataclass_scale_argument, (1.3,), 0, FLOAT),
        "late_binding_closure": (K.late_binding_closure, (r.normal(size=3),), 0, SCALAR),
        "default_captured": (K.default_captured_at_def, (r.normal(size=3),), 0, SCALAR),
        "loop_lambdas_default": (K.loop_lambdas_default, (r.normal(size=3),), 0, SCALAR),
        "pass_subclass_none": (K.pass_subclass_default_none, (0.5 * r.normal(size=(3, 2)), X), 0, SCALAR),
        "kwargs_into_super": (K.kwargs_into_super, (0.5 * r.normal(size=(3, 2)), X), 0, SCALAR),
        "property_override": (K.property_override, (r.normal(size=2),), 0, SCALAR),
        "super_init_in_loop": (K.super_init_in_loop, (r.normal(size=3),), 0, SCALAR),
        "attribute_before_super": (K.attribute_before_super, (r.normal(size=3),), 0, ("grad", "jvp", "hvp_fr")),
        "class_attribute_init": (K.class_attribute_in_init, (r.normal(size=3),), 0, ("grad", "jvp", "hvp_fr")),
        "helper_in_base_init": (K.helper_in_base_init, (r.normal(size=3),), 0, SCALAR_FR),
        "rewritten_after_super": (K.attribute_rewritten_after_super, (r.normal(size=3),), 0, ("grad", "jvp", "hvp_fr")),
    }


def _types(r):
    from tests.red37 import programs_types as Y
    x5 = np.array([0.4, -0.7, 1.1, -0.2, 0.6])
    return {
        "int_array_weights": (Y.int_array_weights, (r.normal(size=5),), 0, SCALAR_FR),
        "mask_as_number": (Y.mask_as_number, (x5,), 0, SCALAR_FR),
        "integer_powers": (Y.integer_powers, (np.abs(r.normal(size=3)) + 0.5,), 0, SCALAR_FR),
        "float32_constant": (Y.float32_constant, (r.normal(size=3),), 0, SCALAR),
        "python_float_branch": (Y.python_float_branch, (x5,), 0, SCALAR),
        "numpy_scalar_loop": (Y.numpy_scalar_loop, (r.normal(size=3),), 0, SCALAR_FR),
        "half_split_floor_div": (Y.half_split_floor_div, (r.normal(size=5),), 0, SCALAR),
        "bool_sum_count": (Y.bool_sum_count, (x5,), 0, SCALAR),
        "int_argument_mix": (Y.int_scalar_argument_mix, (r.normal(size=3),), 0, SCALAR),
        "divmod_index": (Y.divmod_index, (r.normal(size=7),), 0, SCALAR),
    }


def _flat(r):
    from tests.red37 import programs_flat as F
    return {
        "clipped_gd": (F.clipped_gd, (np.array([0.9, -0.4, 1.3]),), 0, SCALAR_FR),
        "running_stats_loop": (F.running_stats_loop, (r.normal(size=4),), 0, SCALAR_FR),
        "mode_and_count": (F.mode_and_count, (0.5 * r.normal(size=(3, 2)), r.normal(size=(4, 3))), 0, SCALAR_FR),
        "stack_push_pop": (F.stack_push_pop, (r.normal(size=4),), 0, SCALAR_FR),
        "same_array_twice": (F.same_array_twice, (r.normal(size=3),), 0, SCALAR_FR),
        "nested_helper_def": (F.nested_helper_def, (r.normal(size=3),), 0, SCALAR_FR),
        "solve_per_entry": (F.solve_per_entry, (np.array([0.5, 1.5, -0.7]),), 0, SCALAR_FR),
        "keyword_beta": (F.keyword_beta_differentiated, (r.normal(size=3),), 0, SCALAR_FR),
    }


def all_cases():
    r = rng("red37 cases")
    out = {}
    for part in (_classes, _opt, _stats, _more, _ctors, _types, _flat):
        out.update(part(r))
    return out
