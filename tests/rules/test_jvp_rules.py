"""Every rule's forward-mode terms (runtime/jvp.py, docs/forward.md): each tangent term
against central differences of the whole output (tests/fd.py numerical_jvp) in float64,
and against the rule's own cotangent template: <v, J t> == <J^T v, t> for random t, v.

The examples are the ones tests/rules/test_every_rule_checked.py drives the VJPs with
(the rule tests' tables plus its EXTRA); a rule with a JVP that it exempts is checked
elsewhere, listed in EXEMPT below with where. Rules without a JVP are listed in
tests/rules/jvp_missing.txt: the list may only shrink (a new rule comes with a JVP)."""
import collections
import pathlib

import numpy as np
import pytest

import runtime
import transform.api  # noqa: F401  (the rules the compiler registers: call_jvp's reverse)
import transform.flat_calls  # noqa: F401  (and hvp's forward-over-reverse route's callee_vjp)
from runtime.closures import Closure, make_closure
from runtime import registry
from tests.fd import assert_close, numerical_jvp
from tests.rules.checks import frozen, rand, random_like, spd
from tests.rules.jvp_complex_examples import COMPLEX_MORE, REAL_MORE
from tests.rules.jvp_structures import assert_all_close, like, pairing, plain, zero_or
from tests.rules.reverse_code_examples import REVERSE_EXEMPT
from tests.rules.rule_exemptions import DISPATCHED
from tests.rules.rule_examples import is_float_value
from tests.rules.test_every_rule_checked import EXAMPLES, _covering

