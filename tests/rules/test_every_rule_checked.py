"""Every registered rule is checked against central differences (tests/fd.py) in float64
for every parameter it differentiates, in float32 where the rule keeps float32, and with
broadcast operands where it is an elementwise rule of two arguments, or is listed in
EXEMPT (tests/rules/rule_exemptions.py) with the reason and where it is checked instead.

The example arguments are the rule tests' own tables (tests/rules/rule_examples.py), plus
EXTRA below for rules whose tests are written another way. A rule registered without
an example or an exemption fails here, as does a differentiated parameter that no
example passes a float to."""
import builtins
import math
import operator

import numpy as np
import pytest

import runtime
import transform.api  # noqa: F401  (the rules the compiler registers: call_jvp's reverse)
import transform.flat_calls  # noqa: F401  (and hvp's forward-over-reverse route's callee_vjp)
from runtime import registry
from tests.rules.checks import check_float32, check_rule, rand, spd
from tests.rules.rule_examples import gathered, is_float_value
from tests.rules.rule_exemptions import EXEMPT, family_exemptions

try:            # without SciPy (the compat venvs) the NumPy and Python rules are checked
    import scipy.linalg as sl
    import scipy.signal as ss
    import scipy.special as sc
    import scipy.stats as stats
except ImportError:
    sl = ss = sc = stats = None

registry._load_pending()
from runtime.rules.methods import compress, item, tolist  # noqa: E402

A, B = rand(3, 4, seed=1), rand(3, 4, seed=2, low=0.5, high=1.5)
V3, V4, V5, V6 = rand(3, seed=3), rand(4, seed=4), rand(5, seed=5), rand(6, seed=6)
M, S = rand(4, 4, seed=7), spd(4, seed=8)
S3 = spd(3, seed=11)                        # small: logm and sqrtm are slow
LOWER = np.tril(M) + 4 * np.eye(4)
X2 = rand(2, 4, seed=9)
SIMPLEX = np.array([0.2, 0.3, 0.5])
EXTRA = {
    operator.add: [(A, B)], operator.sub: [(A, B)], operator.mul: [(A, B)],
    operator.truediv: [(A, B)], operator.pow: [(B, A)], operator.mod: [(A + 3.0, B)],
    operator.matmul: [(M, A.T)], operator.neg: [(A,)], operator.pos: [(A,)],
    builtins.abs: [(A,)], builtins.float: [(np.float64(0.3),)], builtins.pow: [(B, A)],
    builtins.sum: [([V3, 2 * V3], V3)], max: [((0.3, 0.7, -0.2),)],
    np.float64: [(A,), (np.float64(0.3),)],
    min: [((0.3, 0.7, -0.2),)], math.ldexp: [(1.3, 3)], math.fsum: [([1.2, -2.3, 0.4],)],
    math.prod: [([1.2, -2.3, 0.4],)], math.frexp: [(2.3,)], math.modf: [(2.3,)],
    math.nextafter: [(2.3, 3.0)], np.nextafter: [(A, B)], np.broadcast_arrays: [(A, V4)], math.dist: [([1.0, 2.0], [0.5, -1.0])],
    np.heaviside: [(A, B)], np.linalg.multi_dot: [([M, A.T, B],)],
    np.linalg.eigvalsh: [(S,)], np.split: [(V6, 3)], np.array_split: [(V5, 2)],
    np.hsplit: [(A, 2)], np.vsplit: [(M, 2)], np.dsplit: [(rand(2, 2, 4, seed=10), 2)],
    item: [(V3[:1],)], compress: [(A, np.array([True, False, True]), 0), (V4, V4 > 0.5)],
    tolist: [(A,)], np.meshgrid: [(V3, V4)], np.einsum: [("ij,jk->ik", M, A.T)],
    np.average: [(A, 0, B)], np.add.reduce: [(A, 0, None, None, False, 2.0)],
    np.interp: [(np.array([-1.0, 0.5, 3.0]), np.array([0.0, 1.0, 2.0]), V3, -0.5, 0.7)],
    np.trapezoid if hasattr(np, "trapezoid") else np.trapz: [(V5, None, 0.7)],
    np.lib.stride_tricks.sliding_window_view: [(V6, 3), (A, (2, 3)), (A, 2, 1)],
}
if stats is not None:
    EXTRA.update({
        sc.logsumexp: [(A,), (A, None, B)], sc.softmax: [(A,)], sc.log_softmax: [(A,)],
        stats.multivariate_normal.logpdf: [(X2, V4, S)], stats.multivariate_normal.pdf:
        [(X2, V4 * 0.1, S)], stats.dirichlet.logpdf: [(SIMPLEX, np.array([1.5, 2.0, 3.0]))],
        stats.dirichlet.pdf: [(SIMPLEX, np.array([1.5, 2.0, 3.0]))],
        stats.poisson.cdf: [(3, 2.5)], stats.poisson.logcdf: [(3, 2.5)],
        stats.poisson.sf: [(3, 2.5)], stats.poisson.logsf: [(3, 2.5)],
        stats.bernoulli.cdf: [(0, 0.3)], stats.bernoulli.logcdf: [(0, 0.3)],
        stats.bernoulli.sf: [(0, 0.3)], stats.bernoulli.logsf: [(0, 0.3)],
        stats.binom.cdf: [(3, 6, 0.4)], stats.binom.logcdf: [(3, 6, 0.4)],
        stats.binom.sf: [(3, 6, 0.4)], stats.binom.logsf: [(3, 6, 0.4)],
        sl.inv: [(M + 4 * np.eye(4),)], sl.det: [(M,)], sl.solve_triangular: [(LOWER, X2.T)],
        sl.cholesky: [(S,)], sl.eigh: [(S,)], sl.expm: [(0.3 * M,)], sl.solve: [(S, X2.T)],
        sl.sqrtm: [(S3,)], sl.logm: [(S3,)], ss.convolve: [(V5, V3)], ss.correlate: [(V5, V3)],
        ss.fftconvolve: [(V5, V3)], sl.block_diag: [(M, V3, 0.5)],
    })
