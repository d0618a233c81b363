"""The typed form (transform/ir/statements.py): the kinds built for a small function,
its lowering back to the same gast, a statement of an unknown kind refused at the
user's line (never skipped), and both modes, which walk it, against differences."""
import gast
import numpy as np
import pytest

from transform import TransformError, grad, jvp, pipeline
from transform.compilation import Compilation
from transform.ir import statements as ir
from transform.ir.lower_gast import to_gast
from transform.ir.typed import typed_form


def small(x, y):
    z = np.sin(x) * y
    acc = []
    for i in range(3):
        z = z + x[i]
        acc.append(z)
    if z[0] > 0:
        z = -z
    return z


def _lowered(fn):
    ctx = Compilation(fn, ("x",), "loop", False, True, None, forward=True)
    pipeline._front_end(ctx)
    ctx.rrule_name = ctx.names.reserve(ctx.src.name + "_jvp")
    return ctx, pipeline._lower(ctx)


def _kinds(stmts):
    return [type(s).__name__ for s in stmts]


def _loop(typed):
    return next(s for s in typed if isinstance(s, ir.For))


def test_kinds_of_a_small_function():
    ctx, body = _lowered(small)
    typed = typed_form(ctx.src, body)
    kinds = _kinds(typed)
    assert kinds[:2] == ["RuleCall", "RuleCall"]                  # t = np.sin(x); z = t * y
    assert "Pack" in kinds and kinds[-1] == "Return"              # acc = []
    assert {"For", "If"} <= set(kinds)
    loop = _loop(typed)
    assert {"RuleCall", "Append"} <= set(_kinds(loop.body))       # x[i], z + t, append
    sine = typed[0]
    assert sine.rule.fn is np.sin and sine.inputs["x"].id == "x"
    assert sine.site.lineno == 2 and sine.target == sine.node.targets[0].id
    append = next(s for s in loop.body if isinstance(s, ir.Append))
    assert append.method == "append" and append.acc.id == "acc"


def test_lowering_gives_back_the_same_statements():
    ctx, body = _lowered(small)
    before = [gast.dump(s) for s in body]
    after = to_gast(ctx.src, typed_form(ctx.src, body))
    assert [gast.dump(s) for s in after] == before
    assert all(a is b for a, b in zip(after, body))


def test_a_statement_without_a_prim_is_refused_at_its_line():
    ctx, body = _lowered(small)
    first = body[0]
    first.prim = None                                 # lowering's tag lost: not typed
    with pytest.raises(TransformError) as info:
        typed_form(ctx.src, body)
    assert "without a Prim" in str(info.value)
    assert info.value.line == small.__code__.co_firstlineno + 1


def test_an_unknown_statement_class_is_refused():
    ctx, body = _lowered(small)
    with_node = gast.With(items=[], body=[gast.Pass()], type_comment=None)
    gast.copy_location(with_node, body[0])
    with pytest.raises(TransformError, match="`With` statement without a Prim"):
        typed_form(ctx.src, [with_node])


def test_the_lowering_refuses_a_kind_it_does_not_know():
    class Unknown(ir.Statement):
        pass
    ctx, body = _lowered(small)
    with pytest.raises(TransformError, match="typed `Unknown` statement"):
        to_gast(ctx.src, [Unknown(body[0])])


def test_forward_mode_runs_on_the_typed_form():
    x, y = np.array([0.3, -0.2, 0.5]), 1.5
    t = np.array([1.0, 0.0, -2.0])
    _, got = jvp(small, (x, y), (t,), wrt=0)
    eps = 1e-6
    want = (small(x + eps * t, y) - small(x - eps * t, y)) / (2 * eps)
    assert np.allclose(got, want, rtol=1e-6, atol=1e-8)


def small_total(x, y):
    return np.sum(small(x, y) * x)


def test_reverse_mode_runs_on_the_typed_form():
    x, y = np.array([0.3, -0.2, 0.5]), 1.5
    got = grad(small_total)(x, y)
    eps = 1e-6
    want = [(small_total(x + eps * e, y) - small_total(x - eps * e, y)) / (2 * eps)
            for e in np.eye(3)]
    assert np.allclose(got, want, rtol=1e-6, atol=1e-8)
