"""Session 40 red team (red41): realistic programs from domains red36-red40 covered
little (programs_*.py, cases.py): pharmacokinetics (Bateman curves, RK4 with doses, a
two-compartment model by expm, AUCs by scipy's trapezoid), life tables, Hill and
Michaelis-Menten kinetics, Wright-Fisher selection, Leslie matrices, Jukes-Cantor
likelihoods, HMM forward algorithms, FitzHugh-Nagumo; 1D finite elements (loops, np.add.at, np.ix_), trusses, robot-arm and
Denavit-Hartenberg kinematics, quaternions, Rodrigues rotations and reprojection,
Bezier curves, Gauss-Legendre quadrature, LQR by Riccati iteration, neo-Hookean
energies; a transformer block, label smoothing, conv1d by np.convolve and by sliding
windows, max pooling, skip-gram with negative sampling, matrix factorisation, t-SNE,
soft-DTW, a linear-chain CRF, RBMs, Gumbel-softmax, mixtures of experts, distillation,
batch norm, a diffusion model's loss; GP marginal likelihoods by solve_triangular, Kalman
filters, IRT, multinomial and nested logit, random intercepts, variograms, kriging, beta
regression, Dirichlet-multinomial, ARMA, Poisson Newton steps with offsets, hurdle
models; Ising and Potts mean field, an XY lattice, an energy-balance climate model, ray
transfer matrices, etalons, implicit heat steps, radiative transfer; Monte Carlo Greeks
with a seeded generator, Merton jumps, SABR, Nelson-Siegel, CIR, CDS, Bachelier, a
binomial tree, Kelly growth, interpolated discount curves, SVI; and habits (reduce,
accumulate, map, sorted keys, _replace, dataclasses.replace, __call__ and staticmethods,
dict comprehensions, walrus, errstate, *args and **kwargs helpers, closures, early
returns, print). Each through grad, value_and_grad, vjp, jvp, jacfwd, jacrev, hvp by its
three routes, hessian by both routes, jacfwd/jacrev of grad, grad of grad (and grad^3)
for floats and grad(lowering="plain") (red40's checks: tests/red40/check.py), each
against central finite differences in float64 (tests/fd.py never calls thunkgrad;
second order against differences of grad, itself checked first).
The whole table (129 cases, 1,710 checks, ~40 s CPU) runs with THUNKGRAD_RED41_FULL=1 or
as `python -m tests.red41.table [NAME...]`; by default three checks per case, rotating.
REFUSED lists the refusals (kept exact). What red41 fixed has its own tests:
tests/forward/test_hvp_fr_zeros.py (cumprod's Hessian at a zero, a wrong value;
life_expectancy here),
tests/rules/test_index_grids.py, tests/containers/test_record_spread.py,
tests/rules/test_windows.py and tests/rules/test_fill_diagonal.py (refusals lifted).
"""
import os

import pytest

pytest.importorskip("scipy")    # red41's programs call SciPy throughout

from tests.red34.check import run_checked  # noqa: E402
from tests.red40.check import CHECKS  # noqa: E402
from tests.red41.cases import all_cases  # noqa: E402

CASES = all_cases()
FR = ("hvp_fr", "hessian_fr")
SECOND = ("hvp", "hvp_fr", "hvp_auto", "hessian", "hessian_fr", "jacfwd_grad",
          "jacrev_grad", "gog", "gog3")
ALL = tuple(CHECKS)


def _listed(names, checks):
    """(name, check) for each check of `checks` the case `name` runs."""
    return {(n, c) for n in names.split() for c in checks if c in CASES[n][3]}


REFUSED = (
    # forward over reverse: reverse code forward mode cannot call with a tangent (fill,
    # structured_solve, triangular_solve, eigvalsh, at_gather, matmul_lhs_spread,
    # interp_fp, np.resize's gather) or writing into a value it made (an assembled K, a
    # DP table R, logsumexp's buffer, a copy updated in place); hmm_forward_loglik,
    # fem_bar_loop, truss_compliance, truss_nodes, maxpool_net and potts_mean_field pass
    # since s40-autofall (the gradient code's own buffers)
    _listed("pk_auc_scipy jukes_cantor_three_taxa fem_bar_add_at "
            "fem_poisson_source embedding_scatter "
            "soft_dtw gumbel_softmax gp_loglik_triangular gp_loglik_triangular_X "
            "gp_predictive_mean discount_curve_interp "
            "in_place_slices_on_copy mutation_selection", FR)
    | _listed("beam_deflection_modes implicit_heat_dense", ("hvp_fr",))
    # grad^3 through eigvalsh's forward helper (at the user's line since msgs41:
    # tests/msgs41); jacfwd of grad through a helper reverse mode cannot differentiate
    | _listed("beam_deflection_modes", ("gog3",)) | _listed("transformer_block_x", ("jacfwd_grad",))
    # reverse over forward: a zip over a differentiated sequence and the DH table
    | _listed("dh_chain", ("hvp", "jacfwd_grad", "jacrev_grad"))
    # a Leslie matrix has complex eigenvalues: np.linalg.eig's rules need a real spectrum
    | _listed("leslie_eig", ALL)
    # second derivatives of scipy.stats' skewnorm.logpdf and norm.cdf have no rule
    | _listed("skew_normal_nll bachelier_portfolio", SECOND)
    # every mode: scipy.linalg.solve_banded has no rule; itertools.accumulate and
    # dataclasses.replace have none; nested defs with *args/**kwargs/keyword-only
    # parameters; a closure appending to an enclosing list
    | _listed("implicit_heat_banded implicit_heat_banded_u0 accumulate_smooth_max "
              "dataclass_replace star_args_helper kwargs_defaults_helper closure_counter", ALL)
)
CHECKED = [(name, check) for name, case in CASES.items() for check in case[3]]
if not os.environ.get("THUNKGRAD_RED41_FULL"):
    CHECKED = [(name, case[3][(k + j) % len(case[3])]) for k, (name, case) in
               enumerate(CASES.items()) for j in range(0, 3 * 4, 4)
               if j < len(case[3])]


@pytest.mark.parametrize("name, check", CHECKED, ids=[f"{n}-{c}" for n, c in CHECKED])
def test_against_finite_differences(name, check):
    run_checked("red41", CHECKS, CASES[name], name, check, (name, check) in REFUSED)


def test_refusal_list_names_cases():
    every = {(name, check) for name, case in CASES.items() for check in case[3]}
    assert REFUSED <= every