# session 31 (gp31): np.linalg.solve of a Cholesky factor (transform/lowering/cholesky_solves.py)
from runtime.rules.triangular_helpers import solve_cholesky_factor  # noqa: E402
EXTRA[solve_cholesky_factor] = [(LOWER, V4, True), (LOWER.T, X2.T, False)]
# session 39 (autoconst): solve's cotangents, differentiated by hvp forward over reverse
from runtime.rules.decompositions_helpers import solve_vjp  # noqa: E402
_AM, _STACK = M + 4 * np.eye(4), np.stack([S, M + 4 * np.eye(4)])
EXTRA[solve_vjp] = [
    (V4, np.linalg.solve(S, V4), S, V4, 0), (V4, np.linalg.solve(S, V4), S, V4, 1),
    (X2.T, np.linalg.solve(_AM, X2.T), _AM, X2.T, 0),
    (X2.T, np.linalg.solve(_AM, X2.T), _AM, X2.T, 1),
    (V4, np.linalg.solve(LOWER, V4), LOWER, V4, 0, True),
    (X2.T, np.linalg.solve(LOWER.T, X2.T), LOWER.T, X2.T, 1, False),
    (X2, np.linalg.solve(_STACK, V4), _STACK, V4, 0),
    (X2, np.linalg.solve(_STACK, V4), _STACK, V4, 1)]
from runtime.rules.decompositions_helpers import cholesky_vjp  # noqa: E402
_FACTOR = np.linalg.cholesky(S)
EXTRA[cholesky_vjp] = [(M, _FACTOR, False), (M, _FACTOR.T, True)]
# session 40 (detsing): det's cofactor matrix, at invertible and singular (rank 3, rank 1) matrices
from runtime.rules.det_helpers import cofactor, cofactor_jvp  # noqa: E402
EXTRA[cofactor] = [(M,), (M @ np.diag([1.0, 1.0, 1.0, 0.0]) @ M.T,),
                   (np.stack([np.outer(V3, V3[::-1]), S3]),)]
EXTRA[cofactor_jvp] = [(M, S), (np.stack([S3, 2 * S3 + np.eye(3)]), rand(2, 3, 3, seed=14))]
from runtime.rules.shape_helpers import permutation_vjp  # noqa: E402
EXTRA[permutation_vjp] = [(V5, np.sort(V5[::-1] * 2), V5[::-1] * 2, -1),
                          (A, np.sort(B, 0), B, 0), (V6, np.sort(A[:, :2], None), A[:, :2], None)]
