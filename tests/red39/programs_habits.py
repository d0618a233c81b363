"""red39: control habits around the math: a try/except jitter fallback for a Cholesky,
np.errstate, assert and raise for validation, warnings.warn, a None default resolved
inside, early returns from a loop, while/else, match on a mode string."""
import warnings

import numpy as np


def gp_jitter_fallback(x):
    """the GP habit: try a Cholesky, add jitter when it fails."""
    A = np.outer(x, x) + np.eye(3)
    try:
        L = np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        L = np.linalg.cholesky(A + 1e-6 * np.eye(3))
    return np.sum(np.log(np.diag(L))) + np.sum(L ** 2)


def errstate_ratio(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.sin(x) / (x + 2.0)
    return np.sum(r ** 2)


def validated(x):
    assert x.ndim == 1, "vector expected"
    if not np.all(np.isfinite(x)):
        raise ValueError("non-finite input")
    return np.sum(np.exp(x) * x)


def warn_large(x):
    s = np.sum(x ** 2)
    if s > 100:
        warnings.warn("large input")
    return s * np.sum(np.cos(x))


def none_default(x, scale=None):
    if scale is None:
        scale = 1.5
    if isinstance(scale, float):
        x = x * scale
    return np.sum(x ** 3) + len(x)


def early_exit_loop(x):
    n = np.linalg.norm(x)
    if n > 10.0:
        return n
    for k in range(3):
        x = np.sin(x) + 0.1 * k
        if np.max(np.abs(x)) > 5:
            return np.sum(x)
    return np.sum(x ** 2) * n


def while_else_relax(x):
    y = x.copy()
    k = 0
    while k < 4:
        y = y - 0.1 * (y ** 3 - 0.5)
        k += 1
    else:
        y = y * 2.0
    return np.sum(y ** 2)


def match_mode(x, mode="quad"):
    match mode:
        case "quad":
            return np.sum(x ** 2 * np.sin(x))
        case _:
            return np.sum(x)
