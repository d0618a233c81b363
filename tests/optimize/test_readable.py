"""The adjoint a user reads first: literal arithmetic folded (`h ** (2 - 1)` -> `h`), a
term added to itself doubled (`g * W + g * W` -> `2 * (g * W)`), and an unbroadcast
between names computed alike from the parameters dropped. Each rewrite is checked in the
generated text, in what it refuses to rewrite, and against finite differences."""
import gast
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import adjoint_source
from transform.ir.lower_gast import to_gast
from transform.ir.generated import Bind, SliceAdd
from transform.ir.statements import Accumulate, Emitted
from transform.optimize.constants import fold_constants
from transform.optimize.like_terms import merge_like_terms


def sweep(W, x, h):
    a = W @ x + W @ x
    b = np.sum(h ** 2) * 0.1
    c = np.tanh(a) * 0.5
    return np.sum(c) + b + np.sum(W * W)


def cube_sum(x):
    return np.sum(x ** 3)


ARGS = (np.linspace(-0.5, 0.7, 12).reshape(3, 4), np.linspace(0.2, 0.9, 4),
        np.linspace(-1.0, 1.0, 5))


def pullback_text(fn, wrt=0):
    text = adjoint_source(fn, wrt=wrt)
    return text[text.index("def pullback"):]


def test_the_sweeps_warts_are_gone():
    text = pullback_text(sweep, ("W", "h"))
    assert "dW = 2 * (dt10 * W)" in text
    assert "* 2 * h\n" in text
    assert "(2 - 1)" not in text and "unbroadcast" not in text


def test_a_power_template_folds_its_exponent():
    assert "x ** 2" in pullback_text(cube_sum) and "(3 - 1)" not in pullback_text(cube_sum)


@pytest.mark.parametrize("policy", POLICIES)
def test_the_sweeps_gradients_are_right(policy):
    check_grad(sweep, ARGS, wrt=("W", "x", "h"), policy=policy)
    check_grad(cube_sum, (ARGS[2],), policy=policy)


# ---- the folding rules, on hand-written pullbacks --------------------------------------
def folded(expr):
    tree = gast.parse(f"def pullback(g):\n    d = {expr}\n").body[0]
    fold_constants(tree)
    return gast.unparse(tree.body[0].value).strip()


@pytest.mark.parametrize("before, after", [
    ("g * x ** (2 - 1)", "g * x"),
    ("g * 2 * x ** (3 - 1)", "g * 2 * x ** 2"),
    ("g * 1 * x ** (1 - 1)", "g * x ** 0"),
    ("1 * g + x", "g + x"),
    ("g * (1 / 2)", "g * 0.5"),
    ("-(x ** 1)", "-x"),
])
def test_literal_arithmetic_folds(before, after):
    assert folded(before) == after


@pytest.mark.parametrize("kept", [
    "x ** 1",             # a bare x would alias x where d is stored, updated or returned
    "g * 1",
    "f(x ** 1)",          # a call may keep its argument
    "g * 1.0",            # an int array times 1.0 is a float array
    "g ** 1.0",
    "g / 1",              # an int divided by 1 is a float
    "g + 0",              # -0.0 + 0 is 0.0
    "g * (1 - 2)",        # -1 needs a unary minus to print
    "g * (0.1 * 3)",      # 0.30000000000000004 reads worse than the product
    "g * (1 / 0)",        # raises where it did
    "g * (2 ** 40)",
    "g * (True + 1)",     # not int or float literals
])
def test_what_is_not_folded(kept):
    assert folded(kept) == gast.unparse(gast.parse(kept).body[0].value).strip()


# ---- the merging rules ---------------------------------------------------------------
def merged(body, cotangents=("g",), typed=True):
    """The statements typed as the reverse stage builds them, merged, lowered."""
    stmts = [_typed(gast.parse(s).body[0], typed) for s in body]
    merge_like_terms(stmts, frozenset(cotangents))
    module = gast.Module(body=to_gast(None, stmts), type_ignores=[])
    return gast.unparse(gast.fix_missing_locations(module)).strip().splitlines()