# session 32 (logit): np.logaddexp with a number literal (transform/lowering/logaddexp_numbers.py);
# 300 elements take its whole-array path, A takes np.logaddexp's
from runtime.rules.elementwise_helpers import logaddexp_number  # noqa: E402
EXTRA[logaddexp_number] = [(0.0, rand(300, seed=12)), (rand(300, seed=13), 1.5), (A, B)]
# session 32 (hvp): forward mode's helper, given a reverse rule so hvp can run reverse mode
# over generated jvp code: a row broadcast to a matrix, and a matrix to itself
from runtime.forward import broadcast_to_output  # noqa: E402
EXTRA[broadcast_to_output] = [(rand(3, seed=14), rand(2, 3, seed=15)),
                              (rand(2, 3, seed=16), rand(2, 3, seed=17))]
# session 33 (corp): the helpers generated forward code calls, given reverse rules so hvp
# runs reverse mode over `<name>_jvp` (runtime/rules/tangents.py): an item stored into a
# tangent (a row, a number broadcast into a slice, a list entry), a receiver's tangent, an
# attribute's (a transpose; metadata), a reduction's over fixed axes (broadcast
# factors), max's picked entry (numbers, an array's rows), a loop's iterable
from runtime.forward import attribute_tangent, receiver_tangent, stored_tangent  # noqa: E402
from runtime.rules.forward_helpers import reduce_jvp  # noqa: E402
from runtime.rules.operators_helpers import extreme_jvp  # noqa: E402
from runtime.tape import iterable  # noqa: E402
EXTRA[stored_tangent] = [(A, 1, V4), (A, (0, slice(1, 3)), 0.5), ([0.3, 0.7, -0.2], 1, 0.9)]
EXTRA[receiver_tangent] = [(A, B), (0.7, np.float64(0.3))]
EXTRA[attribute_tangent] = [(A, B, "T"), (A, B, "shape")]
from runtime.rules.forward_container_helpers import getattr_jvp  # noqa: E402
EXTRA[getattr_jvp] = [(A, B, "T"), (A, B, "shape")]
EXTRA[reduce_jvp] = [(A, B, 1, False), (A, V4, None, True), (A, B, (0, 1), False)]
EXTRA[extreme_jvp] = [(0.7, (0.3, 0.7, -0.2), (1.1, -0.4, 2.0)),
                      (np.max(V3), V3, 2.0 * V3), (A[1], A, B)]
EXTRA[iterable] = [([V3, 2.0 * V3],), (A,), (rand(3, seed=18),)]
from runtime.rules.reductions_helpers import extremum_vjp  # noqa: E402
from runtime.rules.operators_helpers import sorted_jvp  # noqa: E402
from runtime.rules.complex_helpers import abs_vjp  # noqa: E402
EXTRA[abs_vjp] = [(B, A), (V4, A), (0.7, np.float64(-0.3))]
EXTRA[sorted_jvp] = [([-0.2, 0.3, 0.7], [0.3, 0.7, -0.2], [1.1, -0.4, 2.0]),
                     (np.sort(V3), V3, 2.0 * V3)]
_TIED = np.array([[0.5, 0.2, 0.5], [0.1, 0.9, -0.3]])         # a tie in row 0
EXTRA[extremum_vjp] = [(rand(2, seed=18), np.max(_TIED, 1), _TIED, 1, False),
                       (rand(1, 3, seed=19), np.min(A, 0, keepdims=True), A, 0, True),
                       (1.3, np.max(A), A, None, False)]
# session 34 (red): helpers inside the rules' JVP terms, given reverse rules so hvp runs
# over them (runtime/rules/tangents.py): a transpose, a sort's permutation (flattened and
# along an axis), std's cotangent as an array, prod's `initial=` factor, np.diff's
# tangent (with an end joined), sign's tangent (zero)
from runtime.rules.complex_helpers import sign_jvp  # noqa: E402
from runtime.rules.decompositions_helpers import mT  # noqa: E402
from runtime.rules.forward_helpers import diff_jvp, permuted_jvp  # noqa: E402
from runtime.rules.reductions_helpers import initial_factor  # noqa: E402
from runtime.rules.shape_helpers import as_cotangent  # noqa: E402
EXTRA[mT] = [(A,), (rand(2, 3, 4, seed=20),)]
EXTRA[permuted_jvp] = [(A, np.argsort(B, 1), 1), (V4, np.argsort(-V4), None),
                       (A, np.argsort(B, None), None)]
