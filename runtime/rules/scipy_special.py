"""scipy.special: registered only when SciPy imports (runtime/rules/__init__.py).

Binary functions broadcast like ufuncs, so each cotangent is summed back with
`unbroadcast`. Orders and counts (polygamma's n, jv's v, multigammaln's d) carry no
derivative here: a differentiated value reaching them is refused.
"""
from functools import partial

import numpy as np
import scipy.special as sc

from ..registry import DIAGONAL, LINEAR, NONE, defvjp, template_helper
from ..helpers import unbroadcast, unreduce

for _helper in (sc.psi, sc.polygamma, sc.i0, sc.i1, sc.i0e, sc.i1e, sc.ive, sc.iv, sc.jv,
                sc.yv, sc.zeta):
    template_helper(_helper)
SQRT_2PI = float(np.sqrt(2 * np.pi))
TWO_OVER_SQRT_PI = float(2 / np.sqrt(np.pi))
# scipy.special's ufuncs are elementwise (the output has the arguments' broadcast shape):
# `ufunc` registers a rule with that trait
ufunc = partial(defvjp, elementwise=True)

ufunc(sc.expit, "x", "g * ans * (1 - ans)")
ufunc(sc.logit, "x", "g / (x * (1 - x))")
ufunc(sc.erf, "x", f"g * {TWO_OVER_SQRT_PI!r} * np.exp(-x * x)")
ufunc(sc.erfc, "x", f"-g * {TWO_OVER_SQRT_PI!r} * np.exp(-x * x)")
ufunc(sc.erfinv, "y", f"g / {TWO_OVER_SQRT_PI!r} * np.exp(ans * ans)")
ufunc(sc.erfcinv, "y", f"-g / {TWO_OVER_SQRT_PI!r} * np.exp(ans * ans)")
ufunc(sc.ndtr, "x", f"g * np.exp(-x * x / 2) / {SQRT_2PI!r}")
ufunc(sc.ndtri, "y", f"g * {SQRT_2PI!r} * np.exp(ans * ans / 2)")
ufunc(sc.log_ndtr, "x", f"g * np.exp(-x * x / 2 - ans) / {SQRT_2PI!r}")

ufunc(sc.gamma, "x", "g * ans * psi(x)")
ufunc(sc.gammaln, "x", "g * psi(x)")
ufunc(sc.psi, "x", "g * polygamma(1, x)")                  # = sc.digamma
defvjp(sc.polygamma, "n, x", NONE, "g * polygamma(n + 1, x)", jvp=DIAGONAL)
ufunc(sc.beta, "a, b", "unbroadcast(g * ans * (psi(a) - psi(a + b)), a)",
      "unbroadcast(g * ans * (psi(b) - psi(a + b)), b)")
ufunc(sc.betaln, "a, b", "unbroadcast(g * (psi(a) - psi(a + b)), a)",
      "unbroadcast(g * (psi(b) - psi(a + b)), b)")
defvjp(sc.multigammaln, "a, d", "g * multigammaln_vjp(a, d)", NONE, jvp=DIAGONAL)

ufunc(sc.xlogy, "x, y", "unbroadcast(g * np.log(y), x)", "unbroadcast(g * x / y, y)")
ufunc(sc.xlog1py, "x, y", "unbroadcast(g * np.log1p(y), x)", "unbroadcast(g * x / (1 + y), y)")
ufunc(sc.entr, "x", "-g * (np.log(x) + 1)")
ufunc(sc.rel_entr, "x, y", "unbroadcast(g * (np.log(x / y) + 1), x)",
      "unbroadcast(-g * x / y, y)")
ufunc(sc.kl_div, "x, y", "unbroadcast(g * np.log(x / y), x)", "unbroadcast(g * (1 - x / y), y)")

