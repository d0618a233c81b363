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
# helpers forward mode cannot call (trace, diag, unstack, qr, a method's or callee's
# rule), backward sweeps that pop lists or read tape entries in loops, and helpers
# returning containers (solve's, cholesky's, slogdet's, eigh's, svd's and expm's are
# taken since session 39, autoconst: 10 programs left this list; particle_list_update
# passes since session 39: red40's alias fix, an entry read by index from a list is no
# view of it; particles_vectorised since session 40, red41: np.fill_diagonal as a
# subscript write; augmented_dict_update since session 40, autofall: nor from a dict display)
FORWARD_OVER_REVERSE = (
    "probit_nll", "mvn_logpdf_mean",
    "kwargs_forward", "abs_sign_mix", "kron_outer_trace",
    "qr_orthogonal",
)
REFUSED = {(name, "hvp_fr") for name in FORWARD_OVER_REVERSE} | {
    # `import` inside the function (as_strided has no rule either)
    ("conv1d_as_strided", "grad"), ("conv1d_as_strided", "jvp"),
    # (particles_vectorised's np.fill_diagonal runs since session 40, red41)
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
