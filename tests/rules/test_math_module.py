"""The `math` module: each differentiable function against central differences, called
directly (`grad(math.erf)`) and from compiled code, and every public function either has
a rule or is declared without a derivative."""
import math

import pytest

from tests.gradcheck import POLICIES

from runtime.registry import lookup as rule_for
from tests.fd import assert_close, numerical_grad
from transform import grad

# (function, a point inside its domain); two-argument functions take the point as a pair
UNARY = [(math.sin, 0.7), (math.cos, 0.7), (math.tan, 0.4), (math.asin, 0.3),
         (math.acos, -0.4), (math.atan, 1.7), (math.sinh, 0.6), (math.cosh, -0.6),
         (math.tanh, 0.5), (math.asinh, -1.3), (math.acosh, 2.1), (math.atanh, 0.45),
         (math.degrees, 0.3), (math.radians, 20.0), (math.exp, 0.4), (math.expm1, -0.2),
         (math.log, 2.5), (math.log1p, 0.7), (math.log2, 3.3), (math.log10, 7.0),
         (math.sqrt, 2.2), (math.erf, 0.3), (math.erfc, -0.8), (math.gamma, 2.6),
         (math.gamma, 0.3), (math.gamma, -1.4), (math.lgamma, 3.7), (math.lgamma, 0.2),
         (math.lgamma, 12.5), (math.fabs, -1.2)]
if hasattr(math, "exp2"):
    UNARY += [(math.exp2, 0.8), (math.cbrt, 2.5)]
BINARY = [(math.atan2, (0.5, -1.5)), (math.hypot, (3.0, -4.0)), (math.pow, (1.7, 2.3)),
          (math.log, (8.0, 2.5)), (math.copysign, (1.5, -2.0)), (math.fmod, (7.3, 2.1)),
          (math.fmod, (-7.3, 2.1)), (math.remainder, (7.3, 2.1)), (math.remainder, (6.9, 2.0))]


@pytest.mark.parametrize("fn,x", UNARY, ids=lambda v: getattr(v, "__name__", str(v)))
def test_unary_rule_matches_finite_differences(fn, x):
    assert_close(grad(fn)(x), numerical_grad(fn, (x,), 0), rtol=1e-6)


@pytest.mark.parametrize("fn,xy", BINARY, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("wrt", [0, 1])
def test_binary_rule_matches_finite_differences(fn, xy, wrt):
    if fn is math.copysign and wrt == 1:
        pytest.skip("the sign's source carries no derivative")
    assert_close(grad(fn, wrt=wrt)(*xy), numerical_grad(fn, xy, wrt), rtol=1e-6)


def lengths(x, y):
    return math.dist([x, 2.0 * y, 1.0], [y, x * x, 0.5]) + math.hypot(x, y)


def products(x, y):
    return math.prod([x, y, x + y], start=2.0) + math.fsum([x, math.sin(y), 0.1])


def fused(x, y):
    return math.fma(x, y, math.sin(x)) + math.sumprod([x, y, 1.5], [y, y, x])


def scaled(x, k):
    return math.ldexp(x, k) + math.log(x, 10.0) * math.lgamma(x + 1.0)


def parts(x, y):
    mantissa, exponent = math.frexp(x * y)
    fraction, whole = math.modf(3.0 * x)
    return mantissa * exponent + fraction * whole + math.nextafter(y, 0.0) * x


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", [(parts, (1.3, 2.2)), (parts, (-0.7, 0.35)),
                                     (lengths, (0.8, -0.3)), (products, (0.8, -0.3)),
                                     (products, (0.0, 1.2)), (scaled, (1.7, 3)),
                                     (fused, (0.8, -0.3))],
                         ids=["parts", "parts_negative", "dist", "prod", "prod_at_zero", "ldexp", "fma_sumprod"])
def test_compiled_code_calling_math(fn, args, policy):
    if fn is fused and not hasattr(math, "fma"):
        pytest.skip("math.fma is Python 3.13+")
    for wrt in range(len(args)):
        if isinstance(args[wrt], int):
            continue
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args),
                     numerical_grad(fn, args, wrt), rtol=1e-6)


def test_digamma_against_the_lgamma_difference_quotient():
    from runtime.rules.math_module import digamma
    for x in (0.1, 0.5, 1.0, 3.3, 5.99, 6.0, 40.0, -0.5, -2.7):
        assert digamma(x) == pytest.approx(numerical_grad(math.lgamma, (x,), 0), rel=1e-6)
    assert digamma(1.0) == pytest.approx(-0.5772156649015329, abs=1e-13)


def test_every_public_math_function_is_declared():
    missing = [name for name in dir(math) if not name.startswith("_")
               and callable(getattr(math, name)) and rule_for(getattr(math, name)) is None]
    assert missing == []


@pytest.mark.parametrize("fn,x,slope", [(math.frexp, 5.5, 1 / 8), (math.frexp, -0.3, 2.0),
                                        (math.modf, 5.5, 1.0), (math.modf, -2.25, 1.0)])
def test_tuple_outputs_first_part_slope(fn, x, slope):
    """grad of the first part (the mantissa, the fraction); the second part (exponent,
    integral part) is a step and carries no derivative."""
    first = grad(lambda v: fn(v)[0])(x)
    assert first == pytest.approx(numerical_grad(lambda v: fn(v)[0], (x,), 0), rel=1e-6)
    assert first == slope
    assert grad(lambda v: fn(v)[1] + 0.0 * v)(x) == 0.0


@pytest.mark.parametrize("x,y", [(2.3, 3.0), (2.3, -1.0), (-0.4, -0.4)])
def test_nextafter_moves_with_x_only(x, y):
    assert grad(math.nextafter, wrt=0)(x, y) == pytest.approx(numerical_grad(
        math.nextafter, (x, y), 0), rel=1e-6)
    assert grad(math.nextafter, wrt=1)(x, y) == 0.0