MISSING = pathlib.Path(__file__).with_name("jvp_missing.txt")
# rule name: why it has a JVP but no check here, and where it is checked
EXEMPT = {
    "numpy.float32": "rounds to float32 (differences see the rounding): "
    "test_float_casts_are_their_own_tangent below",
    "numpy.complex64": "rounds to complex64: test_float_casts_are_their_own_tangent below",
    "numpy.piecewise": "its pieces are callables: tests/rules/test_jvp_piecewise.py",
    "runtime.rules.piecewise.piecewise_jvp": "np.piecewise's tangent, its pieces callables: "
    "tests/forward/test_hvp_piecewise.py (its JVP along the tangents against differences, "
    "a third derivative refused)",
    "scipy.integrate._odepack_py.odeint": "a callable and solver tolerances: "
    "tests/rules/test_jvp_integrate.py at tight tolerances",
    "scipy.integrate._ivp.ivp.solve_ivp": "a callable and solver tolerances: "
    "tests/rules/test_jvp_integrate.py at tight tolerances",
    "runtime.checkpoint.run_checkpointed": "a registered loop step: "
    "tests/rules/test_jvp_generated_calls.py (for, chunked, while and break loops)",
    **DISPATCHED,
    "transform.flat_calls.callee_vjp": "a user callee's gradient seeded with g: "
    "tests/forward/test_hvp_forward_over_reverse.py (calls) against differences",
    "transform.forward_api.call_jvp": "a user function and its tangents: "
    "tests/rules/test_jvp_generated_calls.py",
    "transform.forward_api.call_jvp_keywords": "call_jvp with its keywords in one dict: "
    "tests/noticed36 (hvp, hessian, grad of grad against differences; reverse mode over "
    "its JVP is refused there)",
    "transform.forward_nested.call_jvp_tangent": "call_jvp's tangent (forward over forward): "
    "tests/rules/test_jvp_generated_calls.py",
    "transform.spread_jvp.spread_jvp": "call_jvp over spread entries (f(*xs)): "
    "tests/forward/test_spread_generators.py",
    "transform.spread_jvp.spread_keywords_jvp": "call_jvp over spread keywords "
    "(f(**params)): tests/forward/test_spread_generators.py",
    "transform.forward_api.jvp": "jvp called in differentiated code: "
    "tests/higher/test_nested_forward.py against differences",
    "runtime.rules.forward_container_helpers.dict_get_jvp": "its tangent is a dict (the "
    "drivers step arrays and lists): tests/forward/test_hvp_helpers.py (dict_methods)",
    "runtime.attributes.with_attribute_jvp": "a tuple of tangents holding an object: "
    "tests/forward/test_hvp_helpers.py (structural, hvp against differences of grad)",
    "runtime.containers.replace_fields_jvp": "a tuple of tangents holding a record: "
    "tests/forward/test_hvp_helpers.py (structural, hvp against differences of grad)",
    **REVERSE_EXEMPT,
}
A, B = rand(3, 4, seed=1), rand(3, 4, seed=2, low=0.5, high=1.5)
# rule name or (rule name, parameter): (args, kwargs) where the VJP driver has none
MORE = {
    ("math.prod", "start"): (([1.2, -2.3, 0.4],), {"start": 1.5}),
    ("numpy.unwrap", "period"): ((np.array([0.0, 1.0, 3.0, 0.4, 1.2]),), {"period": 3.0}),
    "_operator.getitem": ((A, 1), {}), "builtins.divmod": ((A + 3.0, B), {}),
    "builtins.list": ((A,), {}), "builtins.tuple": ((A,), {}),
    "copy.copy": ((A,), {}), "copy.deepcopy": ((A,), {}),
    # 2026-12-02, session 32 (fwd): `x * y` where either side may be a list (bilinear)
    "runtime.containers.product_or_repeat": ((A, B), {}),
    ("runtime.containers.repeat_sequence", "xs"): (([1.2, -0.7], 2), {}),
    ("runtime.containers.repeat_sequence", "n"): (([1.2, -0.7], np.array([0.5, 1.5])), {}),
    "runtime.rules.operators_helpers.transposed": (([[1.2, -0.7], [0.4, 2.0], [0.3, 0.1]],),
                                                   {}),
    "runtime.rules.sequences_helpers.reversed_items": (([1.2, -0.7, 0.4],), {}),
    "runtime.rules.sequences_helpers.in_order": (([1.2, -0.7, 0.4], [2, 0, 1]), {}),
    "builtins.sorted": (([1.2, -0.7, 0.4, 2.5],), {}),
    "scipy.linalg._decomp.eigvalsh": ((spd(4, seed=8),), {}),
    "numpy.fft.fftfreq": ((8, 0.3), {}), "numpy.fft.rfftfreq": ((8, 0.3), {}),
    "numpy.fft.fftshift": ((A,), {}), "numpy.fft.ifftshift": ((A,), {}),
    "numpy.row_stack": (([A, B],), {}),
    "scipy.signal._signaltools.sosfilt": ((np.array([[0.2, 0.3, 0.1, 1.0, -0.4, 0.2]]), A), {}),
    # session 40 (secorder3): sosfilt's tangent and cotangent, each the other's transpose
    "runtime.rules.scipy_signal_extra.filtered_sos": (
        (np.array([[0.2, 0.3, 0.1, 1.0, -0.4, 0.2]]), A, -1, None), {}),
    "runtime.rules.scipy_signal_extra.sosfilt_vjp": (
        (B, np.array([[0.2, 0.3, 0.1, 1.0, -0.4, 0.2]]), A, 0, None), {}),
}
def _scaled(t, w):          # a closure's template (make_partial's func below)
    return t * w


