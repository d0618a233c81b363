"""scipy.linalg's svd, eigh (standard problem), cholesky and cho_factor/cho_solve called
directly, one output at a time, against central differences (singular vectors and
eigenvectors with their signs fixed; symmetric inputs along symmetric directions), and
float32 kept. (test_every_rule_checked.py exempts them: tuple outputs, one triangle.)"""
import numpy as np
import pytest

from tests.rules.checks import check_rule, rand, random_like, spd

sl = pytest.importorskip("scipy.linalg")

from runtime import registry, unthunk  # noqa: E402

TALL, WIDE, SQUARE = rand(4, 3, seed=1), rand(3, 5, seed=2), rand(3, 3, seed=3)


def sym(a):
    return (a + a.T) / 2


def _svd_fixed(signs, **kwargs):
    def f(x):
        u, s, vh = sl.svd(x, **kwargs)
        t = np.sign(u[:1, :]) * signs
        return u * t, s, vh * t.T
    return f


@pytest.mark.parametrize("parts", ["all", "u", "s", "vh"])
@pytest.mark.parametrize("a,kwargs", [(TALL, {"full_matrices": False}),
                                      (WIDE, {"full_matrices": False}), (SQUARE, {})],
                         ids=["tall", "wide", "square-full"])
def test_svd(a, kwargs, parts):
    u, s, vh = sl.svd(a, **kwargs)
    G = random_like((u, s, vh))
    G = tuple(gk if parts in ("all", name) else None for gk, name in zip(G, ["u", "s", "vh"]))
    check_rule(sl.svd, [a], kwargs, G=G, fd=_svd_fixed(np.sign(u[:1, :]), **kwargs), atol=1e-6)


def test_svd_values_only():
    check_rule(sl.svd, [TALL], {"compute_uv": False})


def _eigh_fixed(signs, **kwargs):
    def f(x):
        w, v = sl.eigh(sym(x), **kwargs)
        return w, v * np.sign(v[:1, :]) * signs
    return f


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("parts", ["both", "values", "vectors"])
def test_eigh_standard_problem(parts, lower):
    a = spd(4, seed=4)
    w, v = sl.eigh(a, lower=lower)
    gw, gv = random_like((w, v))
    G = (None if parts == "vectors" else gw, None if parts == "values" else gv)
    check_rule(sl.eigh, [a], {"lower": lower}, G=G,
               fd=_eigh_fixed(np.sign(v[:1, :]), lower=lower), atol=1e-6)


@pytest.mark.parametrize("lower", [True, False])
def test_eigh_values_only(lower):
    kwargs = {"lower": lower, "eigvals_only": True}
    check_rule(sl.eigh, [spd(4, seed=5)], kwargs, fd=lambda x: sl.eigh(sym(x), **kwargs))


@pytest.mark.parametrize("lower", [True, False])
def test_cholesky(lower):
    check_rule(sl.cholesky, [spd(4, seed=6)], {"lower": lower},
               fd=lambda x: sl.cholesky(sym(x), lower=lower))


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("b", [rand(4, seed=7), rand(4, 2, seed=8)], ids=["vector", "matrix"])
def test_cho_solve_through_cho_factor(lower, b):
    def f(x, b):
        return sl.cho_solve(sl.cho_factor(sym(x), lower=lower), b)
    a = spd(4, seed=9)
    factor_rule, solve_rule = registry.lookup(sl.cho_factor), registry.lookup(sl.cho_solve)
    c, factor_pullback = factor_rule.rrule(a, lower=lower)
    x, solve_pullback = solve_rule.rrule(c, b)
    G = random_like(x)
    gc, gb = (unthunk(p) for p in solve_pullback(G))
    ga = unthunk(factor_pullback(gc)[0])
    from tests.fd import assert_close, numerical_vjp
    assert_close(ga, numerical_vjp(f, (a, b), 0, G), rtol=1e-5, atol=1e-8)
    assert_close(gb, numerical_vjp(f, (a, b), 1, G), rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("fn,args,kwargs", [
    (sl.svd, [TALL], {"full_matrices": False}), (sl.svd, [TALL], {"compute_uv": False}),
    (sl.eigh, [spd(3)], {}), (sl.eigh, [spd(3)], {"eigvals_only": True}),
    (sl.cholesky, [spd(3)], {}), (sl.cholesky, [spd(3)], {"lower": True})])
def test_float32_stays_float32(fn, args, kwargs):
    a = args[0].astype(np.float32)
    out, pullback = registry.lookup(fn).rrule(a, **kwargs)
    assert unthunk(pullback(random_like(out))[0]).dtype == np.float32


def test_cho_factor_and_solve_keep_float32():
    a, b = spd(3).astype(np.float32), rand(3, seed=10).astype(np.float32)
    c, factor_pullback = registry.lookup(sl.cho_factor).rrule(a)
    x, solve_pullback = registry.lookup(sl.cho_solve).rrule(c, b)
    gc, gb = (unthunk(p) for p in solve_pullback(np.ones(3, np.float32)))
    assert gb.dtype == np.float32 and unthunk(factor_pullback(gc)[0]).dtype == np.float32
