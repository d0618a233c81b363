"""What reverse mode can take in generated forward-mode code it compiles again (hvp,
hessian, grad of grad): calls of runtime or compiler functions without a reverse rule
are refused before anything runs, at the user's `def` line (reverse mode would otherwise
compile the helper's own source)."""
import linecache
import types

from runtime import registry
from runtime.complex_safety import user_facing

from .emit import tracebacks
from .errors import TransformError

# runtime functions reverse mode differentiates from their own source like a user's
# helper: JVP helpers in plain NumPy, and functools.reduce's Python form (each checked
# against differences of grad in tests/forward/test_hvp_helpers.py, test_hvp_scipy.py
# and test_hvp_numpy_helpers.py; solve_triangular's, matrix_power's and pinv's also in
# tests/red35: `tri_solves`, `powers_and_pinvs`); what their source does that reverse
# mode does not take is refused there, at the helper's line (a refusal raised when one runs, at the user's:
# emit/tracebacks.py). By name:
# importing the SciPy rules' modules here would register them before SciPy is imported
BY_SOURCE = frozenset(
    ["runtime.rules.forward_linalg_helpers." + n for n in (
        "svd_jvp", "eigh_jvp", "eigvalsh_jvp", "qr_jvp", "lstsq_jvp", "eig_jvp", "eigvals_jvp")] +
    ["runtime.rules.forward_helpers." + n for n in (
        "pinv_jvp", "svdvals_jvp", "matrix_power_jvp", "multi_dot_jvp")] +
    ["runtime.rules.scipy_linalg." + n for n in (
        "cho_factor_jvp", "cho_solve_factor_jvp", "triangular_solve_jvp", "sqrtm_jvp",
        "matrix_equation_jvp")] +
    ["runtime.rules.scipy_linalg_factorizations." + n for n in (
        "scipy_eigvalsh_jvp", "scipy_qr_jvp")] +
    ["runtime.rules.scipy_linalg_second.expm_jvp_a_jvp", "runtime.rules.scipy_stats.mvn_jvp"] +
    ["runtime.rules.polynomials_helpers." + n for n in ("polyval_slope", "vander_slopes")] +
    ["runtime.rules.ufunc_methods_helpers.running_max_jvp"] +
    ["runtime.rules.scipy_linalg_more." + n for n in ("lu_factor_jvp", "lu_solve_factor_jvp")] +
    ["runtime.rules.linalg_more." + n for n in ("tensorinv_jvp", "tensorsolve_jvp")] +
    ["runtime.rules.forward_container_helpers." + n
     for n in ("dict_items_jvp", "dict_pairs_jvp")] +
    ["runtime.reduce_source." + n for n in ("reduce_from_first", "reduce_with_initial")] +
    ["runtime.rules.forward_helpers.cumprod_jvp", "runtime.rules.polynomials_more.polymul_jvp",
     "runtime.rules.scipy_signal_extra.filled_2d", "runtime.rules.math_module.math_prod_vjp"] +
    # (session 39: math.prod's, np.average's weights', np.corrcoef's and np.linalg.cond's
    # tangents, with the private helpers theirs call; tests/higher/test_helper_routes.py)
    ["runtime.rules.reductions_helpers." + n
     for n in ("average_weights_jvp", "_weights_like", "_kept", "_axes")] +
    ["runtime.rules.statistics_helpers.corrcoef_jvp"] +
    ["runtime.rules.linalg_more." + n for n in ("cond_vjp", "_singular_cot")] +
    # (session 40: np.linalg.norm's slopes' tangent, third order; tests/higher/
    # test_second_order_rules.py)
    ["runtime.rules.norm_helpers." + n for n in ("norm_vjp_jvp", "_norm_parts", "_kept")] +
    ["runtime.rules.second_order_helpers." + n for n in (
        "pow_exponent_x_jvp", "power_base_second", "_log_and_slope")] +
    ["runtime.rules.prod_second_helpers." + n for n in (
        "prod_vjp_jvp", "_flat", "_unflat")] +
    # (session 40: the SciPy distribution functions' slopes in x and boxcox's in lmbda,
    # plain NumPy over gammaln and betaln; tests/higher/test_second_order_scipy40.py)
    ["runtime.rules.scipy_special_extra." + n for n in (
        "incomplete_density", "t_density", "f_density", "boxcox_lambda_slope")] +
    # (session 40: third order, logsumexp_jvp's tangent along b; tests/higher/
    # test_second_order_scipy40.py against differences of grad of grad)
    ["runtime.rules.scipy_special.logsumexp_jvp_b_jvp"] +
    # (session 40: third order, cholesky's tangent's own tangent; tests/higher/
    # test_second_order_rules.py)
    ["runtime.rules.prod_second_helpers." + n for n in (
        "cholesky_jvp_jvp", "_chol_parts", "_phi", "_upper")] +
    # (session 40: scipy.special.zeta's slope in x, multigammaln's in a; tests/higher/
    # test_second_order_scipy40.py)
    ["runtime.rules.scipy_special_more.zeta_dx", "runtime.rules.scipy_special.multigammaln_vjp"] +
    ["runtime.rules.math_module.trigamma"] +      # (third order: math.lgamma's, math.gamma's)
    # (session 40: the reduceat extremes' and products' tangent, over prod_vjp and tie_share)
    ["runtime.rules.ufunc_methods_helpers.segment_jvp"] +
    ["runtime.rules.scipy_signal_extra.lfilter_jvp"] +      # (session 40: over lfilter's rule)
    ["runtime.rules.scipy_stats_more." + n for n in ("dirichlet_vjp", "dirichlet_alpha_jvp")] +
    ["runtime.rules.scipy_linalg_more." + n for n in ("logm_vjp", "_real_or_refuse")])