D, E = {"a": A, "b": 1.5, "tag": "x"}, {"b": B, "c": -0.5}
MORE.update({  # 2026-12-02, session 33: container operations, structural helpers
    "_operator.or_": ((D, E), {}), "builtins.dict": (([("a", A), ("b", 1.5), ("a", B)],), {}),
    "dict.copy": ((D,), {}), "dict.values": ((D,), {}), "dict.items": ((D,), {}),
    "list.copy": (([A, 1.5],), {}), ("dict.get", "self"): ((D, "a"), {}),
    ("dict.get", "default"): ((D, "z", B), {}), "builtins.getattr": ((A, "T"), {}),
    "runtime.closures.make_closure": ((len, (A, 1.5)), {}),
    "runtime.closures.make_partial": ((make_closure(_scaled, (A,)), (B,), {}), {}),
    ("runtime.closures.make_partial", "args"): ((np.add, (A, B), {}), {}),
    ("runtime.closures.make_partial", "keywords"): ((np.add, (A,), {"x2": B}), {}),
    "runtime.rules.indexing.index_trick": ((np.r_, (A[0], slice(0, 3), 1.5, B[1])), {}),
    # session 40 (secorder3): np.r_'s tangent and cotangent, each the other's transpose
    "runtime.rules.forward_container_helpers.index_trick_jvp": (
        (np.r_, (A[0], slice(0, 3), 1.5, B[1]), (B[0], None, 0.5, A[1])), {}),
    "runtime.rules.indexing_helpers.index_trick_vjp": (
        (rand(12, seed=62), np.r_, (A[0], slice(0, 3), 1.5, B[1])), {}),
})
MORE.update(COMPLEX_MORE)
_S = spd(3, seed=61)
_LU = rand(3, 3, seed=62) + 3 * np.eye(3)          # L - I + U, with some row interchanges
MORE.update({  # the factorizations' pairs: c's other triangle holds a's entries, as LAPACK's
    "scipy.linalg._decomp_cholesky.cho_factor": ((_S,), {}),
    "scipy.linalg._decomp_cholesky.cho_solve": (((np.linalg.cholesky(_S) + np.triu(_S, 1),
                                                  True), rand(3, 2, seed=63)), {}),
    "scipy.linalg._decomp_lu.lu_factor": ((rand(4, 4, seed=64),), {}),
    "scipy.linalg._decomp_lu.lu_solve": (((_LU, np.array([2, 1, 2], dtype=np.int32)),
                                          rand(3, seed=65)), {})})
_REAL_SPECTRUM = np.array([[2.0, 0.5, 0.1], [0.3, 1.0, 0.2], [0.0, 0.4, -1.0]])
MORE.update({  # session 34 (carried): SciPy's eig of a real spectrum (complex eigenvalues)
    "scipy.linalg._decomp.eig": ((_REAL_SPECTRUM,), {}),
    "scipy.linalg._decomp.eigvals": ((_REAL_SPECTRUM,), {})})
WRITABLE = {"scipy.signal._signaltools.sosfilt"}    # SciPy's sosfilt refuses a read-only sos
def _symmetric(t):
    """A matrix's symmetric part (a number or a diagonal given as a vector: itself)."""
    return (t + np.swapaxes(t, -1, -2)) / 2 if np.ndim(t) >= 2 else t


def _along_simplex(t):
    return t - np.mean(t, axis=0)


# tangents in the space the function is defined on: a symmetric-input function reads one
# triangle (its cotangents are symmetric, its tangents the tangent's symmetric part);
# dirichlet's x lies on the simplex
PROJECT = {**{(name, "a"): _symmetric for name in (
    "numpy.linalg.cholesky", "numpy.linalg.eigh", "numpy.linalg.eigvalsh",
    "scipy.linalg._decomp_cholesky.cholesky", "scipy.linalg._decomp.eigh",
    "scipy.linalg._decomp.eigvalsh", "scipy.linalg._decomp_cholesky.cho_factor")},
    ("scipy.stats.multivariate_normal.logpdf", "cov"): _symmetric,
    ("scipy.stats.multivariate_normal.pdf", "cov"): _symmetric,
    ("scipy.stats.dirichlet.logpdf", "x"): _along_simplex,
    ("scipy.stats.dirichlet.pdf", "x"): _along_simplex}


def _signs_of(ans):
    """LAPACK picks each eigenvector's sign and may flip it under a tiny perturbation:
    the differences see the eigenvectors with the signs they have at the point."""
    def aligned(out):
        w, V = out
        return w, V * np.sign(np.sum(V * ans[1], axis=-2, keepdims=True))
    return aligned


