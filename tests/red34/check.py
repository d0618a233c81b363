"""Each derivative of a case against central finite differences in float64: first
order against differences of the plain function, second order against differences of
`grad` (itself checked against differences of the function first)."""
import dataclasses
import warnings

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp, numerical_tree_grad
from tests.forward.test_jvp import assert_tree_close
from tests.gradcheck import readonly, rng
from tests.trees import float_leaves, get_path
from transform import TransformError, grad, hessian, hvp, jacfwd, jacrev, jvp

RTOL, ATOL = 1e-5, 1e-6


def tangent_like(r, a):
    """A random tangent shaped like argument a: a dataclass's fields, a NamedTuple's
    (its constructor takes the fields as arguments, not one iterable), a tuple's, a
    list's or a dict's entries; a float for a float."""
    if dataclasses.is_dataclass(a):
        return type(a)(*[tangent_like(r, getattr(a, f.name)) for f in dataclasses.fields(a)])
    if isinstance(a, tuple) and hasattr(a, "_fields"):
        return type(a)(*[tangent_like(r, v) for v in a])
    if isinstance(a, (tuple, list)):
        return type(a)(tangent_like(r, v) for v in a)
    if isinstance(a, dict):
        return {k: tangent_like(r, v) for k, v in a.items()}
    if isinstance(a, float):
        return float(r.normal())
    return r.normal(size=np.shape(a))


def _fd_jacobian(f, args, k):
    x = args[k]
    cols = []
    for idx in np.ndindex(np.shape(x)):
        e = np.zeros(np.shape(x))
        e[idx] = 1.0
        cols.append(np.asarray(numerical_jvp(f, args, k, e if np.ndim(x) else 1.0)))
    J = np.stack(cols, axis=-1)
    return J.reshape(np.shape(cols[0]) + np.shape(x))


def _checked_grad(f, args, k):
    g = grad(f, k)
    got = g(*args)
    if float_leaves(args[k]) == [((), args[k])]:
        assert_close(got, numerical_grad(f, args, k), RTOL, ATOL, what="grad")
    else:
        for path, want in numerical_tree_grad(f, args, k).items():
            assert_close(get_path(got, path), want, RTOL, ATOL, what=f"grad{path}")
    return g


def check_jvp(f, args, k, r):
    t = tangent_like(r, args[k])
    _, got = jvp(f, tuple(args), (t,), wrt=k)
    assert_tree_close(got, numerical_jvp(f, args, k, t), RTOL, ATOL)


def check_jacfwd(f, args, k, r):
    assert_close(jacfwd(f, wrt=k)(*args), _fd_jacobian(f, args, k), RTOL, ATOL, "jacfwd")


def check_jacrev(f, args, k, r):
    assert_close(jacrev(f, wrt=k)(*args), _fd_jacobian(f, args, k), RTOL, ATOL, "jacrev")


def _plain(tree):
    """A dataclass or NamedTuple as the tuple of its fields (the differences' tree has
    no records)."""
    if dataclasses.is_dataclass(tree):
        return tuple(_plain(getattr(tree, f.name)) for f in dataclasses.fields(tree))
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return tuple(_plain(v) for v in tree)
    return tree


def check_hvp(f, args, k, r):
    g = _checked_grad(f, args, k)
    v = tangent_like(r, args[k])
    got = hvp(f, tuple(args), (v,), wrt=k)
    want = numerical_jvp(lambda *a: _plain(g(*a)), args, k, v)
    assert_tree_close(_plain(got), want, RTOL, ATOL, "hvp")


def check_hessian(f, args, k, r):
    g = _checked_grad(f, args, k)
    assert_close(hessian(f, wrt=k)(*args), _fd_jacobian(g, args, k), RTOL, ATOL, "hessian")


def check_jvp_grad(f, args, k, r):
    g = _checked_grad(f, args, k)
    v = tangent_like(r, args[k])
    _, got = jvp(g, tuple(args), (v,), wrt=k)
    assert_tree_close(got, numerical_jvp(g, args, k, v), RTOL, ATOL, "jvp of grad")


def check_jacfwd_grad(f, args, k, r):
    g = _checked_grad(f, args, k)
    assert_close(jacfwd(g, wrt=k)(*args), _fd_jacobian(g, args, k), RTOL, ATOL, "jacfwd(grad)")


def check_gog(f, args, k, r):
    g = _checked_grad(f, args, k)
    assert_close(grad(g, k)(*args), numerical_grad(g, args, k), RTOL, ATOL, "grad(grad)")