EXTRA[as_cotangent] = [(A, B), (0.7, B)]
EXTRA[initial_factor] = [(0.7,), (V3,)]
EXTRA[diff_jvp] = [(A, 1, -1, None, None), (V5, 2, 0, np.array([0.3]), 1.5)]
EXTRA[sign_jvp] = [(B, A, np.sign(A)), (0.3, -0.7, -1.0)]
from runtime.rules.complex_helpers import deviation  # noqa: E402
EXTRA[deviation] = [(A, 1), (A, None), (A, (0, 1))]
from runtime.helpers import unreduce  # noqa: E402
from runtime.rules.reductions_helpers import prod_vjp  # noqa: E402
_ZEROED = A.copy()
_ZEROED[1, 2] = 0.0                                       # a zero entry: exact, no division
from runtime.rules.forward_linalg_helpers import cholesky_jvp  # noqa: E402
_CHOL = np.linalg.cholesky(S)
EXTRA[cholesky_jvp] = [(M + M.T, _CHOL, False), (M + M.T, _CHOL.T, True)]
EXTRA[prod_vjp] = [(1.3, A, None, False), (V3, _ZEROED, 1, False),
                   (rand(1, 4, seed=23), A, 0, True), (V3, rand(3, 2, 2, seed=24), (1, 2), False)]
EXTRA[unreduce] = [(V3, A, 1, False), (1.3, A, None, False), (rand(1, 4, seed=22), A, 0, True)]
# reverse mode's helpers forward over reverse meets (runtime/rules/reverse_code.py):
# never an array buffer, which accumulate's helpers would write into
from runtime.accumulate import accum_eager, own  # noqa: E402
from runtime.flat import accumulated_at, gradient_of, lhs_products  # noqa: E402
from runtime.helpers import matmul_lhs, matmul_rhs, unbroadcast  # noqa: E402
from runtime.tape import unviewed  # noqa: E402
from runtime.thunks import unthunk  # noqa: E402
EXTRA[gradient_of] = [(A, A), (0.7, 0.3)]
EXTRA[accum_eager] = [(A, B), (0.7, 0.3)]
EXTRA[own] = [(A,), (0.7,)]
from runtime.accumulate import reused_cotangent  # noqa: E402
EXTRA[reused_cotangent] = [(A, A), (V4, A), (A, A.astype(np.float32))]
EXTRA[unviewed] = [(A,)]
EXTRA[unthunk] = [(A,)]
EXTRA[accumulated_at] = [(A, A, (1, slice(0, 2)), rand(2, seed=31)), (None, A, 2, V4),
                   (A, A, ([0, 0], [1, 1]), rand(2, seed=32))]
EXTRA[matmul_lhs] = [(rand(3, 4, seed=33), A, M), (V3, A, V4), (V4, V3, A)]
EXTRA[matmul_rhs] = [(rand(4, 4, seed=34), A.T, A), (V3, A, V4), (V4, V3, A)]
EXTRA[unbroadcast] = [(A, V4), (A, B), (A, 0.7)]
from tests.rules.reverse_code_examples import REVERSE_CONTAINERS, REVERSE_EXEMPT  # noqa: E402
EXTRA.update(REVERSE_CONTAINERS)       # their container cotangent helpers (reverse_containers)
EXTRA[lhs_products] = [([V3, 2 * V3], [V4, rand(4, seed=38)], A),
                       ([rand(3, 2, seed=39)], [rand(4, 2, seed=40)], A)]