def _factor_triangle(ans):
    """cho_factor's c outside the factor's triangle holds a's entries: unread, no tangent."""
    mask = np.tril if ans[1] else np.triu
    return lambda out: (mask(out[0]), out[1])


ALIGN = {"numpy.linalg.eig": _signs_of, "scipy.linalg._decomp.eig": _signs_of,
         "scipy.linalg._decomp_cholesky.cho_factor": _factor_triangle}


def _frozen(name):
    """scipy.stats' frozen distributions and their methods (dict tangents): checked in
    tests/rules/test_jvp_frozen.py."""
    return name.endswith("(...)") or "_frozen." in name
JVP_RULES = sorted((r for r in registry._RULES.values() if r.has_jvp and r.name not in EXEMPT
                    and getattr(r, "family", None) not in (None, "random")
                    and not r.name.startswith("tests.") and not _frozen(r.name)),
                   key=lambda r: r.name)
JVP_CHECKS = [(rule, p) for rule in JVP_RULES for p in rule.templates]   # (custom: below)


def _id(check):
    return f"{check[0].name}-{check[1]}"


def _example(rule, param):
    """The VJP driver's example for `param`, or one of MORE (keyword-only parameters,
    and Python container operations, which it leaves to compiled programs)."""
    example = _covering(rule, param) or MORE.get((rule.name, param)) or MORE.get(rule.name)
    assert example is not None, f"no example passes a float to {param!r} of {rule.name}"
    args, kwargs = example
    if rule.name in WRITABLE:
        return list(args), dict(kwargs)
    return [frozen(a) for a in args], dict(kwargs)


def _value(rule, param, args, kwargs):
    k = rule.params.index(param)
    return args[k] if k < len(args) else kwargs[param]


def _tangent(x, seed):
    """A random tangent shaped and typed like x (containers entry by entry)."""
    return like(x, seed)


def _tangent_at(rule, param, args, kwargs, seed=7):
    t = _tangent(_value(rule, param, args, kwargs), seed)
    t = PROJECT.get((rule.name, param), lambda t: t)(t)
    with np.errstate(all="ignore"):
        ans, tangent = rule.frule({param: t}, *args, **kwargs)
    return t, ans, tangent


def _moving(rule, param, args, kwargs):
    """fn as a function of `param` alone (the other arguments held)."""
    k = rule.params.index(param)
    if k < len(args):
        return lambda v: rule.fn(*args[:k], v, *args[k + 1:], **kwargs)
    return lambda v: rule.fn(*args, **{**kwargs, param: v})


_zero_or, _pairing = zero_or, pairing


@pytest.mark.parametrize("check", JVP_CHECKS, ids=_id)
def test_tangent_against_finite_differences(check):
    rule, param = check
    _against_differences(rule, param, *_example(rule, param))


