"""The shape rules of literal indices and joins (transform/analysis/index_shapes.py)
against NumPy's own shapes, and the indices they must not claim to know."""
import gast
import numpy as np
import pytest

from transform.analysis.index_shapes import indexing_rule, joining_rule, literal_index
from transform.lowering.normalize import negative_literal


def index_node(text):
    """The gast index node of `x[text]`, a negative literal folded as the normalizer
    folds it (`-1` is the literal -1, not a unary minus)."""
    return FoldNegatives().visit(gast.parse(f"x[{text}]").body[0].value.slice)


class FoldNegatives(gast.NodeTransformer):
    def visit_UnaryOp(self, node):
        number = negative_literal(node)
        return node if number is None else gast.Constant(value=number, kind=None)


@pytest.mark.parametrize("text", ["2:", "1:-1", ":-2", "::2", "-1:", "::-1", "0", "-1",
                                  "1:, 0", "1:3, ::-1", "5:", "-9:", "9", "0, 0, 0",
                                  "1:, None", ":, None, :", "None, :", "None, 0, None"])
@pytest.mark.parametrize("shape", [(8,), (8, 3)])
def test_indexing_shape_is_numpys(text, shape):
    rule = indexing_rule(index_node(text))
    try:
        expected = np.zeros(shape)[eval(f"np.s_[{text}]")].shape
    except IndexError:
        with pytest.raises(IndexError):
            rule(shape)
        return
    assert rule(shape) == expected


@pytest.mark.parametrize("text", ["i", "1:n", "None", "..., 0", "None:", "[0, 1]", "True"])
def test_non_literal_indices_have_no_rule(text):
    assert indexing_rule(index_node(text)) is None
    assert literal_index(index_node(text)) is None


@pytest.mark.parametrize("shapes,axis", [([(1,), (254,), (1,)], 0), ([(2, 3), (2, 1)], 1),
                                         ([(2, 3), (4, 3)], -2), ([(2, 3), (2, 5)], -1)])
def test_concatenate_shape_is_numpys(shapes, axis):
    expected = np.concatenate([np.zeros(s) for s in shapes], axis=axis).shape
    assert joining_rule(axis, False)(*shapes) == expected


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack_shape_is_numpys(axis):
    shapes = [(2, 3)] * 4
    assert joining_rule(axis, True)(*shapes) == np.stack([np.zeros(s) for s in shapes],
                                                         axis=axis).shape


@pytest.mark.parametrize("new_axis,shapes,axis", [
    (False, [(2, 3), (3, 3)], 1), (False, [(2,), (2, 1)], 0), (False, [(2,)], 1),
    (True, [(2, 3), (2, 4)], 0), (True, [(2,), (2,)], 2)])
def test_joins_numpy_refuses_are_refused(new_axis, shapes, axis):
    with pytest.raises(ValueError):
        joining_rule(axis, new_axis)(*shapes)


@pytest.mark.parametrize("call", ["np.sum(x, axis=1)", "np.mean(x, axis=2, keepdims=True)",
                                  "np.max(x, axis=0)", "np.var(x, axis=(0, 2))",
                                  "np.std(x, axis=2, keepdims=False)", "np.prod(x, 1)"])
def test_reduction_shape_is_numpys(call):
    from transform.analysis.index_shapes import reducing_rule
    from transform.ir.primitives import from_rule, rule_for
    node = gast.parse(call).body[0].value
    fn = getattr(np, node.func.attr)
    keywords = {k.arg: k.value for k in node.keywords}
    prim = from_rule(rule_for(fn), [gast.Name(id="x", ctx=gast.Load(), annotation=None,
                                              type_comment=None)] + node.args[1:], keywords,
                     "reduction")
    x = np.zeros((4, 3, 2))
    assert reducing_rule(prim)((4, 3, 2)) == eval(call).shape


def test_reductions_without_a_literal_axis_have_no_rule():
    from transform.analysis.index_shapes import reducing_rule
    from transform.ir.primitives import from_rule, rule_for
    name = gast.Name(id="n", ctx=gast.Load(), annotation=None, type_comment=None)
    assert reducing_rule(from_rule(rule_for(np.sum), [name], {"axis": name}, "r")) is None
    assert reducing_rule(from_rule(rule_for(np.cumsum), [name], {"axis": gast.Constant(
        value=0, kind=None)}, "r")) is None
