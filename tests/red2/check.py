"""red2's checks, all against central differences in float64 computed here, never
through thunkgrad: jvp and jacfwd against differences of the function, hvp, hessian and
grad of grad against second differences of the function (the finite-difference gradient
differenced again)."""
import dataclasses

import numpy as np

from transform import TransformError, grad, hessian, hvp, jacfwd, jvp

RTOL, ATOL = 1e-5, 1e-6
H1, H2 = 1e-6, 1e-4


def flat(a):
    if dataclasses.is_dataclass(a):
        return np.concatenate([flat(getattr(a, f.name)) for f in dataclasses.fields(a)])
    return np.ravel(np.asarray(a, dtype=float))


def unflat(like, v):
    if dataclasses.is_dataclass(like):
        out, i = [], 0
        for f in dataclasses.fields(like):
            n = flat(getattr(like, f.name)).size
            out.append(unflat(getattr(like, f.name), v[i:i + n]))
            i += n
        return type(like)(*out)
    if isinstance(like, float):
        return float(v[0])
    return v.reshape(np.shape(like)).copy()


def _at(f, args, k, v):
    a = list(args)
    a[k] = unflat(args[k], v)
    return np.asarray(f(*a), dtype=float)


def fd_jvp(f, args, k, t):
    x = flat(args[k])
    return (_at(f, args, k, x + H1 * t) - _at(f, args, k, x - H1 * t)) / (2 * H1)


def fd_hessian(f, args, k):
    x, n = flat(args[k]), flat(args[k]).size
    E = np.eye(n) * H2
    H = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = [_at(f, args, k, x + a * E[i] + b * E[j]) for a, b in
                 ((1, 1), (1, -1), (-1, 1), (-1, -1))]
            H[i, j] = (s[0] - s[1] - s[2] + s[3]) / (4 * H2 * H2)
    return H


def close(got, want, what):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert np.allclose(got, want, rtol=RTOL, atol=ATOL), f"{what}: {got} != {want}"


def check_jvp(f, args, k, r):
    t = r.normal(size=flat(args[k]).size)
    _, got = jvp(f, tuple(args), (unflat(args[k], t),), wrt=k)
    close(got, fd_jvp(f, args, k, t), "jvp")


def check_jacfwd(f, args, k, r):
    J = jacfwd(f, wrt=k)(*args)
    n = flat(args[k]).size
    want = np.stack([fd_jvp(f, args, k, e) for e in np.eye(n)], axis=-1)
    close(J, want.reshape(np.shape(f(*args)) + np.shape(args[k])), "jacfwd")


def check_hvp(f, args, k, r):
    v = r.normal(size=flat(args[k]).size)
    got = hvp(f, tuple(args), (unflat(args[k], v),), wrt=k)
    close(flat(got), fd_hessian(f, args, k) @ v, "hvp")


def check_hessian(f, args, k, r):
    H = hessian(f, wrt=k)(*args)
    n = flat(args[k]).size
    close(np.reshape(H, (n, n)), fd_hessian(f, args, k), "hessian")


def check_gog(f, args, k, r):
    got = grad(grad(f, k), k)(*args)
    close(got, fd_hessian(f, args, k)[0, 0], "grad(grad)")


CHECKS = {name[6:]: fn for name, fn in dict(globals()).items() if name.startswith("check_")}


def classify(f, args, k, check, r):
    """'pass', 'refused' (TransformError), 'wrong' (AssertionError) or 'crash: ...'."""
    try:
        CHECKS[check](f, list(args), k, r)
    except TransformError:
        return "refused"
    except AssertionError as e:
        return f"wrong: {str(e)[:300]}"
    except Exception as e:   # noqa: BLE001 -- the classification's point
        return f"crash: {type(e).__name__}: {str(e)[:300]}"
    return "pass"