# Bessel functions: d/dx I_v = (I_{v-1} + I_{v+1}) / 2, and J_v, Y_v with a minus
ufunc(sc.i0, "x", "g * i1(x)")
ufunc(sc.i1, "x", "g * (i0(x) + iv(2, x)) / 2")
ufunc(sc.i0e, "x", "g * (i1e(x) - np.sign(x) * ans)")
ufunc(sc.i1e, "x", "g * ((i0e(x) + ive(2, x)) / 2 - np.sign(x) * ans)")
ufunc(sc.ive, "v, z", NONE, "unbroadcast(g * ((ive(v - 1, z) + ive(v + 1, z)) / 2 "
      "- np.sign(z) * ans), z)")
ufunc(sc.iv, "v, z", NONE, "unbroadcast(g * (iv(v - 1, z) + iv(v + 1, z)) / 2, z)")
ufunc(sc.jv, "v, z", NONE, "unbroadcast(g * (jv(v - 1, z) - jv(v + 1, z)) / 2, z)")
ufunc(sc.yv, "v, z", NONE, "unbroadcast(g * (yv(v - 1, z) - yv(v + 1, z)) / 2, z)")
# zeta (in x and q): scipy_special_more.py

defvjp(sc.logsumexp, "a, axis=None, b=None, keepdims=False, return_sign=False",
       "logsumexp_vjp(g, ans, a, axis, b, keepdims, return_sign)", None,
       "logsumexp_weights_vjp(g, ans, a, axis, b, keepdims)", None, None,
       jvp=("logsumexp_jvp(t_a, ans, a, axis, b, keepdims, return_sign, 0)", None,
            "logsumexp_jvp(t_b, ans, a, axis, b, keepdims, return_sign, 1)"))
defvjp(sc.softmax, "x, axis=None", "ans * (g - np.sum(g * ans, axis=axis, keepdims=True))", None,
       complex_ok=True, jvp="ans * (t_x - np.sum(t_x * ans, axis=axis, keepdims=True))")
defvjp(sc.log_softmax, "x, axis=None",
       "g - np.exp(ans) * np.sum(g, axis=axis, keepdims=True)", None, complex_ok=True,
       jvp="t_x - np.sum(np.exp(ans) * t_x, axis=axis, keepdims=True)")


@template_helper
def multigammaln_vjp(a, d):
    """d/da log Gamma_d(a) = sum over j < d of psi(a - j / 2)."""
    return sum([sc.psi(a - j / 2) for j in range(int(d))])


def _weights(ans, a, axis, keepdims):
    """exp(a - logsumexp(a)), with the reduced axes of `ans` restored."""
    if not keepdims and axis is not None:
        ans = np.expand_dims(ans, axis)
    a = np.asarray(a)
    return np.exp((a if a.dtype.kind == "f" else a.astype(float)) - ans)   # float32 stays


def _no_sign(return_sign):
    if return_sign:
        raise TypeError("logsumexp(..., return_sign=True) has no rule: its value is "
                        "log|sum(b * exp(a))|; differentiate it without return_sign")


@template_helper
def logsumexp_jvp(t, answer, a, axis, b, keepdims, return_sign, part):
    """Tangent of logsumexp from a (part 0): sum(b exp(a - ans) da), or from b (part 1):
    sum(exp(a - ans) db), along axis."""
    _no_sign(return_sign)
    weights = _weights(answer, a, axis, keepdims)
    slopes = weights * b if part == 0 and b is not None else weights
    return np.sum(slopes * t, axis=axis, keepdims=keepdims)


@template_helper
def logsumexp_vjp(slopes, answer, a, axis, b, keepdims, return_sign):
    """Cotangent of a in logsumexp: g spread back, times the softmax weights (and b)."""
    _no_sign(return_sign)
    weights = _weights(answer, a, axis, keepdims)
    if b is not None:
        weights = weights * b
    return unbroadcast(unreduce(slopes, weights, axis, keepdims) * weights, a)


