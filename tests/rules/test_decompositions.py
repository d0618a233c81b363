"""Matrix functions and decompositions against central differences.

Symmetric-input functions (cholesky, eigh, eigvalsh) read one triangle; their
rules return the symmetric cotangent, so the differences are taken through
sym(a) = (a + a^T) / 2. Eigenvector and singular-vector signs are fixed
relative to the unperturbed result, so the differenced function is smooth.
"""
import numpy as np
import pytest

import runtime
from tests.rules.checks import (case, check_float32, check_rule, needs, newer, rand,
                               random_like, spd)


def sym(a):
    return (a + np.swapaxes(a, -1, -2)) / 2


M = rand(3, 3, low=-1, high=1) + 3 * np.eye(3)       # well conditioned
BATCH = rand(2, 3, 3, seed=1) + 3 * np.eye(3)
WIDE, TALL = rand(2, 4, seed=2), rand(4, 3, seed=3)

CASES = [
    case(np.linalg.inv, M), case(np.linalg.inv, BATCH),
    case(np.linalg.det, M), case(np.linalg.det, BATCH),
    case(np.linalg.solve, M, rand(3, seed=4)), case(np.linalg.solve, M, rand(3, 2, seed=5)),
    case(np.linalg.solve, BATCH, rand(2, 3, 2, seed=6)),
    needs("2.0", case(np.linalg.solve, BATCH, rand(3, 4, seed=6)), "b is a stack of vectors"),
    needs("2.0", case(np.linalg.solve, BATCH, rand(3, seed=7)), "b must be a stack of vectors"),
    pytest.param(np.linalg.solve, (BATCH, rand(2, 3, seed=8)), {}, id="solve-stacked-vectors",
                 marks=pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) >= "2.0.0",
                                          reason="NumPy 2 reads a 2-D b as one matrix")),
    case(np.linalg.matrix_power, M, 3), case(np.linalg.matrix_power, BATCH, 2),
    case(np.linalg.matrix_power, M, 0), case(np.linalg.matrix_power, M, 1),
    case(np.linalg.matrix_power, M, -2),
    case(np.linalg.pinv, WIDE), case(np.linalg.pinv, TALL), case(np.linalg.pinv, M),
    case(np.linalg.pinv, rand(2, 4, 3, seed=8)),
    case(np.linalg.svd, TALL, compute_uv=False), case(newer("linalg.svdvals"), WIDE),
    case(newer("linalg.svdvals"), rand(2, 3, 2, seed=9)),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("a", [M, BATCH], ids=["single", "batch"])
def test_slogdet(a):
    out = np.linalg.slogdet(a)
    G = (None, random_like(out[1]))
    check_rule(np.linalg.slogdet, [a], G=G, fd=lambda x: np.linalg.slogdet(x))
    out, pb = runtime.lookup(np.linalg.slogdet).rrule(a)
    assert pb((random_like(out[0]), None))[0].force() is None  # the sign is locally constant


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("a", [spd(3), spd(4, seed=1, batch=(2,))], ids=["single", "batch"])
def test_cholesky(a, upper):
    keywords = {"upper": True} if upper else {}       # NumPy < 2.0 has no `upper`
    if upper and np.lib.NumpyVersion(np.__version__) < "2.0.0":
        pytest.skip("NumPy < 2.0: cholesky has no upper=")
    check_rule(np.linalg.cholesky, [a], keywords,
               fd=lambda x: np.linalg.cholesky(sym(x), **keywords))


def _eigh_fixed(signs):
    def f(x):
        w, v = np.linalg.eigh(sym(x))
        return w, v * np.sign(v[..., :1, :]) * signs
    return f


@pytest.mark.parametrize("parts", ["both", "values", "vectors"])
@pytest.mark.parametrize("a", [spd(3), spd(3, seed=2, batch=(2,))], ids=["single", "batch"])
def test_eigh(a, parts):
    w, v = np.linalg.eigh(a)
    gw, gv = random_like((w, v))
    G = (None if parts == "vectors" else gw, None if parts == "values" else gv)
    check_rule(np.linalg.eigh, [a], G=G, fd=_eigh_fixed(np.sign(v[..., :1, :])), atol=1e-6)


def test_eigvalsh():
    check_rule(np.linalg.eigvalsh, [spd(4)], fd=lambda x: np.linalg.eigvalsh(sym(x)))


def _svd_fixed(signs):
    def f(x):
        u, s, vh = np.linalg.svd(x, full_matrices=False)
        t = np.sign(u[..., :1, :]) * signs
        return u * t, s, vh * np.swapaxes(t, -1, -2)
    return f


@pytest.mark.parametrize("parts", ["all", "u", "s", "vh"])
@pytest.mark.parametrize("a", [TALL, WIDE, M, rand(2, 3, 2, seed=5)], ids=["tall", "wide", "square", "batch"])
def test_svd(a, parts):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    G = random_like((u, s, vh))
    G = tuple(gk if parts in ("all", name) else None for gk, name in zip(G, ["u", "s", "vh"]))
    check_rule(np.linalg.svd, [a], {"full_matrices": False}, G=G,
               fd=_svd_fixed(np.sign(u[..., :1, :])), atol=1e-6)


def test_svd_full_matrices_of_non_square_is_refused():
    out, pb = runtime.lookup(np.linalg.svd).rrule(TALL)
    with pytest.raises(NotImplementedError):
        runtime.unthunk(pb(random_like(out))[0])


@pytest.mark.parametrize("fn, args", [(np.linalg.cholesky, [spd(3)]), (np.linalg.eigh, [spd(3)]),
                                      (np.linalg.svd, [TALL]), (np.linalg.slogdet, [M])])
def test_tuple_outputs_stay_float32(fn, args):
    a = args[0].astype(np.float32)
    kwargs = {"full_matrices": False} if fn is np.linalg.svd else {}
    out, pb = runtime.lookup(fn).rrule(a, **kwargs)
    assert runtime.unthunk(pb(random_like(out))[0]).dtype == np.float32
