"""Session 32 red team (red): jvp and jacfwd of realistic functions
(redteam32_functions.py). The output tangent against central finite differences
(tests/fd.py numerical_jvp, float64) one argument at a time and all at once; jacfwd
against jacrev (1e-10) and, column by column, against finite differences."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.forward import redteam32_functions as F
from tests.forward.test_jvp import assert_tree_close, fd_total, tangent_like
from tests.gradcheck import readonly, rng
from transform import jacfwd, jacrev, jvp


def _cases(r):
    return {
        "layernorm": (r.normal(size=(4, 3)), r.normal(size=3), r.normal(size=3)),
        "mlp": ({"layers": [(r.normal(size=(3, 4)), r.normal(size=4)),
                            (r.normal(size=(4, 2)), r.normal(size=2))]},
                r.normal(size=(5, 3))),
        "heat": (r.normal(size=7), 0.8),
        "softmax_xent": (r.normal(size=(4, 3)), np.array([0, 2, 1, 1])),
        "relu_where": (r.normal(size=6), 1.3),
        "pyminmax": (0.7, 1.4),
        "branchy": (r.normal(size=3) + 1, 0.7),
        "branchy_else": (r.normal(size=3) - 2, 0.7),
        "accum": (r.normal(size=3),),
        "f32": (r.normal(size=(2, 3)), r.normal(size=(3, 2))),
        "matops": (r.normal(size=(3, 3)), r.normal(size=(3, 3))),
        "views": (r.normal(size=6),),
        "gaussian_ll": (r.normal(size=3), r.normal(size=3), r.normal(size=(4, 3))),
        "ode": (r.normal(size=3), 0.5),
        "cumulative": (r.normal(size=5),),
        "dictout": (r.normal(size=3), 0.6),
        "whileloop": (r.normal(size=3),),
        "sortabs": (r.normal(size=5),),
        "normalize": (r.normal(size=(3, 4)),),
        "clipstd": (r.normal(size=6) * 1.5,),
        "prodmean": (r.normal(size=(3, 4)),),
        "stores_loop": (r.normal(size=4),),
        "detinv": (r.normal(size=(3, 3)) + 3 * np.eye(3),),
        "maxaxis": (r.normal(size=(3, 3)),),
        "special": (r.uniform(0.5, 2, size=3),),
        "floats": (r.normal(size=3),),
        "itemmin": (r.normal(size=3),),
        "powers": (r.normal(size=3), 2.5),
        "listsum": ([r.normal(size=2), r.normal(size=2)],),
        "nested_tuple": (((1.3, 0.4), 0.7),),
        "ternary": (r.normal(size=3), -0.7),
        "ternary_else": (r.normal(size=3), 0.7),
        "kw_default": (r.normal(size=3),),
        "reshape_T": (r.normal(size=6),),
        "argmax_pick": (r.normal(size=(3, 4)),),
        "where_div": (r.normal(size=5),),
        "logistic_reg": (r.normal(size=3), r.normal(size=(6, 3)),
                         (r.uniform(size=6) > 0.5).astype(float)),
    }


NAMES = sorted(n for n in _cases(rng(0)) if n != "special" or F.sp is not None)


def _fn(name):
    return getattr(F, name.removesuffix("_else"))


def _float_positions(args):
    # (a dict of parameters looped over as `for W, b in params["layers"]` is taken since
    # session 32 (fix2))
    return [k for k, a in enumerate(args)
            if not (isinstance(a, np.ndarray) and a.dtype.kind != "f")]


@pytest.mark.parametrize("name", NAMES)
def test_jvp_against_finite_differences(name, capsys):
    r = rng("red32.jvp", name)
    args, f = _cases(r)[name], _fn(name)
    positions = _float_positions(args)
    for k in positions:
        t = tangent_like(r, args[k])
        out, out_dot = jvp(f, tuple(readonly(args)), (t,), wrt=k)
        assert_tree_close(out, f(*args), 1e-12, 1e-12, "output")
        assert_tree_close(out_dot, numerical_jvp(f, args, k, t))
    ts = tuple(tangent_like(r, args[k]) for k in positions)
    _, out_dot = jvp(f, args, ts, wrt=tuple(positions))
    assert_tree_close(out_dot, fd_total(f, args, ts, positions))


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("dictout", "mlp",
                                                                 "nested_tuple", "listsum")])
def test_jacfwd_against_jacrev_and_finite_differences(name, capsys):
    args, f = _cases(rng("red32.jac", name))[name], _fn(name)
    for k in _float_positions(args):
        fwd, rev = jacfwd(f, wrt=k)(*args), jacrev(f, wrt=k)(*args)
        assert_close(fwd, rev, 1e-10, 1e-10)
        shape = np.shape(args[k])
        for e in np.ndindex(shape):
            unit = np.zeros(shape)
            unit[e] = 1.0
            want = numerical_jvp(f, args, k, unit if shape else 1.0)
            assert_close(fwd[(...,) + e] if shape else fwd, want)


def test_float32_tangent():
    r = rng("red32.f32")
    x, w = r.normal(size=(2, 3)), r.normal(size=(3, 2))
    t = r.normal(size=(2, 3))
    _, got = jvp(F.f32, (x.astype(np.float32), w.astype(np.float32)),
                 (t.astype(np.float32),), wrt=0)
    assert got.dtype == np.float32
    assert_close(got, numerical_jvp(F.f32, (x.astype(np.float32).astype(float),
                                            w.astype(np.float32).astype(float)), 0,
                                    t.astype(np.float32).astype(float)), 1e-4, 1e-5)


def test_one_function_at_several_shapes_and_types():
    # compiled rules are cached per argument shapes: each call must get its own
    r = rng("red32.shapes")
    for x in (r.normal(size=3), r.normal(size=4), r.normal(size=(2, 3)), 0.7,
              np.float64(0.3), r.normal(size=3), 0.2):
        for w in (1.3, r.normal(size=np.shape(x))):
            t = r.normal(size=np.shape(x))
            t = t if np.ndim(x) else float(t)
            _, got = jvp(F.shape_branches, (x, w), (t,), wrt=0)
            assert_close(got, numerical_jvp(F.shape_branches, (x, w), 0, t))
            _, got_w = jvp(F.shape_branches, (x, w), (1.0 if np.ndim(w) == 0 else
                                                     np.ones(np.shape(w)),), wrt=1)
            assert_close(got_w, numerical_jvp(F.shape_branches, (x, w), 1,
                                              1.0 if np.ndim(w) == 0 else np.ones(np.shape(w))))


def test_jacfwd_names_itself_when_an_output_is_not_float():
    # the message said "jacrev needs float outputs"
    with pytest.raises(TypeError, match=r"^jacfwd needs float outputs: the output\[1\] is int"):
        jacfwd(F.picks_index)(np.array([1.0, 2.0]))


@pytest.mark.parametrize("wrt", ["scale", 1, "shift", ("x", "scale")])
def test_jvp_with_respect_to_a_default_left_out(wrt):
    # the tangent was None there: "unsupported operand type(s) for *: 'NoneType'"
    r = rng("red32.default", str(wrt))
    x, t = r.normal(size=3), r.normal(size=3)
    names = wrt if isinstance(wrt, tuple) else (wrt,)
    ts = tuple(t if n == "x" else 0.7 for n in names)
    _, got = jvp(F.kw_default, (x,), ts, wrt=wrt)
    want = 0.0
    for n, tn in zip(names, ts):
        if n == "x":
            want = want + numerical_jvp(F.kw_default, (x,), 0, tn)
        elif n == "shift":
            want = want + tn * numerical_jvp(lambda s: F.kw_default(x, shift=s), (0.5,), 0, 1.0)
        else:
            want = want + tn * numerical_jvp(lambda c: F.kw_default(x, c), (2.0,), 0, 1.0)
    assert_close(got, want)


def test_jacfwd_with_respect_to_an_argument_not_passed():
    with pytest.raises(TypeError, match="jacfwd: 'scale' is differentiated but this call "
                                        "does not pass it"):
        jacfwd(F.kw_default, wrt="scale")(np.ones(2))
