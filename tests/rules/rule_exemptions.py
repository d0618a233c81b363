"""The rules tests/rules/test_every_rule_checked.py does not drive with its examples, each
with why and where it is checked instead: EXEMPT by rule name (or (rule name,
parameter)), and family_exemptions for whole families (random draws, frozen
distributions, complex and container rules). Its examples (EXTRA) stay in that file."""
from runtime import registry

_RANDOM = ("a random draw: its finite difference needs the same stream, so seeded programs "
           "check it (tests/safety/test_random_draws.py, test_generator_draws.py)")
_FROZEN = ("a frozen distribution: its cotangent is a dict by parameter; programs check it "
           "(tests/rules/test_scipy_stats_frozen.py)")
_CONTAINER = ("a Python container operation: its cotangent is structural; compiled programs "
              "check it (tests/containers, tests/rules/test_mutants_operators.py)")
_COMPLEX = ("complex values in or out: checked against central differences of Re(sum(G * y)) "
            "with a complex G, real and imaginary parts perturbed apart, float32/complex64 kept "
            "(tests/rules/test_fft.py, test_complex_parts.py, complex_checks.py)")
_SYMMETRIC = ("reads one triangle of a symmetric matrix: its own tests difference the "
              "symmetrised input (tests/rules/test_decompositions.py, test_scipy_linalg.py, "
              "test_scipy_stats_more.py, test_scipy_linalg_factorizations.py, "
              "test_scipy_linalg_decompositions.py)")
