"""red35's checks: each API against central finite differences in float64. First order
against differences of the plain function; hvp, hessian, jvp/jacfwd of grad and grad of
grad against differences of `grad` (itself checked against differences first). Shares
red34's checks (tests/red34/check.py) and adds plain grad, value_and_grad, has_aux,
container hessians and float32 inputs."""
import numpy as np

from tests.fd import assert_close, numerical_jvp, numerical_tree_grad
from tests.forward.test_jvp import assert_tree_close
from tests.gradcheck import rng
from tests.red34.check import CHECKS as RED34_CHECKS
from tests.red34.check import RTOL, ATOL, _checked_grad, _fd_jacobian, tangent_like
from tests.trees import float_leaves, get_path, with_leaf
from transform import TransformError, grad, hessian, jacfwd, jacrev, jvp, value_and_grad


def check_grad(f, args, k, r):
    _checked_grad(f, args, k)


def check_vg(f, args, k, r):
    value, g = value_and_grad(f, k)(*args)
    assert_close(value, f(*args), 1e-12, 1e-12, "value")
    assert_tree_close(g, _checked_grad(f, args, k)(*args), 1e-12, 1e-12, "value_and_grad")


def check_aux(f, args, k, r):
    """f returns (loss, aux): grad and value_and_grad with has_aux against differences."""
    g, aux = grad(f, k, has_aux=True)(*args)
    for path, want in numerical_tree_grad(lambda *a: f(*a)[0], args, k).items():
        assert_close(get_path(g, path), want, RTOL, ATOL, f"grad has_aux{path}")
    _assert_same(aux, f(*args)[1])
    (value, aux2), g2 = value_and_grad(f, k, has_aux=True)(*args)
    assert_close(value, f(*args)[0], 1e-12, 1e-12, "value")
    assert_tree_close(g2, g, 1e-12, 1e-12, "value_and_grad has_aux")


def _assert_same(got, want):
    """aux as the primal computes it: containers, strings, numbers, arrays."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, dict):
        assert set(got) == set(want)
        for key in want:
            _assert_same(got[key], want[key])
    elif isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _assert_same(g, w)
    elif isinstance(want, str):
        assert got == want
    else:
        assert_close(got, want, 1e-12, 1e-12, "aux")


def check_hessian_tree(f, args, k, r):
    """hessian of a dict/list/tuple argument: block H[i][j] is d grad_i / d leaf j."""
    H = hessian(f, wrt=k)(*args)
    g = _checked_grad(f, args, k)
    leaves = float_leaves(args[k])
    for pi, _ in leaves:
        for pj, leaf_j in leaves:
            cols = []
            for idx in np.ndindex(np.shape(leaf_j)):
                e = np.zeros(np.shape(leaf_j))
                e[idx] = 1.0
                t = with_leaf(_zeros(args[k]), pj, e if np.ndim(leaf_j) else 1.0)
                col = numerical_jvp(lambda *a: get_path(g(*a), pi), args, k, t)
                cols.append(np.asarray(col))
            want = np.stack(cols, axis=-1).reshape(np.shape(cols[0]) + np.shape(leaf_j))
            assert_close(get_path(get_path(H, pi), pj), want, RTOL, ATOL, f"H{pi}{pj}")


def _fd_tree_jacobian(f, args, k, path, leaf):
    cols = []
    for idx in np.ndindex(np.shape(leaf)):
        e = np.zeros(np.shape(leaf))
        e[idx] = 1.0
        t = with_leaf(_zeros(args[k]), path, e if np.ndim(leaf) else 1.0)
        cols.append(np.asarray(numerical_jvp(f, args, k, t)))
    return np.stack(cols, axis=-1).reshape(np.shape(cols[0]) + np.shape(leaf))


def check_jac_tree(f, args, k, r):
    """jacfwd and jacrev of a container argument: one Jacobian per float leaf."""
    for jac in (jacfwd, jacrev):
        J = jac(f, wrt=k)(*args)
        for path, leaf in float_leaves(args[k]):
            assert_close(get_path(J, path), _fd_tree_jacobian(f, args, k, path, leaf),
                         RTOL, ATOL, f"{jac.__name__}{path}")


def check_jac_out(f, args, k, r):
    """jacfwd and jacrev of a dict output: one Jacobian per entry."""
    for jac in (jacfwd, jacrev):
        J = jac(f, wrt=k)(*args)
        for key in f(*args):
            want = _fd_jacobian(lambda *a, key=key: f(*a)[key], args, k)
            assert_close(J[key], want, RTOL, ATOL, f"{jac.__name__}[{key!r}]")


def check_jacrev_grad(f, args, k, r):
    g = _checked_grad(f, args, k)
    assert_close(jacrev(g, wrt=k)(*args), _fd_jacobian(g, args, k), RTOL, ATOL, "jacrev(grad)")


def _zeros(tree):
    out = tree
    for path, leaf in float_leaves(tree):
        out = with_leaf(out, path, 0.0 if np.ndim(leaf) == 0 else np.zeros(np.shape(leaf)))
    return out


def _f64(args):
    return [np.asarray(a, dtype=np.float64) if isinstance(a, np.ndarray) else a for a in args]


def check_jvp32(f, args, k, r):
    """float32 arguments: the tangent in float32, close to float64 differences."""
    t = tangent_like(r, args[k]).astype(np.float32)
    out, got = jvp(f, tuple(args), (t,), wrt=k)
    assert np.asarray(got).dtype == np.float32, np.asarray(got).dtype
    want = numerical_jvp(f, _f64(args), k, t.astype(np.float64))
    assert_close(got, want, 2e-3, 2e-3, "jvp float32")


def check_grad32(f, args, k, r):
    g = grad(f, k)(*args)
    assert g.dtype == np.float32, g.dtype
    want = _fd_jacobian(f, _f64(args), k)
    assert_close(g, want, 2e-3, 2e-3, "grad float32")


def check_hvp32(f, args, k, r):
    from transform import hvp
    v = tangent_like(r, args[k]).astype(np.float32)
    got = hvp(f, tuple(args), (v,), wrt=k)
    assert np.asarray(got).dtype == np.float32, np.asarray(got).dtype
    g64 = _checked_grad(f, _f64(args), k)
    assert_close(got, numerical_jvp(g64, _f64(args), k, v.astype(np.float64)), 2e-3, 2e-3,
                 "hvp float32")


CHECKS = dict(RED34_CHECKS)
CHECKS.update({name[6:]: fn for name, fn in globals().items() if name.startswith("check_")})


def run(name, case, check):
    f, args, k, _ = case
    CHECKS[check](f, list(args), k, rng("red35", name, check))


def classify(name, case, check):
    """'pass', 'refused' (TransformError), 'wrong' (AssertionError) or 'crash: ...'."""
    try:
        run(name, case, check)
    except TransformError:
        return "refused"
    except AssertionError as e:
        return f"wrong: {str(e)[:200]}"
    except Exception as e:   # noqa: BLE001 -- the classification's point
        return f"crash: {type(e).__name__}: {str(e)[:200]}"
    return "pass"