from runtime.containers import getitem_vjp, part, product_or_repeat_vjp  # noqa: E402
EXTRA[part] = [(A, 1), (A, (slice(None), 2))]
from runtime.flat import item_split  # noqa: E402
EXTRA[item_split] = [(A, 1), (A, (slice(None), 2)), (V4, [0, 0, 2])]
from runtime.helpers import transpose_vjp  # noqa: E402
EXTRA[getitem_vjp] = [(V4, A, 1), (rand(3, 2, seed=35), A, (slice(None), slice(1, 3)))]
EXTRA[product_or_repeat_vjp] = [(A, A, B), (A, V4, B), (A, 0.7, B)]
EXTRA[transpose_vjp] = [(A,), (rand(2, 3, 4, seed=36), (2, 0, 1))]
# norm's slopes (its JVP term), the 2-norm family: everything, rows kept, a matrix's fro
from runtime.rules.norm_helpers import norm_vjp  # noqa: E402
EXTRA[norm_vjp] = [(1.3, np.linalg.norm(A), A, None, None, False),
                   (V3, np.linalg.norm(A, axis=1), A, None, 1, False),
                   (rand(1, 4, seed=21), np.linalg.norm(A, 2, 0, True), A, 2, 0, True),
                   (0.7, np.linalg.norm(A, "fro"), A, "fro", (0, 1), False)]
# logsumexp's JVP term (second order), over every axis and rows, with b (part 0) and
# b's own tangent (part 1)
if stats is not None:
    from runtime.rules.scipy_special import logsumexp_jvp  # noqa: E402
    _LSE = sc.logsumexp(A, axis=1)
    EXTRA[logsumexp_jvp] = [(B, sc.logsumexp(A), A, None, None, False, False, 0),
                            (B, _LSE, A, 1, None, False, False, 0),
                            (B, sc.logsumexp(A, 1, B), A, 1, B, False, False, 0),
                            (V4, sc.logsumexp(A, 1, V4, True), A, 1, V4, True, False, 1)]
    # session 38 (autofix): logsumexp's cotangent, differentiated by hvp forward over reverse
    from runtime.rules.scipy_special import logsumexp_vjp  # noqa: E402
    EXTRA[logsumexp_vjp] = [(0.7, sc.logsumexp(A), A, None, None, False, False),
                            (V3, _LSE, A, 1, None, False, False),
                            (rand(3, 1, seed=38), sc.logsumexp(A, 1, B, True), A, 1, B, True,
                             False)]
    from runtime.rules.scipy_special import logsumexp_weights_vjp  # noqa: E402
    EXTRA[logsumexp_weights_vjp] = [(0.7, sc.logsumexp(A, b=B), A, None, B, False),
                                    (V3, sc.logsumexp(A, 1, V4), A, 1, V4, False)]
    # session 40 (red41): scipy.integrate.trapezoid, np.trapezoid's rule
    import scipy.integrate as si  # noqa: E402
    EXTRA[si.trapezoid] = [(V5, None, 0.7), (A, B, 1.0, 0), (V5, np.cumsum(B[0, :1] + V5))]
# session 35 (rules2): the scipy.linalg and scipy.stats JVP helpers hvp differentiates
# (runtime/rules/scipy_linalg_second.py, scipy_stats_second.py: more families in
# tests/rules/test_second_order_scipy.py)
if stats is not None:
    from runtime.rules.scipy_linalg import expm_jvp  # noqa: E402
    from runtime.rules.scipy_linalg_more import solved_matrix  # noqa: E402
    from runtime.rules.scipy_stats import stats_vjp  # noqa: E402
    EXTRA[expm_jvp] = [(rand(3, 3, seed=71), 0.5 * rand(3, 3, seed=72))]
    EXTRA[solved_matrix] = [(M, "sym", True, True), (M, "upper triangular", False, False)]
    _X = rand(3, seed=73, low=0.2, high=0.7)
    EXTRA[stats_vjp] = [(V3, stats.beta.pdf(_X, 2.0, 3.0, 0.05, 1.1), "beta", "pdf", 1, _X,
                         (2.0, 3.0), 0.05, 1.1),
                        (V3, None, "t", "logpdf", "scale", _X, (3.5,), 0.1, 1.3)]