# runtime functions forward mode (only) differentiates from their own source: the VJP
# helpers reverse mode's flat gradient calls (hvp forward over reverse,
# transform/flat_gradient.py), in plain NumPy, and the private helpers they call; their
# forward code is compiled before anything runs (hvp_forward.refuse_helper_calls), and
# each is checked against differences of grad by corpus cases (tests/forward/corpus_hvp.py:
# builtins.divmod_*, programs.lstm_sequence_loss, redteam32.spring_chain_verlet,
# fixes26.float64_of_a_loss, redteam29_stats.gaussian_mixture_loglik,
# redteam32b.convolve_then_roll_laplacian, redteam29b.conv2d_with_scipy_signal,
# redteam29b.bincount_with_weights_scatter_add) and tests/forward/test_hvp_fr_coverage.py
FORWARD_BY_SOURCE = frozenset(
    ["runtime.rules.operators_helpers.divmod_vjp",
     "runtime.rules.gathers_helpers.bincount_weights_vjp"] +
    ["runtime.rules.scipy_special." + n for n in ("logsumexp_vjp", "_weights")] +
    ["runtime.rules.signals_helpers." + n for n in ("convolve_vjp", "_full_cotangent")] +
    ["runtime.rules.scipy_signal." + n for n in ("signal_convolve_vjp", "_full_cotangent")] +
    ["runtime.rules.shape_helpers." + n for n in (
        "join_vjp", "diff_vjp", "float_type_vjp", "cast_back")] +
    # session 39 (autoconst): redteam32.cumsum_path_drawdown, redteam29b.
    # matrix_exponential_and_eigh, redteam32.svd_truncated_reconstruction,
    # redteam29.polyval_fit_with_vander; tests/forward/test_hvp_fr_constants.py
    ["runtime.rules.ufunc_methods_helpers.segment_vjp"] +     # (session 40: reduceat's)
    ["runtime.rules.ufunc_methods_helpers.running_max_vjp", "runtime.rules.scipy_linalg.expm_vjp",
     "runtime.rules.shape_helpers.sum_to_shape"] +
    ["runtime.rules.reductions_helpers." + n for n in (
        "cumsum_vjp", "cumprod_vjp", "_cumprod_recurrence", "_reverse_cumsum", "_drop_first")] +
    ["runtime.rules.decompositions_helpers." + n for n in (
        "eigh_vjp", "svd_vjp", "slogdet_vjp", "_parts", "_sym", "_inverse_gaps")] +
    ["runtime.rules.polynomials_helpers." + n for n in (
        "polyval_coefficients_vjp", "vander_vjp", "_powers")] +
    ["runtime.rules.scipy_linalg." + n for n in (
        "cho_factor_vjp", "cho_solve_factor_vjp", "cho_solve_rhs_vjp")])


def by_source(fn):
    """Whether reverse mode may differentiate runtime function `fn` from its source."""
    return f"{fn.__module__}.{fn.__qualname__}" in BY_SOURCE


def forward_by_source(fn):
    """Whether forward mode may differentiate runtime function `fn` from its source."""
    return by_source(fn) or f"{fn.__module__}.{fn.__qualname__}" in FORWARD_BY_SOURCE


