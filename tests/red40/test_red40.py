"""Session 39 red team (red40): realistic programs as outside users write them
(programs_*.py, cases.py): masked and rotary attention, layer norm as a class with
properties, LSTM/GRU cells returning tuples and dicts, mixture density heads, a VAE's
ELBO with fixed reparametrisation draws, InfoNCE and margin contrastive losses; n-body
energies with a cutoff, explicit heat steps, damped springs, SIR/SEIR, hand-written
Runge-Kutta (a Butcher table), leapfrog, Langevin; GLMs, Student-t likelihoods (by hand
and scipy.stats), hierarchical models, kernel densities, Gaussian-process marginal
likelihoods by Cholesky (NumPy and SciPy); Monte Carlo option prices with fixed draws,
Black-Scholes and implied volatility, portfolio variance, risk parity, GARCH, EWMA;
FIR/IIR filters, DFTs, autocorrelation, Savitzky-Golay, total variation; and habits
(tuples and dicts from helpers, dataclasses, properties, classmethods, *args, partial,
lambdas, early returns, while/break, in-place updates on copies, print, float32).
Each runs through grad, value_and_grad, vjp, jvp, jacfwd, jacrev, hvp by its three routes,
hessian by both routes, jacfwd/jacrev of grad, grad of grad (and grad^3) for floats and
grad(lowering="plain"), each against central finite differences in float64 (tests/fd.py
never calls thunkgrad; second order against differences of grad, itself checked first).
The whole table (112 cases, 1,437 checks, ~40 s CPU) runs with THUNKGRAD_RED40_FULL=1 or
as `python -m tests.red40.table [NAME...]`; by default three checks per case, rotating.
REFUSED lists the refusals (kept exact); NAN the one wrong value left (a documented
limitation). test_regressions.py holds what red40 fixed.
"""
import functools
import os

import pytest

pytest.importorskip("scipy")    # red40's programs call SciPy throughout

from tests.red34.check import FR, SECOND, listed, run_checked  # noqa: E402
from tests.red40.check import CHECKS  # noqa: E402
from tests.red40.cases import all_cases  # noqa: E402

CASES = all_cases()
_listed = functools.partial(listed, CASES)         # (name, check) pairs the cases run


ALL = tuple(CHECKS)
REFUSED = (
    # forward over reverse: forward mode cannot call these reverse-code helpers with a
    # tangent (solve, triangular_solve, cho_solve_factor, take_along_axis, cumsum):
    # "calling a function value ... not supported yet"; reverse code writing into a
    # value it made (logsumexp's keepdims buffer, a copy updated in place); a zip over
    # a Butcher row and the stages so far (mdn_mixture_nll and butcher_rk pass since
    # session 40, autofall: the alias check reads what the gradient code's own helpers
    # return, a loop over iterable(xs) of a list walks its copy)
    _listed("gp_matern_scipy cross_entropy_take inplace_on_copy", FR)
    # (gp_marginal_np, gp_marginal_np_y, gp_cho_solve, moving_average_cumsum pass
    # since the session-39 merge: autoconst's solve/cholesky/cumsum helpers; mc_asian's
    # and mc_barrier_smoothed's hvp too, their Hessians not yet)
    | _listed("mc_asian mc_barrier_smoothed", ("hessian_fr",))
    # second order of scipy.stats.norm.cdf and .logcdf (no rule: logpdf and pdf have one)
    | _listed("probit_stats bs_vega_portfolio implied_vol delta_hedge_pnl", SECOND)
    # second order through np.interp's x (matched_filter's shifted template): its hvp
    # and grad of grad pass since the session-39 merge (secorder2's interp_x_vjp rule)
    | _listed("matched_filter", ("hessian", "hessian_fr", "jacfwd_grad", "jacrev_grad"))
    # forward mode: np.abs of np.fft.rfft's complex values
    | _listed("rfft_power", ("jvp", "jacfwd") + SECOND)
    # every mode: `import` inside the function (lfilter_scipy); a nested def with *args
    # and a keyword-only parameter (star_args_sum); dict.update (kwargs_splat_call)
    | _listed("lfilter_scipy star_args_sum kwargs_splat_call", ALL)
)
# sqrt(max(v, 0)) at v < 0 (Heston's full truncation): 0 * inf, nan in every mode, as
# in other AD systems; differences give the one-sided 0
NAN = _listed("heston_euler", ALL)
CHECKED = [(name, check) for name, case in CASES.items() for check in case[3]]
if not os.environ.get("THUNKGRAD_RED40_FULL"):
    CHECKED = [(name, case[3][(k + j) % len(case[3])]) for k, (name, case) in
               enumerate(CASES.items()) for j in range(0, 3 * 4, 4)
               if j < len(case[3])]


@pytest.mark.parametrize("name, check", CHECKED, ids=[f"{n}-{c}" for n, c in CHECKED])
def test_against_finite_differences(name, check):
    if (name, check) in NAN:
        with pytest.raises(AssertionError, match="nan"):
            run_checked("red40", CHECKS, CASES[name], name, check, False)
        return
    run_checked("red40", CHECKS, CASES[name], name, check, (name, check) in REFUSED)


def test_refusal_list_names_cases():
    every = {(name, check) for name, case in CASES.items() for check in case[3]}
    assert REFUSED <= every and NAN <= every
