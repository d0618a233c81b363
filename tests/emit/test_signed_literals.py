"""Generated source is compiled from its text, so a negative literal must read back as
the same expression: `(-2.0) ** 2`, never `-2.0 ** 2` (transform/ir/signed_literals.py).
Also user code with negated bases and exponents, differentiated and checked against
differences, in both modes."""
import gast
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import adjoint_source, grad, jvp
from transform.emit.render import render_rule


def _function(value):
    ret = gast.Return(value=value)
    args = gast.arguments(args=[gast.Name(id="x", ctx=gast.Param(), annotation=None,
                                          type_comment=None)],
                          posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                          kwarg=None, defaults=[])
    return gast.FunctionDef(name="f", args=args, body=[ret], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])


def _lit(v):
    return gast.Constant(value=v, kind=None)


@pytest.mark.parametrize("base", [-2.0, -3, -0.0, -np.inf])
def test_a_negative_literal_base_of_a_power_keeps_its_meaning(base):
    x = gast.Name(id="x", ctx=gast.Load(), annotation=None, type_comment=None)
    text = render_rule(_function(gast.BinOp(left=_lit(base), op=gast.Pow(), right=x)), [])
    env = {}
    exec(text, env)
    assert repr(env["f"](2)) == repr(base ** 2)


def test_a_negative_literal_owner_of_an_attribute_keeps_its_meaning():
    node = gast.Attribute(value=_lit(-2), attr="real", ctx=gast.Load())
    env = {}
    exec(render_rule(_function(node), []), env)
    assert env["f"](0) == -2


def negated(w):
    x = w[0]
    return (-x) ** 2 + -x ** 2 + (-w) ** 3 @ w + (-2.0) ** 2 * x + 2 ** -x + (-x) ** -2 \
        + np.sum(w ** 2 * -1.5) + (-w[1]) ** 3 + (-1.5) ** 3 * x


W = np.array([0.3, -1.2, 2.0])


def test_negated_bases_and_exponents_differentiate():
    assert_close(grad(negated, wrt=0)(W), numerical_grad(negated, (W,), 0))
    v = np.array([0.5, -1.0, 0.25])
    assert_close(jvp(negated, (W,), (v,))[1], numerical_jvp(negated, (W,), 0, v))
    compile(adjoint_source(negated, wrt="w"), "<dump>", "exec")