def _against_differences(rule, param, args, kwargs):
    t, ans, tangent = _tangent_at(rule, param, args, kwargs)
    moving = _moving(rule, param, args, kwargs)
    if rule.name in ALIGN:
        moving = (lambda f, align: lambda v: align(f(v)))(moving, ALIGN[rule.name](ans))
    value = _value(rule, param, args, kwargs)
    if isinstance(value, Closure):      # a closure moves with its environment
        moving = (lambda f, c: lambda env: f(make_closure(c.template, env)))(moving, value)
        value = value.env
    with np.errstate(all="ignore"):
        want = numerical_jvp(lambda v: plain(moving(v)), [value], 0, t)
    assert_all_close(_zero_or(tangent, ans), want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("check", JVP_CHECKS, ids=_id)
def test_tangent_and_cotangent_agree(check):
    """<v, J t> == <J^T v, t>: the forward term is the transpose of the reverse one."""
    rule, param = check
    _against_cotangent(rule, param, *_example(rule, param))


def _against_cotangent(rule, param, args, kwargs):
    t, ans, tangent = _tangent_at(rule, param, args, kwargs)
    v = like(ans, seed=11)
    own = {p: x for p, x in rule.bind(args, kwargs).items() if p not in ("g", "ans")}
    with np.errstate(all="ignore"):
        cotangent = runtime.unthunk(rule.vjp_function(param)(v, ans, **own))
    if isinstance(cotangent, (list, tuple)):
        cotangent = [runtime.unthunk(c) for c in cotangent]
    forward, reverse = _pairing(v, tangent), _pairing(cotangent, t)
    assert forward == pytest.approx(reverse, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name", sorted(REAL_MORE))
def test_complex_rules_at_real_values(name):
    """The rules checked on complex examples (MORE), at real ones: sign's and imag's
    tangent is zero there, ifft's and exp's complex."""
    rule = next(r for r in JVP_RULES if r.name == name)
    args, kwargs = REAL_MORE[name]
    _against_differences(rule, rule.params[0], args, kwargs)
    _against_cotangent(rule, rule.params[0], args, kwargs)


@pytest.mark.parametrize("name", ["numpy.real", "numpy.conjugate"])
def test_parts_at_complex_values(name):
    """np.real and np.conj (LINEAR, complex_jvp: session 34), whose VJP driver's examples
    are real, at a complex value and tangent."""
    rule = next(r for r in JVP_RULES if r.name == name)
    args, kwargs = COMPLEX_MORE[name]
    _against_differences(rule, rule.params[0], args, kwargs)
    _against_cotangent(rule, rule.params[0], args, kwargs)


def test_exemptions_have_a_jvp():
    stale = [name for name in EXEMPT if name not in {r.name for r in JVP_RULES_ALL}]
    assert not stale, stale


JVP_RULES_ALL = [r for r in registry._RULES.values() if r.has_jvp]


def test_float_casts_are_their_own_tangent():
    x, t = np.array([0.3, -1.25]), np.array([1.5, 2.0])
    for cast in (np.float32, np.float64, np.complex64, np.complex128):
        ans, tangent = runtime.lookup(cast).frule((t,), x)
        assert tangent.dtype == ans.dtype == np.dtype(cast)
        np.testing.assert_array_equal(tangent, cast(t))
    ans, tangent = runtime.lookup(np.complex64).frule((t + 2j,), x + 1j)   # complex in too
    np.testing.assert_array_equal(tangent, np.complex64(t + 2j))


def _missing():
    """Names of the differentiable rules without a JVP."""
    return sorted({r.name for r in registry._RULES.values() if r.kind != "nondiff"
                   and not r.has_jvp and not r.name.startswith("tests.")
                   and getattr(r, "family", None) is not None})


def test_rules_without_a_jvp_are_the_listed_ones():
    """A rule missing from the list has lost its JVP or is new without one: declare it
    (docs/forward.md). A listed rule that has one now: delete its line."""
    listed = {line.strip() for line in MISSING.read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    missing = set(_missing())
    names = {r.name for r in registry._RULES.values()}
    assert not missing - listed, f"rules without a JVP, not listed: {sorted(missing - listed)}"
    stale = sorted(n for n in listed - missing if n in names or "scipy" not in n)
    assert not stale, f"listed in {MISSING.name} but have a JVP (or are gone): {stale}"


# Custom (rrule) rules with a JVP (varargs: tangents by position), on the VJP driver's first
# example, each float argument against differences and against the rule's pullback
CUSTOM = sorted((r for r in JVP_RULES_ALL if r.kind == "custom" and r.name not in EXEMPT
                 and not r.name.startswith("tests.")), key=lambda r: r.name)
class _Box:                 # an object whose attribute a rule writes (with_attribute)
    def __init__(self, a, w):
        self.a, self.w = a, w


_PAIR = collections.namedtuple("_PAIR", "a b c")
# custom rules the VJP driver gives no example (structural helpers): their arguments
CUSTOM_MORE = {runtime.attributes.with_attribute: ((_Box(A, 1.5), "w", B), {}),
               runtime.containers.replace_fields: ((_PAIR(A, 1.5, "k"), ("b",), 2.5), {})}


def _custom_example(rule):
    return CUSTOM_MORE.get(rule.fn) or EXAMPLES[rule.fn][0]


def _differentiable(a):
    return is_float_value(a) or isinstance(a, (_Box, _PAIR))


CUSTOM_CHECKS = [(rule, k) for rule in CUSTOM
                 for k, a in enumerate(_custom_example(rule)[0]) if _differentiable(a)]


@pytest.mark.parametrize("check", CUSTOM_CHECKS, ids=lambda c: f"{c[0].name}-{c[1]}")
def test_a_custom_rule_against_differences_and_its_pullback(check):
    rule, k = check
    args, kwargs = _custom_example(rule)
    t = _tangent(args[k], 7)
    ans, tangent = rule.frule([None] * k + [t], *args, **kwargs)
    want = numerical_jvp(lambda *a: plain(rule.fn(*a, **kwargs)), list(args), k, t)
    assert_all_close(_zero_or(tangent, ans), want, rtol=1e-5, atol=1e-7)
    v = like(ans, seed=11)
    cotangent = runtime.unthunk(rule.rrule(*args, **kwargs)[1](v)[k])
    assert _pairing(v, tangent) == pytest.approx(_pairing(cotangent, t), rel=1e-9, abs=1e-12)


# Random draws: the VJP driver leaves them to seeded programs, as the difference needs the
# same stream; here every draw is made from a fresh stream of one seed.
RANDOM = sorted((r for r in JVP_RULES_ALL if getattr(r, "family", None) == "random"),
                key=lambda r: r.name)
DRAW_VALUES = {"loc": rand(3, seed=21), "scale": rand(3, seed=22, low=0.5, high=1.5),
               "low": rand(3, seed=23, low=-1.0, high=0.0),
               "high": rand(3, seed=24, low=0.5, high=1.5),
               "a": rand(3, seed=25, low=1.5, high=3.0), "mean": rand(3, seed=26),
               "sigma": rand(3, seed=27, low=0.3, high=0.8),
               "shape": rand(3, seed=28, low=1.5, high=3.0)}


def _fresh(rule):
    """The draw's leading arguments for a fresh stream of seed 31: a Generator or a
    RandomState as `self`, or none for np.random's functions (the global one, reseeded)."""
    if getattr(rule.fn, "__self__", None) is not None:
        np.random.seed(31)
        return []
    return [np.random.default_rng(31) if "Generator" in rule.fn.__qualname__
            else np.random.RandomState(31)]


@pytest.mark.parametrize("rule", RANDOM, ids=lambda r: r.name)
def test_random_draws_hold_their_stream(rule):
    params = [p for p in rule.params if p not in ("self", "size")]
    values = [DRAW_VALUES[p] for p in params]
    state = np.random.get_state()
    try:
        for param in (p for p in params if p in rule.templates):
            k = params.index(param)
            t = _tangent(values[k], 7 + k)
            args = _fresh(rule) + values
            ans, tangent = rule.frule({param: t}, *args)
            want = numerical_jvp(lambda v: rule.fn(*_fresh(rule), *values[:k], v,
                                                   *values[k + 1:]), [values[k]], 0, t)
            assert_close(tangent, want, rtol=1e-5, atol=1e-7)
            v = random_like(ans, seed=11)
            own = {p: x for p, x in rule.bind(args, {}).items() if p not in ("g", "ans")}
            cotangent = rule.vjp_function(param)(v, ans, **own)
            assert _pairing(v, tangent) == pytest.approx(_pairing(cotangent, t), rel=1e-9)
    finally:
        np.random.set_state(state)
