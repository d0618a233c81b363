"""Session 38 red team (red39): forward mode and second derivatives as outside users
reach for them (programs_*.py, cases.py): Newton, IRLS and Gauss-Newton steps, Laplace
approximations, Sinkhorn, Cox and Bradley-Terry likelihoods (scipy's expit, gammaln,
logsumexp, solve, cho_factor/cho_solve, solve_triangular); molecular energies, forces
and normal modes, RK4/symplectic/implicit integrators, Kepler's equation, finite
elements; MLP/RNN/flow losses for Hessian-vector products; implicit sensitivities; hand
solvers (Thomas, Cholesky, Gauss-Seidel, secant, adaptive steps); bound methods,
lambdas, functools.partial objects, *args, closures, views and in-place writes on
copies. Each runs through grad, jvp, jacfwd, jacrev, hvp by its three routes (auto,
forward over reverse, reverse over forward), hessian by both routes, jacfwd/jacrev of
grad, grad of grad (and grad^3) for float arguments, and grad(lowering="plain"), each
against central finite differences in float64 (check.py: second order against
differences of grad, itself first checked against differences of the function). The
whole table (145 cases of 140 programs, 1,503 checks, ~45 s CPU) runs here; `python -m
tests.red39.table [NAME...]` prints it. Every check matches or is refused with a
TransformError (REFUSED, kept exact).
test_regressions.py holds what it found.
"""
import functools

import pytest

pytest.importorskip("scipy")    # red39's programs call SciPy throughout

from tests.red34.check import FR, SECOND, listed, run_checked
from tests.red39.cases import all_cases
from tests.red38.check import CHECKS

CASES = all_cases()
_listed = functools.partial(listed, CASES)         # (name, check) pairs the cases run


REFUSED = (
    # forward over reverse: forward mode cannot call these reverse-code helpers with a
    # tangent (solve, cho_factor, cho_solve, logsumexp, cumsum, cumprod, diff,
    # solve_triangular, trapezoid, polyval, convolve, slogdet, tensordot, diagonal,
    # at_gather, interp, average): "calling a function value ... not supported yet"
    _listed("logreg_newton_step poisson_irls "
            "gauss_newton_exp logreg_fit_lam poisson_backtracking "
            "mvn_tril spring_compliance heat_implicit_kappa "
            "ridge_val work_integral tensordot_energy "
            "matrix_inplace_matmul add_at_histogram "
            "mode_frequencies lstsq_gauss_newton",
            FR)
    # (laplace_evidence, laplace_predictive, cox_partial, ridge_targets, arm_reach,
    # polytrend, det_volume, survival_cumprod, nuclear_norm, markov_expm and
    # implicit_euler_newton's hvp pass since session 39, autoconst: solve's, cholesky's,
    # a sort's cotangents have rules, more VJP helpers are compiled from their source)
    | _listed("implicit_euler_newton", ("hessian_fr",))
    # forward over reverse: the reverse code writes a buffer it may share (Gauss-Seidel,
    # FE assembly, in-place updates of copies; ARMA residuals and Thomas' solve pass
    # since session 38, fwdcov's snapshots; the plain lowering takes every program here
    # since session 38, plainloops and plaincalls)
    # (inplace_on_arg_copy passes since session 39: red40's alias fix, an entry read by
    # index from a list its reverse code builds is no view of the list; normal_mode_energy,
    # gauss_seidel, stiffness_loop and stiffness_nodes since session 40, autofall: the
    # alias check reads what the gradient code's own helpers return)
    | _listed("inplace_rows", FR)
    # every mode: a write through a view of a copy read later (`col = Z[:, 1]; col *=`,
    # `At = A.T; At[0] *=`), a tuple swap of entries, `.sort()` of a copy; a
    # differentiated argument collected by *args; a try/except around a Cholesky (the
    # jitter fallback: a try body runs in the forward sweep only)
    | _listed("view_write_column transposed_view_write tuple_swap sorted_copy_inplace "
              "star_args_network gp_jitter_fallback", tuple(CHECKS))
    # second order: hasattr(x[0], "item") (item_and_tolist), np.linalg.norm(ord=3),
    # thunkgrad's grad called inside the function (force_norm) (np.average's weights
    # helper has a reverse rule since session 38: weighted_stats passes; np.interp's x
    # helper since session 39: interp_field passes on every route)
    | _listed("item_and_tolist norm_ord force_norm", SECOND)
    # second order through odeint and solve_ivp (their JVP helpers have no reverse
    # rule); solve_ivp without t_eval in every mode (the rule needs the output times)
    | _listed("odeint_osc ivp_decay_t", SECOND)
    | _listed("ivp_decay", tuple(CHECKS))
    # hessian of a dataclass argument: "takes a float, a float array, or a tuple, list
    # or dict of them" (its grad, jvp and hvp pass)
    | {("lj_record", "hessian_tree")}
    # jacfwd/jacrev of grad of a bound method: "not supported: higher derivatives"
    | _listed("bound_method", ("jacfwd_grad", "jacrev_grad"))
)
CHECKED = [(name, check) for name, case in CASES.items() for check in case[3]]


@pytest.mark.parametrize("name, check", [pytest.param(n, c, id=f"{n}-{c}")
                                          for n, c in CHECKED])
def test_against_finite_differences(name, check):
    run_checked("red39", CHECKS, CASES[name], name, check, (name, check) in REFUSED)


def test_refusal_list_names_cases():
    every = set(CHECKED)
    assert REFUSED <= every
