"""Session 36 red team (red36): realistic ML, simulation, statistics and optimisation
programs written with ordinary habits (programs_*.py, cases.py) through grad, jvp,
jacfwd, jacrev, hessian, hvp by both routes and grad of grad, each against central
finite differences in float64 (check.py; tests/fd.py never calls thunkgrad). Every case
matches or is refused with a TransformError; REFUSED lists the refusals, and a refused
case that starts to run must then match the differences too (the check runs either
way). test_regressions.py holds the two wrong values it found, reduced."""
import pytest

from tests.red34.check import run_checked
from tests.red36.cases import all_cases
from tests.red36.check import CHECKS

CASES = all_cases()
# forward over reverse covers fewer programs (README "Hessian-vector products"): VJP
# helpers forward mode cannot call (solve, trace, diag, unstack, eigh, svd, expm, a
# method's or callee's rule), backward sweeps that pop lists or read tape entries in
# loops, and helpers returning containers
FORWARD_OVER_REVERSE = (
    "multihead_attention", "multihead_attention_X", "mdn_nll", "gru_loss",
    "conv2d_loop", "conv2d_loop_img", "mlp_input_grad", "adam_unrolled",
    "partial_activation", "weight_decay_dict", "dict_of_losses", "zip_layers_Ws",
    "batch_loop_mean", "embedding_bag", "rk4_omega", "particles_vectorised",
    "verlet_energy", "burgers_godunov", "bodies_energy", "spring_chain",
    "crank_nicolson_r", "shooting_residual", "orbit_leapfrog", "sir_model",
    "mass_spring_damper", "particle_list_update", "probit_nll", "gp_cholesky_nll",
    "gp_slogdet", "mala_logq", "mixture_em_q", "ridge_closed_form",
    "bayes_linreg_evidence", "mvn_logpdf_mean", "logsumexp_mixture", "expm_propagator",
    "bootstrap_fixed", "newton_inner_solve", "gd_inner", "projected_gd",
    "golden_section", "trust_region", "kwargs_forward", "star_args_fns", "partial_loss",
    "map_sorted", "transpose_reshape", "poly_class_roots", "model_built_inside",
    "enumerate_zip", "enumerate_zip_w", "nested_comprehension", "augmented_dict_update",
    "max_builtin_key", "abs_sign_mix", "kron_outer_trace", "eigen_loss", "svd_nuclear",
    "qr_orthogonal", "inverse_trace", "sorted_key_lambda", "while_else",
    "two_lambdas_swap", "filtered_energy",
    # refused without the user's line (hvp_fr's own code, or none): see the report
    "dict_comprehension", "nested_loops_break",
)
REFUSED = {(name, "hvp_fr") for name in FORWARD_OVER_REVERSE} | {
    # `import` inside the function (as_strided has no rule either)
    ("conv1d_as_strided", "grad"), ("conv1d_as_strided", "jvp"),
    # np.fill_diagonal on an intermediate array: written in place
    ("particles_vectorised", "grad"), ("particles_vectorised", "jvp"),
    ("particles_vectorised", "hvp"), ("particles_vectorised", "hessian"),
    # second derivative of scipy.stats.norm.cdf
    ("probit_nll", "hvp"), ("probit_nll", "hessian"),
    # scipy.special.gammainc in its first argument
    ("gammainc_cdf", "grad"), ("gammainc_cdf", "jvp"),
    # forward mode: a differentiated list through `list(zip(s, y))`
    ("lbfgs_s", "jvp"), ("lbfgs_s", "jac_tree"),
    # forward mode and hvp of a function taking **kwargs (none passed)
    ("kwargs_forward", "jvp"), ("kwargs_forward", "hvp"), ("kwargs_forward", "hessian"),
    # a closure appending to the enclosing function's list
    ("closure_counter", "jvp"), ("closure_counter", "jacfwd"), ("closure_counter", "jacrev"),
    # hvp (forward over reverse) through the computed attribute .norm (a property) of a
    # subclass built from a differentiated W (its super().__init__ is inlined now)
    ("inherited_call", "hvp_fr"),
    # itertools.accumulate, iter()/next(), a generator expression zipped later, a nested
    # def taking **opts: no rule or refused as documented
    *((name, c) for name in ("itertools_accumulate", "iter_next", "generator_zip",
                             "generator_zip_w", "kwargs_helper_call")
      for c in ("grad", "jvp", "hvp", "hvp_fr", "hessian")),
}
CHECKED = [(name, check) for name, case in CASES.items() for check in case[3]]


@pytest.mark.parametrize("name, check", CHECKED, ids=[f"{n}-{c}" for n, c in CHECKED])
def test_against_finite_differences(name, check):
    run_checked("red36", CHECKS, CASES[name], name, check, (name, check) in REFUSED)


def test_refusal_list_names_cases():
    assert REFUSED <= set(CHECKED)