# session 34 (carried): np.vectorize's gathering of its calls' results (a list of numbers)
from runtime.rules.vectorized import vectorized_result  # noqa: E402
EXTRA[vectorized_result] = [([0.3, -1.2, 2.0, 0.7], (2, 2), "f.py:1"), ([0.5], (), "f.py:1")]
# the exponent's term of `x ** y` (a positive base: an array, a number, y broadcast)
# and the 2-norm's slopes, inside JVP terms (runtime/rules/second_order.py)
from runtime.helpers import pow_exponent_vjp  # noqa: E402
EXTRA[pow_exponent_vjp] = [(A, B, B, A), (A, B, B + 0.2, 0.7), (A, B, 1.3, A)]
EXTRA[norm_vjp] += [(1.2, np.linalg.norm(V4), V4, None, None, False)]
# np.power's base term (session 35, rules2): x broadcast against y, a float_power
from runtime.rules.elementwise_helpers import power_base_vjp  # noqa: E402
EXTRA[power_base_vjp] = [(A, B, A + 2.0), (A, V4 + 1.0, B, np.float_power), (A, B, 2.0)]
# np.sinc's slope inside its tangent term (session 38, secorder): at and near zero too
from runtime.rules.elementwise_helpers import sinc_slope  # noqa: E402
EXTRA[sinc_slope] = [(A,), (np.array([0.0, 0.3, -1.2, 2.5]),)]
# vector_norm's and matrix_norm's slopes (their JVP terms): the 2-norm family
from runtime.rules.norm_helpers import matrix_norm_vjp, vector_norm_vjp  # noqa: E402
EXTRA[vector_norm_vjp] = [(1.3, np.linalg.norm(A), A, 2, None, False),
                          (V3, np.linalg.norm(A, axis=1), A, 2, 1, False),
                          (rand(1, 4, seed=23), np.linalg.norm(A, 2, 0, True), A, None, 0, True)]
_T3 = rand(2, 3, 4, seed=24)
EXTRA[matrix_norm_vjp] = [(0.7, np.linalg.norm(A, "fro"), A, "fro", (-2, -1), False),
                          (V4[:2], np.linalg.norm(_T3, axis=(1, 2)), _T3, "fro", (-2, -1),
                           False)]
# digamma (math.lgamma's slope) both sides of its reflection and past its recurrence;
# np.float_power's cast of a float64 cotangent to x's dtype
from runtime.rules.math_module import digamma  # noqa: E402
from runtime.rules.elementwise_helpers import cast_like  # noqa: E402
EXTRA[digamma] = [(0.3,), (2.6,), (12.5,), (-1.4,)]
EXTRA[cast_like] = [(A, B), (A, B.astype(np.float32)), (0.7, 0.3)]
# np.average's normalised weights: along rows (1-D weights), everywhere, per entry
from runtime.rules.reductions_helpers import average_weights  # noqa: E402
EXTRA[average_weights] = [(A, 1, V4 + 1.0), (A, None, B + 1.0), (A, 0, V3 + 1.0)]
# the order statistics' tangent and cotangent (session 39, secorder2): rows, two
# quantiles, everything, a nan-form
from runtime.rules.quantiles_helpers import quantile_jvp, quantile_vjp  # noqa: E402
_Q2 = np.array([0.2, 0.7])
EXTRA[quantile_jvp] = [(B, np.quantile(A, 0.3, 1), A, 0.3, 1, "linear", None, False),
                       (B, np.quantile(A, _Q2), A, _Q2, None, "midpoint", None, True)]
EXTRA[quantile_vjp] = [(V3, np.quantile(A, 0.3, 1), A, 0.3, 1, "linear", None, False),
                       (rand(2, 4, seed=25), np.quantile(A, _Q2, 0), A, _Q2, 0, "linear", None,
                        True), (0.7, np.quantile(A, 0.5), A, 0.5, None, "nearest", None, False)]
# ufunc.outer's operands spread over the outer shape and summed back (session 40,
# secorder3): A's and B's, a scalar operand, a cotangent broadcasting to the outer shape
from runtime.rules.ufunc_outer_helpers import outer_spread, outer_spread_sum  # noqa: E402
EXTRA[outer_spread] = [(V3, V3, X2, 0), (A, V3, A, 1), (0.7, 0.7, V3, 0)]
EXTRA[outer_spread_sum] = [(rand(3, 2, 4, seed=26), V3, X2, 0), (rand(3, 3, 4, seed=27), V3, A, 1),
                           (V4, 0.7, V4, 1)]
# np.quantile's tangent from q (session 40, secorder3): rows, two quantiles, a nan-form,
# the slope read from other values (quantile_jvp's own in q)
from runtime.rules.quantiles_helpers import quantile_q_jvp  # noqa: E402
EXTRA[quantile_q_jvp] = [(0.4, np.quantile(A, 0.3, 1), A, 0.3, 1, "linear", None, False, 1),
                         (V3[:2], np.quantile(A, _Q2, 0), A, _Q2 * 100, 0, "linear", None,
                          True, 100),
                         (0.4, np.quantile(A, 0.3, 1), A, 0.3, 1, "linear", None, False, 1, B)]