@template_helper
def logsumexp_weights_vjp(slopes, answer, a, axis, b, keepdims):
    """Cotangent of b: g spread back, times exp(a - ans)."""
    weights = _weights(answer, a, axis, keepdims)
    weights = weights * np.ones(np.shape(b), dtype=weights.dtype)
    return unbroadcast(unreduce(slopes, weights, axis, keepdims) * weights, b)


# Second order (session 34, red): logsumexp's JVP term, out = sum(W s t) along axis
# (W = exp(a - ans), s = b for part 0, else 1), differentiated by reverse mode under
# hvp, hessian and grad of grad: dW = W da, d ans = -out.
@template_helper
def logsumexp_jvp_vjp(g, t, answer, a, axis, b, keepdims, part, wrt):
    """Cotangent of t, answer, a or b (wrt) in logsumexp_jvp(t, answer, a, axis, b, ...)."""
    weights = _weights(answer, a, axis, keepdims)
    scale = b if part == 0 and b is not None else 1.0
    if wrt == "answer":
        out = logsumexp_jvp(t, answer, a, axis, b, keepdims, False, part)
        return np.reshape(-np.asarray(g) * out, np.shape(answer))
    spread = np.expand_dims(g, axis) if axis is not None and not keepdims else g
    if wrt == "b" and part != 0:
        return np.zeros(np.shape(b), np.result_type(b, 0.0))
    factors = {"t": weights * scale, "a": weights * scale * t, "b": weights * t}[wrt]
    return unbroadcast(spread * factors, {"t": t, "a": a, "b": b}[wrt])


@template_helper
def logsumexp_jvp_b_jvp(t, t_b, answer, a, axis, keepdims, part):
    """Tangent of logsumexp_jvp(t, ..., b, ..., part) along b's tangent t_b."""
    if part != 0:
        return 0.0 * logsumexp_jvp(t, answer, a, axis, None, keepdims, False, 1)
    return logsumexp_jvp(t * t_b, answer, a, axis, None, keepdims, False, 1)


def _second(wrt):
    return f"logsumexp_jvp_vjp(g, t, answer, a, axis, b, keepdims, part, {wrt!r})"


defvjp(logsumexp_jvp, "t, answer, a, axis, b, keepdims, return_sign, part", _second("t"),
       _second("answer"), _second("a"), None, _second("b"), None, None, None,
       jvp=(LINEAR,
            "-logsumexp_jvp(t, answer, a, axis, b, keepdims, return_sign, part) * t_answer",
            "logsumexp_jvp(t * t_a, answer, a, axis, b, keepdims, return_sign, part)", None,
            "logsumexp_jvp_b_jvp(t, t_b, answer, a, axis, keepdims, part)", None, None,
            None))


# Session 38 (autofix): logsumexp's cotangent differentiated (hvp forward over reverse
# runs forward mode over a flat gradient calling it): out = unbroadcast(G * W, a), G = g
# spread over the reduced axes, W = exp(a - ans) (* b), each argument moving alone:
# dW = W da, dW = -W d ans (spread), dW = exp(a - ans) db; linear in g.
def _lse_parts(g, ans, a, axis, b, keepdims):
    """(G, exp(a - ans), W) of logsumexp_vjp(g, ans, a, axis, b, keepdims)."""
    own = _weights(ans, a, axis, keepdims)
    weights = own * b if b is not None else own
    return unreduce(g, weights, axis, keepdims), own, weights


@template_helper
def logsumexp_vjp_jvp(t, g, ans, a, axis, b, keepdims, by):
    """The tangent of logsumexp_vjp(g, ans, a, axis, b, keepdims, ...) as `by`
    ("answer", "a" or "b") moves along t."""
    spread, own, weights = _lse_parts(g, ans, a, axis, b, keepdims)
    if by == "answer":
        return unbroadcast(-spread * weights * unreduce(t, weights, axis, keepdims), a)
    return unbroadcast(spread * (weights * t if by == "a" else own * t), a)