# a flat gradient's dispatched calls: neither their VJP nor their JVP is driven by the
# rule checks (tests/rules/test_jvp_rules.py exempts them too)
DISPATCHED = {
    "transform.flat_dispatch.rule_call": "a call dispatched when it runs, in a flat gradient "
    "(hvp forward over reverse; its tangent forward mode's call_jvp): "
    "tests/forward/test_hvp_fr_calls.py and the corpus's hvp run of that route",
    "transform.flat_dispatch.rule_cotangents": "a dispatched call's cotangents (tangent: the "
    "pullback of call_jvp's rule along (g_dot, g)): tests/forward/test_hvp_fr_calls.py and "
    "the corpus's hvp run of that route against differences of grad",
    "runtime.closures.partial_part": "part of a partial's cotangent (linear in g; reverse "
    "over it refused): tests/forward/test_hvp_fr_calls.py and the corpus's hvp run",
}
# rule name, or (rule name, parameter): why it is not driven here, and where it is checked
EXEMPT = {
    "runtime.rules.piecewise.piecewise_jvp": "np.piecewise's tangent, its pieces user "
    "functions (reverse over it: runtime/rules/piecewise_second.py): "
    "tests/forward/test_hvp_piecewise.py, hvp by both routes against second differences",
    **DISPATCHED,
    "transform.flat_calls.callee_vjp": "a user callee's gradient seeded with g (hvp's "
    "forward-over-reverse route): tests/forward/test_hvp_forward_over_reverse.py and the "
    "corpus's hvp run of that route against differences of grad",
    "transform.forward_api.call_jvp": "reverse mode over a callee's generated `_jvp` "
    "(transform/forward_reverse.py): tests/forward/test_hvp.py and the corpus's hvp run "
    "(tests/forward/test_corpus_hvp.py) against differences of grad",
    "transform.forward_api.call_jvp_keywords": "call_jvp with its keywords in one dict "
    "(a keyword carrying a tangent): tests/noticed36 (hvp and hessian against second "
    "differences of f) and red2's partial_of_partial_kw",
    "transform.forward_nested.call_jvp_tangent": "call_jvp's tangent (forward over forward), "
    "a user function called: its pullback against its JVP and differences in "
    "tests/rules/test_jvp_generated_calls.py, third derivatives in tests/higher",
    "transform.spread_jvp.spread_jvp": "call_jvp over spread entries (f(*xs)): "
    "tests/forward/test_spread_generators.py, hvp against second differences of f",
    "transform.spread_jvp.spread_keywords_jvp": "call_jvp over spread keywords "
    "(f(**params)): tests/forward/test_spread_generators.py, hvp against second "
    "differences of f",
    "transform.forward_api.jvp": "jvp called in differentiated code (call_jvp's rules, "
    "regrouped): tests/higher/test_nested_forward.py against differences",
    "runtime.rules.forward_container_helpers.dict_get_jvp": "d.get's tangent takes dicts "
    "(checks.py steps lists and arrays): tests/forward/test_hvp_helpers.py (dict_get, "
    "dict_methods) against differences of grad",
    "runtime.attributes.with_attribute_jvp": "a tuple of tangents holding an object: "
    "tests/forward/test_hvp_helpers.py (structural) against differences of grad",
    "runtime.containers.replace_fields_jvp": "a tuple of tangents holding a record: "
    "tests/forward/test_hvp_helpers.py (structural) against differences of grad",
    "scipy.integrate._odepack_py.odeint": "callable and solver tolerances: "
    "tests/rules/test_scipy_integrate.py at tight tolerances",
    "scipy.integrate._ivp.ivp.solve_ivp": "callable and solver tolerances: "
    "tests/rules/test_scipy_integrate.py",
    "numpy.piecewise": "its pieces are callables compiled by thunkgrad: "
    "tests/rules/test_piecewise.py under every policy",
    "scipy.linalg._decomp_cholesky.cho_factor": "returns (c, lower) with a bool: "
    "tests/rules/test_scipy_linalg.py (gp_nll_cho)",
    "scipy.linalg._decomp_cholesky.cho_solve": "takes the (c, lower) pair: "
    "tests/rules/test_scipy_linalg.py (gp_nll_cho)",
    "scipy.linalg._decomp_lu.lu_factor": "pivots are integers in a tuple: "
    "tests/rules/test_scipy_linalg_more.py",
    "scipy.linalg._decomp_lu.lu_solve": "takes the (lu, piv) pair: "
    "tests/rules/test_scipy_linalg_more.py",
    "scipy.linalg._decomp_svd.svd": "singular vectors' signs: "
    "tests/rules/test_scipy_linalg_decompositions.py",
    "numpy.float32": "rounds float64 values to float32 (differences see the rounding): "
    "tests/rules/test_float_types.py checks its dtypes and gradients",
    "numpy.row_stack": "deprecated alias of np.vstack (NumPy 2.0): tests/rules/test_layouts.py",
    "numpy.linalg.vector_norm": "NumPy 2 array API alias, with cases in test_norm_orders.py",
    "runtime.rules.indexing.index_trick": "np.r_/np.c_ subscripts: tests/rules/test_shape.py, "
    "tests/safety/test_value_rules.py and tests/rules/test_assembly_programs.py",
    "runtime.rules.forward_container_helpers.index_trick_jvp": "np.r_/np.c_'s tangent (tuples "
    "of items and tangents): hvp and hessian through it in tests/higher/test_second_order_rules.py",
    "runtime.rules.indexing_helpers.index_trick_vjp": "np.r_/np.c_'s cotangents (a tuple by "
    "item): hvp forward over reverse through it in tests/higher/test_second_order_rules.py",
    "numpy.linalg.cholesky": _SYMMETRIC, "numpy.linalg.eigh": _SYMMETRIC,
    "numpy.linalg.eigvalsh": _SYMMETRIC, "scipy.linalg._decomp.eigh": _SYMMETRIC,
    "scipy.linalg._decomp.eigvalsh": _SYMMETRIC,
    "scipy.linalg._decomp_cholesky.cholesky": _SYMMETRIC,
    ("scipy.stats.multivariate_normal.logpdf", "cov"): _SYMMETRIC,
    ("scipy.stats.multivariate_normal.pdf", "cov"): _SYMMETRIC,
    "numpy.linalg.eig": "real spectra only, eigenvectors up to scale: "
    "tests/rules/test_decompositions.py with its normalising fd=",
    "scipy.linalg._decomp.eig": "complex eigenvalues of a real spectrum, eigenvectors up to "
    "sign: tests/rules/test_scipy_linalg_eig.py (sign-free losses, both modes)",
    "scipy.linalg._decomp.eigvals": "complex eigenvalues of a real spectrum: "
    "tests/rules/test_scipy_linalg_eig.py",
    ("scipy.stats.dirichlet.logpdf", "x"): "x must stay on the simplex (a plain finite "
    "difference leaves it): tests/rules/test_scipy_stats_more.py",
    ("scipy.stats.dirichlet.pdf", "x"): "x must stay on the simplex: "
    "tests/rules/test_scipy_stats_more.py",
    ("math.prod", "start"): "keyword-only; the examples pass floats positionally",
    "scipy.signal._signaltools.sosfilt": "SciPy rejects a read-only sos (the checks freeze "
    "inputs): tests/rules/test_scipy_signal_extra.py checks x by hand, both dtypes",
    "runtime.rules.scipy_signal_extra.filtered_sos": "sosfilt's tangent, SciPy rejects a "
    "read-only sos: test_jvp_rules (MORE) and hvp in tests/higher/test_second_order_scipy40.py",
    "runtime.rules.scipy_signal_extra.sosfilt_vjp": "sosfilt's cotangent, SciPy rejects a "
    "read-only sos: test_jvp_rules (MORE) and hvp in tests/higher/test_second_order_scipy40.py",
    ("numpy.unwrap", "period"): "keyword-only: tests/rules/test_gathers.py "
    "(test_unwrap_in_its_period, compiled under every policy)",
}


def family_exemptions(extra):
    """(rule name, why) for the rules of a family checked elsewhere as a whole (an
    operator with an example in `extra` is driven here)."""
    for rule in registry._RULES.values():
        family = getattr(rule, "family", None)
        if family == "random" and rule.kind != "nondiff":
            yield rule.name, _RANDOM
        elif family in ("scipy_stats_more", "scipy_stats_extra") and \
                ("frozen" in rule.name or "(...)" in rule.name):
            yield rule.name, _FROZEN
        elif family in ("fft", "complex_parts"):
            yield rule.name, _COMPLEX
        elif family == "operators" and rule.fn not in extra:
            yield rule.name, _CONTAINER