# np.gradient's JVP function: a tangent of f (spacings none, one shared, per axis, a
# spacing's zero tangent)
from runtime.rules.differences_helpers import gradient_jvp  # noqa: E402
EXTRA[gradient_jvp] = [((V5, None), V6[:5]), ((V5, None), V6[:5], 0.3),
                       ((B, None, None), A, 0.5, 2.0), ((V5, 0.0), V6[:5], 0.7)]
# np.interp's slope in x: inside, beyond both ends, a scalar x, slopes broadcast
from runtime.rules.signals_helpers import interp_x_vjp  # noqa: E402
_XP = np.array([-1.0, -0.2, 0.4, 1.1, 2.0])
EXTRA[interp_x_vjp] = [(V4, np.array([-0.7, 0.1, 0.9, 1.5]), _XP, V5, None),
                       (V5, np.array([-1.5, 0.1, 0.5, 2.5, 1.9]), _XP, V5, None),
                       (0.7, 0.35, _XP, V5, None), (1.3, V3 + 0.05, _XP, V5, None)]
# np.cov's tangent: from m (rows, columns with y), from y, with weights and ddof
from runtime.rules.statistics_helpers import cov_jvp  # noqa: E402
EXTRA[cov_jvp] = [(B, A, None, True, False, None, None, None, 0),
                  (X2.T, A.T[:, :2], X2.T, False, False, None, None, None, 1),
                  (A[:2], A[:2], X2, True, True, None, None, None, 0),
                  (V4, V4, None, True, False, 2, np.array([1, 2, 1, 3]), V4 + 1.0, 0)]
# scipy.stats.zscore's JVP term (a gradient: symmetric) and its slope in a
if stats is not None:
    from runtime.rules.scipy_stats_summaries import zscore_vjp  # noqa: E402
    EXTRA[zscore_vjp] = [(B, A, 1, 0, "propagate"), (V3, A, None, 1, "propagate"),
                         (B, A, 0, 1, "propagate")]
    # entropy's slopes in pk and qk (relative entropy), along rows, a base
    from runtime.rules.scipy_stats_summaries import entropy_vjp  # noqa: E402
    EXTRA[entropy_vjp] = [(V4, B, None, None, 0, "propagate", False, 0),
                          (V3, B, B[::-1] + 0.1, 2.0, 1, "propagate", False, 0),
                          (V3, B, B[::-1] + 0.1, None, 1, "propagate", False, 1)]
    # the summaries' slopes (sem, variation, skew, kurtosis, moment, gmean, hmean)
    from runtime.rules.scipy_stats_summaries import summary_vjp  # noqa: E402
    EXTRA[summary_vjp] = [(V3, A, 1, False, "propagate", "skew", None, False),
                          (V4[None], A, 0, True, "propagate", "kurtosis"),
                          (0.7, A, None, False, "propagate", "moment", None, True, 3),
                          (V4, A, 0, False, "propagate", "sem", 1),
                          (V3, B, 1, False, "propagate", "variation", 0),
                          (V3, B, 1, False, "propagate", "gmean"),
                          (V3, B, 1, False, "propagate", "hmean", None, True, None,
                           np.array([1.0, 2.0, 0.5, 1.5]))]
# the angle's tangent and slopes: real values here (constant angles), complex ones in
# tests/higher/test_helper_routes.py (test_angle_helpers_complex_cotangents)
from runtime.rules.complex_helpers import angle_jvp, angle_vjp  # noqa: E402
EXTRA[angle_jvp] = [(V4, V4 + 2.0, False), (V3, -V3 - 1.0, True)]
EXTRA[angle_vjp] = [(V4, V4 + 2.0, False), (V3, -V3 - 1.0, True)]
# np.pad's tangent: constant (its value held), copying modes
from runtime.rules.forward_helpers import pad_tangent  # noqa: E402
EXTRA[pad_tangent] = [(A, 1, "constant", {"constant_values": 0.5}), (V4, (2, 1), "reflect", {}),
                      (A, ((1, 0), (0, 2)), "wrap", {})]