@template_helper
def logsumexp_vjp_vjp(h, g, ans, a, axis, b, keepdims, by):
    """The cotangent of g, "answer", a or b (`by`) in logsumexp_vjp(g, ans, a, axis, b,
    keepdims, ...) for the cotangent h of its output (shaped like a)."""
    if by == "g":
        return np.reshape(logsumexp_jvp(h, ans, a, axis, b, keepdims, False, 0), np.shape(g))
    spread, own, weights = _lse_parts(g, ans, a, axis, b, keepdims)
    if by == "answer":
        return np.reshape(-np.sum(h * spread * weights, axis=axis, keepdims=keepdims),
                          np.shape(ans))
    return unbroadcast(h * spread * (weights if by == "a" else own), a if by == "a" else b)


_LSE_OWN = "slopes, answer, a, axis, b, keepdims"
defvjp(logsumexp_vjp, _LSE_OWN + ", return_sign",
       f"logsumexp_vjp_vjp(g, {_LSE_OWN}, 'g')", f"logsumexp_vjp_vjp(g, {_LSE_OWN}, 'answer')",
       f"logsumexp_vjp_vjp(g, {_LSE_OWN}, 'a')", None, f"logsumexp_vjp_vjp(g, {_LSE_OWN}, 'b')",
       None, None,
       jvp=(LINEAR, f"logsumexp_vjp_jvp(t_answer, {_LSE_OWN}, 'answer')",
            f"logsumexp_vjp_jvp(t_a, {_LSE_OWN}, 'a')", None,
            f"logsumexp_vjp_jvp(t_b, {_LSE_OWN}, 'b')", None, None))


# and b's cotangent, unbroadcast(G * W, b), W = exp(a - ans) spread over b's shape (b
# itself gives only its shape)
def _lse_b_parts(g, ans, a, axis, b, keepdims):
    own = _weights(ans, a, axis, keepdims)
    weights = own * np.ones(np.shape(b), dtype=own.dtype)
    return unreduce(g, weights, axis, keepdims), weights


@template_helper
def logsumexp_weights_vjp_jvp(t, g, ans, a, axis, b, keepdims, by):
    """The tangent of logsumexp_weights_vjp(g, ans, a, axis, b, keepdims) as `by`
    ("answer" or "a") moves along t."""
    spread, weights = _lse_b_parts(g, ans, a, axis, b, keepdims)
    moved = -unreduce(t, weights, axis, keepdims) if by == "answer" else t
    return unbroadcast(spread * weights * moved, b)


@template_helper
def logsumexp_weights_vjp_vjp(h, g, ans, a, axis, b, keepdims, by):
    """The cotangent of g, "answer" or a (`by`) in logsumexp_weights_vjp(g, ans, a, axis,
    b, keepdims) for the cotangent h of its output (shaped like b)."""
    spread, weights = _lse_b_parts(g, ans, a, axis, b, keepdims)
    if by == "g":
        return np.reshape(np.sum(h * weights, axis=axis, keepdims=keepdims), np.shape(g))
    if by == "answer":
        return np.reshape(-np.sum(h * spread * weights, axis=axis, keepdims=keepdims),
                          np.shape(ans))
    return unbroadcast(h * spread * weights, a)


_LSE_B = "slopes, answer, a, axis, b, keepdims"
defvjp(logsumexp_weights_vjp, _LSE_B, f"logsumexp_weights_vjp_vjp(g, {_LSE_B}, 'g')",
       f"logsumexp_weights_vjp_vjp(g, {_LSE_B}, 'answer')",
       f"logsumexp_weights_vjp_vjp(g, {_LSE_B}, 'a')", None, None, None,
       jvp=(LINEAR, f"logsumexp_weights_vjp_jvp(t_answer, {_LSE_B}, 'answer')",
            f"logsumexp_weights_vjp_jvp(t_a, {_LSE_B}, 'a')", None, None, None))
