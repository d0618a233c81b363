"""scipy.special, continued (registered only when SciPy imports).

zeta(x, q) in x: d/dx zeta(x, q) = -sum over n >= 0 of log(n + q) (n + q)^-x, summed by
Euler-Maclaurin (12 terms, the tail's integral, 8 Bernoulli corrections: about 1e-15
relative for x > 1, q > 0). Where the series diverges (x <= 1, or q <= 0) the rule
refuses with a ValueError rather than return a value (SciPy's Riemann zeta continues
below 1; its slope there has no rule here).
"""
import math

import numpy as np
import scipy.special as sc

from ..helpers import unbroadcast
from ..registry import defvjp, template_helper

TERMS = 12
# B_2k / (2k)! for k = 1..8
BERNOULLI = [b / math.factorial(2 * k) for k, b in enumerate(
    [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510], start=1)]


@template_helper
def zeta_dx(x, q):
    """d/dx of the Hurwitz zeta(x, q) (q=None: Riemann's, q = 1), elementwise."""
    q = 1.0 if q is None else q
    dtype = np.result_type(np.asarray(x), np.asarray(q), np.float32)    # float32 stays
    x, q = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(q, dtype=float))
    if np.any(x <= 1) or np.any(q <= 0):
        raise ValueError("scipy.special.zeta's derivative in x has a rule for x > 1 and "
                         "q > 0 only")
    total = sum([np.log(n + q) * (n + q) ** -x for n in range(TERMS)])
    a = TERMS + q
    log_a = np.log(a)
    total = total + a ** (1 - x) * (log_a / (x - 1) + 1 / (x - 1) ** 2) + \
        log_a * a ** -x / 2
    # f(t) = log(t) t^-x: f^(j)(t) = t^(-x-j) (A_j log t + B_j)
    A, B = np.ones_like(x), np.zeros_like(x)
    for j in range(2 * len(BERNOULLI)):
        A, B = -(x + j) * A, -(x + j) * B + A       # now the (j+1)-th derivative
        if j % 2 == 0:
            total = total - BERNOULLI[j // 2] * a ** (-x - j - 1) * (A * log_a + B)
    return (-total).astype(dtype, copy=False)


defvjp(sc.zeta, "x, q=None", "unbroadcast(g * zeta_dx(x, q), x)",
       "unbroadcast(-g * x * zeta(x + 1, q), q)", elementwise=True)