# two helpers' tangent terms added (arrays broadcast, tuples entry by entry)
from runtime.rules.forward_helpers import tangent_terms_sum  # noqa: E402
EXTRA[tangent_terms_sum] = [(A, B), (A, V4), ((V3, A), (2.0 * V3, B))]
if hasattr(np, "unstack"):                                                  # NumPy 2.1+
    EXTRA[np.unstack] = [(A,)]
# session 30 (lib30): rules that register only on some versions, found on Python 3.12 with
# NumPy 2.2 (math.sumprod: Python 3.12+; np.trapz beside np.trapezoid: NumPy 2.0-2.3)
if hasattr(np, "trapz"):
    EXTRA[np.trapz] = [(V5, None, 0.7)]
if hasattr(math, "sumprod"):
    EXTRA[math.sumprod] = [([1.2, -2.3, 0.4], [0.5, 1.5, -0.7])]

EXEMPT = {**EXEMPT, **dict(family_exemptions(EXTRA)), **REVERSE_EXEMPT}   # (a copy)
EXAMPLES = gathered()
for _fn, _examples in EXTRA.items():          # first: they are written for this test
    EXAMPLES[_fn] = [(args, {}) for args in _examples] + EXAMPLES.get(_fn, [])
RULES = sorted((r for r in registry._RULES.values() if r.kind in ("template", "custom")
                and getattr(r, "family", None) is not None and r.name not in EXEMPT
                and not r.name.startswith("tests.")),       # rules the tests register
               key=lambda r: r.name)


def _covering(rule, param):
    """The first example passing a float positionally to `param`."""
    k = rule.params.index(param)
    for args, kwargs in EXAMPLES.get(rule.fn, []):
        if len(args) > k and is_float_value(args[k]):
            return args, kwargs
    return None


def _params(rule):
    return [p for p in rule.templates if (rule.name, p) not in EXEMPT] \
        if rule.kind == "template" else [None]


CHECKS = [(rule, p) for rule in RULES for p in _params(rule)]


def _id(check):
    return f"{check[0].name}-{check[1]}" if isinstance(check, tuple) else str(check)


def test_every_rule_has_an_example_or_an_exemption():
    missing = sorted(r.name for r in RULES if not EXAMPLES.get(r.fn))
    assert not missing, f"rules with no example arguments and no exemption: {missing}"


def test_exemptions_name_registered_rules():
    names = {r.name for r in registry._RULES.values()}
    stale = [k for k in EXEMPT if (k[0] if isinstance(k, tuple) else k) not in names
             and (stats is not None or "scipy" not in (k[0] if isinstance(k, tuple) else k))]
    assert not stale, stale


@pytest.mark.parametrize("check", CHECKS, ids=_id)
def test_differentiated_parameter_against_finite_differences(check):
    rule, param = check
    example = EXAMPLES[rule.fn][0] if param is None else _covering(rule, param)
    assert example is not None, f"no example passes a float to {param!r} of {rule.name}"
    args, kwargs = example
    argnums = None if param is None else [rule.params.index(param)]
    with np.errstate(all="ignore"):
        check_rule(rule.fn, args, kwargs, argnums=argnums)


@pytest.mark.parametrize("check", CHECKS, ids=_id)
def test_float32_stays_float32(check):
    rule, param = check
    example = EXAMPLES[rule.fn][0] if param is None else _covering(rule, param)
    args, kwargs = example
    check_float32(rule.fn, args, kwargs, argnums=None if param is None else
                  [rule.params.index(param)])


BINARY_ELEMENTWISE = sorted((r for r in RULES if r.kind == "template"
                             and runtime.traits.traits_of(r.fn).get("elementwise")
                             and len(r.templates) == 2 and isinstance(r.fn, np.ufunc)
                             and r.fn.nin == 2),
                            key=lambda r: r.name)


@pytest.mark.parametrize("rule", BINARY_ELEMENTWISE, ids=lambda r: r.name)
def test_binary_elementwise_rules_broadcast(rule):
    """(3, 1) against (4,): each cotangent summed back to its operand's shape."""
    args, _ = _covering(rule, next(iter(rule.templates)))
    first, second = np.asarray(args[0]), np.asarray(args[1])
    column = np.resize(first.ravel(), (3, 1))
    row = np.resize(second.ravel(), (4,))
    check_rule(rule.fn, (column, row))