def refuse_helpers(plain, generated, entry="hvp/hessian"):
    """Refuse generated forward code that calls runtime or compiler functions reverse
    mode has no rule for (a try statement's block is reverse mode's own: it refuses a
    derivative through it itself)."""
    cells = dict(zip(generated.__code__.co_freevars,
                     [c.cell_contents for c in generated.__closure__ or ()]))
    for used in sorted(_names(generated.__code__)):
        value = cells[used] if used in cells else generated.__globals__.get(used)
        if isinstance(value, types.FunctionType) and registry.lookup(value) is None and \
                not getattr(value, "thunkgrad_block", False) and \
                not by_source(value) and \
                (value.__module__ or "").split(".")[0] in ("runtime", "transform"):
            raise _helper_refusal(plain, generated, used, value, entry)


def _helper_refusal(plain, generated, used, value, entry):
    """The refusal of generated forward code calling thunkgrad's helper `used`: at the
    user's line (for a helper of thunkgrad's own being compiled, grad of grad of grad
    through a rule's tangent, none here: the line of the generated code running it,
    emit/tracebacks.py), naming the rule whose second derivative is missing."""
    own = _thunkgrads(plain)
    where = (None,) * 4 if own else _user_line(plain, generated, used)
    shown = f"{where[3] or ''} {tracebacks.value_name(plain) or ''}"   # h(x): h's name
    construct = _construct(value, used, shown)
    if own:          # (entry: call_jvp's rule's, whichever derivative of grad runs it)
        whose, message = "a higher derivative: ", f"the derivative code of a rule on " \
            f"this line (thunkgrad's {plain.__name__}), differentiated again, calls a " \
            "helper of thunkgrad's that reverse mode cannot differentiate yet"
    elif construct.endswith("'s derivative on this line"):
        whose, message = f"{entry} of {tracebacks.user_name(plain)}: ", \
            f"{construct[:-26]} on this line has a derivative rule, but not the second " \
            f"derivative {entry} needs: its derivative calls a helper of thunkgrad's that " \
            "reverse mode cannot differentiate yet"
    else:
        whose, message = f"{entry} of {tracebacks.user_name(plain)}: ", \
            f"the forward-mode code of {construct} calls a helper of thunkgrad's that " \
            "reverse mode cannot differentiate yet (a rule's derivative helper, a " \
            "closure, a container operation)"
    return TransformError(whose + message, filename=where[0], line=where[1],
                          col=where[2], source_line=where[3],
                          hint=("compute the last derivative by finite differences" if own
                                else "compute H v by finite differences of grad, or jacfwd "
                                "of grad when it applies") + "; or inline the construct in "
                          "plain NumPy")


def _thunkgrads(fn):
    """Whether fn is thunkgrad's own code (a rule's tangent compiled again)."""
    return (getattr(fn, "__module__", None) or "").split(".")[0] in ("runtime", "transform")


# thunkgrad's own functions generated code calls for a construct of the user's
_CONSTRUCTS = {"_keywords_tangent": "a call passing keyword arguments on this line",
               "call_jvp_tangent_jvp": "the call of a function on this line (a third "
                                       "derivative of it)",
               "_spread_keywords_tangent": "a call spreading `*args` or `**kwargs` on "
                                           "this line"}


def _construct(value, used, source):
    """What the user wrote that generated code calls helper `used` for: the NumPy (or
    SciPy, Python) function whose rule's derivative it is, `np.sinc`'s derivative on
    this line (of the rules calling it, one whose name the user's line shows: np.divide.
    outer's, not np.arctan2.outer's), else a construct on this line (the helper's own
    name means nothing to the user)."""
    if used in _CONSTRUCTS:
        return _CONSTRUCTS[used]
    names = []
    for rule in list(registry._RULES.values()):
        texts = list(rule.templates.values()) + [str(t) for t in rule.jvps.values()]
        name = user_facing(rule.name)
        if (any(f"{used}(" in str(t) for t in texts) or rule._declared_jvp is value) and \
                name.split(".")[0] not in ("runtime", "transform"):
            names.append(name)
    shown = [n for n in names if n.split(".", 1)[-1] in source]
    return f"{(shown or names)[0]}'s derivative on this line" if names else \
        "a construct on this line"


def _user_line(plain, generated, used):
    """(file, line, column, text): the user's line whose generated code calls `used`
    (through generated code compiled again: grad of grad of grad), else plain's def."""
    filename = generated.__code__.co_filename
    for k, text in enumerate(linecache.getlines(filename), 1):
        where = f"{used}(" in text and tracebacks.user_origin(filename, k)
        if where:
            source = linecache.getline(*where).rstrip("\n")
            return (*where, len(source) - len(source.lstrip()), source or None)
    code = plain.__code__
    return code.co_filename, code.co_firstlineno, None, None


def _names(code):
    found = set(code.co_names) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found