def check_gog3(f, args, k, r):
    g2 = grad(grad(f, k), k)
    assert_close(grad(g2, k)(*args), numerical_grad(g2, args, k), 1e-5, 1e-5, "grad^3")


def check_hessian_tuple(f, args, k, r):
    """hessian of a tuple wrt: blocks H[i][j] against differences of grad_i in arg j."""
    H = hessian(f, wrt=k)(*args)
    for i, a in enumerate(k):
        gi = _checked_grad(f, args, a)
        for j, b in enumerate(k):
            assert_close(H[i][j], _fd_jacobian(gi, args, b), RTOL, ATOL, f"H[{i}][{j}]")


def check_hvp_tuple(f, args, k, r):
    vs = tuple(tangent_like(r, args[a]) for a in k)
    got = hvp(f, tuple(args), vs, wrt=k)
    for i, a in enumerate(k):
        gi = _checked_grad(f, args, a)
        want = sum(numerical_jvp(gi, args, b, v) for b, v in zip(k, vs))
        assert_close(got[i], want, RTOL, ATOL, f"hvp[{i}]")


def check_cross(f, args, k, r):
    """d/d arg k[1] of grad in arg k[0]: grad of grad for floats, jacfwd of grad else."""
    a, b = k
    g = _checked_grad(f, args, a)
    want = _fd_jacobian(g, args, b)
    if np.ndim(args[a]) == 0 and np.ndim(args[b]) == 0:
        got = grad(g, b)(*args)
    else:
        got = jacfwd(g, wrt=b)(*args)
    assert_close(got, want, RTOL, ATOL, "cross")


def check_cross_rev(f, args, k, r):
    a, b = k
    g = _checked_grad(f, args, a)
    assert_close(jacrev(g, wrt=b)(*args), _fd_jacobian(g, args, b), RTOL, ATOL, "jacrev(grad)")


def check_jacfwd_tuple(f, args, k, r):
    """jacfwd and jacrev of a tuple output: one Jacobian per entry."""
    for jac in (jacfwd, jacrev):
        got = jac(f, wrt=k)(*args)
        for i in range(len(got)):
            want = _fd_jacobian(lambda *a, i=i: f(*a)[i], args, k)
            assert_close(got[i], want, RTOL, ATOL, f"{jac.__name__}[{i}]")


def check_hessian_container(f, args, k, r):
    """hessian of a tuple argument: H[i][j] against differences of grad's entry i."""
    H = hessian(f, wrt=k)(*args)
    g = _checked_grad(f, args, k)
    for i in range(len(args[k])):
        for j in range(len(args[k])):
            def entry_i(*a, i=i):
                return g(*a)[i]
            e = tuple(1.0 if m == j else 0.0 for m in range(len(args[k])))
            assert_close(H[i][j], numerical_jvp(entry_i, args, k, e), RTOL, ATOL,
                         f"H[{i}][{j}]")


CHECKS = {name[6:]: fn for name, fn in globals().items() if name.startswith("check_")}


def classify(name, case, check):
    """'pass', 'refused' (TransformError), 'wrong' (AssertionError) or 'crash: ...'."""
    f, args, k, _ = case
    try:
        CHECKS[check](f, list(args), k, rng("red34", name, check))
    except TransformError:
        return "refused"
    except AssertionError:
        return "wrong"
    except Exception as e:   # noqa: BLE001 -- the classification's point
        return f"crash: {type(e).__name__}: {str(e)[:120]}"
    return "pass"


def run_checked(team, checks, case, name, check, refused):
    """One (program, check) of a red team's table: the check against differences, or,
    listed as refused, a TransformError (a refusal that starts passing fails here, so
    the list is kept exact). Arguments are read-only: generated code never writes one."""
    f, args, k, _ = case
    args = readonly(args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if refused:
            with pytest.raises(TransformError):
                checks[check](f, args, k, rng(team, name, check))
        else:
            checks[check](f, args, k, rng(team, name, check))


# the kinds of check red teams' refusal lists name together (red39, red40)
FR = ("hvp_fr", "hessian_fr")                       # forward over reverse
SECOND = ("hvp", "hvp_fr", "hvp_auto", "hessian", "hessian_fr", "jacfwd_grad",
          "jacrev_grad", "gog", "gog3")


def listed(cases, names, checks):
    """(name, check) for each check of `checks` the case `name` (of `cases`) runs."""
    return {(n, c) for n in names.split() for c in checks if c in cases[n][3]}