def _typed(s, accumulations):
    """`d += v` and `d = d + v` as `Accumulate`s (the pass matches the class,
    ir/statements.py) unless not `accumulations`, `d[i] += v` a `SliceAdd`, any other
    `d = v` a `Bind`, the rest as it is."""
    if isinstance(s, gast.AugAssign) and isinstance(s.op, gast.Add):
        if isinstance(s.target, gast.Name) and accumulations:
            return Accumulate(s.target.id, s.value, "in_place")
        if isinstance(s.target, gast.Subscript):
            return SliceAdd(s.target.value.id, s.target.slice, s.value)
    if isinstance(s, gast.Assign) and isinstance(s.targets[0], gast.Name):
        target, value = s.targets[0].id, s.value
        if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Add) \
                and isinstance(value.left, gast.Name) and value.left.id == target \
                and accumulations:
            return Accumulate(target, value.right, "sum")
        return Bind(target, value)
    return Emitted(s)


@pytest.mark.parametrize("body, after", [
    (["d = g * W + g * W"], ["d = 2 * (g * W)"]),
    (["d = g * W", "d = d + g * W"], ["d = 2 * (g * W)"]),
    (["d = g * W", "d += g * W"], ["d = 2 * (g * W)"]),   # d a fresh buffer it owns
    (["d = e + (g * W + g * W)"], ["d = e + 2 * (g * W)"]),
    (["d = -g + -g"], ["d = 2 * -g"]),
])
def test_like_terms_merge(body, after):
    assert merged(body) == after


@pytest.mark.parametrize("body", [
    ["d = g * W + g * W * 1.0"],              # not the same term
    ["d = g * W + e + g * W"],                # would reassociate a floating-point sum
    ["d = f(g) + f(g)"],                      # a call may not return the same twice
    ["d = x * W + x * W"],                    # reads no cotangent: x may be a bool array
    ["d = g * d", "d = d + g * d"],           # the second term reads the first's d
    ["d += g * W", "d += g * W"],             # d + e + e is not d + 2 * e
    ["d = g * d", "d += g * d"],              # the second term reads the first's d
    ["d = g * W", "d -= g * W"],
    ["d = g * W", "d = d - g * W"],
    ["d = g * W", "d = e + g * W"],
    ["d = g * W", "d[0] += g * W"],
    ["d = g * W", "e += g * W"],
    ["d = g * W", "e = 1.0", "d = d + g * W"],
])
def test_what_is_not_merged(body):
    assert merged(body) == [gast.unparse(gast.parse(s)).strip() for s in body]


def test_only_an_accumulation_is_merged():
    """A sum the reverse stage did not build as an `Accumulate` is left alone."""
    body = ["d = g * W", "d = d + g * W"]
    assert merged(body, typed=False) == body


def test_merging_is_exact_to_the_last_bit():
    """What MergeLikeTerms relies on: `e + e` and `2 * e` agree in value and dtype, at
    overflow, for signed zeros, infinities and the smallest subnormal."""
    rng = np.random.default_rng(5)
    for dtype in (np.float16, np.float32, np.float64, np.int8, np.int64):
        e = (rng.normal(size=1000) * 100).astype(dtype)
        if dtype is np.float16:
            e[:2] = [np.finfo(np.float16).max, 1e-7]     # overflows; a subnormal
        with np.errstate(over="ignore"):
            assert np.array_equal(e + e, 2 * e) and (e + e).dtype == (2 * e).dtype
    edges = np.array([5e-324, -0.0, np.inf, -np.inf, np.nan])
    assert np.array_equal(edges + edges, 2 * edges, equal_nan=True)
    assert np.signbit((edges + edges)[1]) and np.signbit((2 * edges)[1])
