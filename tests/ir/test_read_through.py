"""Reverse mode's generated statements (ir/generated.py) read their fields through to
the node they are lowered to, as `Push`, `Pop` and `Accumulate` do: every field reads
back what it was built with, a pass rewriting the lowered node is seen, and `built`
still answers as built (what the pass manager's checked run compares)."""
import gast
import pytest

from transform.ir import generated as gen
from transform.ir.generated import Through
from transform.ir.comments import unparse
from transform.ir.lower_gast import GastLowering, lowered, out_of_step
from transform.ir.nodes import const, load
from transform.ir.statements import typed_of
from transform.ir.typed_names import mentioned, reads
from transform.optimize import typed_views
from transform.ir.vocabulary import Vocabulary


def _index():
    return gast.Slice(lower=const(1), upper=const(3), step=None)


CASES = [
    lambda: gen.Reset("da", "db"),
    lambda: gen.ZeroBuffer("db", "b"),
    lambda: gen.Unthunk("dt"),
    lambda: gen.Own("dt"),
    lambda: gen.Spread("dx", load("dx"), "x", _index(), load("g")),
    lambda: gen.Spread("dx", load("dx"), "x", _index(), load("g"), helper="accumulate_slice"),
    lambda: gen.SliceAdd("du", _index(), load("g")),
    lambda: gen.SliceAdd("du", _index(), load("g"), fresh=True),
    lambda: gen.SplitStore("p", "db", _index(), owned=True),
    lambda: gen.SplitStore("p", "db", _index(), written_out=True),
    lambda: gen.PopEntries(load("xs")),
    lambda: gen.PopEntries(load("xs"), load("v")),
    lambda: gen.ShortenList("xs"),
    lambda: gen.ShortenList("xs", load("v")),
    lambda: gen.CopyList("xs"),
    lambda: gen.ListCotangent("dxs", "xs"),
    lambda: gen.RruleCall("t", "t_pb", "g_rrule", [load("a")], [], None, 3),
    lambda: gen.CallPullback("t_cots", "t_pb", "dt"),
    lambda: gen.CopyBeforeStore("x"),
    lambda: gen.Unview("x"),
    lambda: gen.Bind("dt", load("g")),
    lambda: gen.Scale("db", "ds"),
    lambda: gen.ReuseBuffer("du", "u"),
    lambda: gen.ProductSum("dW_products", "W"),
    lambda: gen.AddProduct("dW_products", "add", [load("g"), load("x")]),
    # operand fields holding an expression (a typed Fuse folds into them, docs/ir.md)
    lambda: gen.CallPullback("t_cots", "t_pb", _unbroadcast()),
    lambda: gen.ZeroBuffer("db", _unbroadcast()),
    lambda: gen.Scale("db", _unbroadcast()),
]


def _unbroadcast():
    return gast.Call(func=load("unbroadcast"), args=[load("dt"), load("t"), const(1)],
                     keywords=[])


def _same(a, b):
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, gast.AST):
        return isinstance(b, gast.AST) and gast.dump(a) == gast.dump(b)
    return a == b


def _through(s):
    return [k for cls in type(s).__mro__ for k, v in vars(cls).items()
            if isinstance(v, Through)]


@pytest.mark.parametrize("make", CASES, ids=lambda make: repr(make()))
def test_every_field_reads_back_what_it_was_built_with(make):
    s = make()
    fields = {k: getattr(s, k) for k in _through(s)}
    node = GastLowering(None, Vocabulary(set())).statement(s)[0]     # (the first is marked)
    assert typed_of(node) is s and s.node is node
    for k in fields:
        setattr(s, k, "stale")                  # read off the node, not as built
    for k, built in fields.items():
        assert _same(getattr(s, k), built), k
    for k, built in fields.items():
        setattr(s, k, built)
    assert not out_of_step(node, Vocabulary(set()))


def test_a_rewritten_node_is_seen_and_built_is_kept():
    s = gen.SliceAdd("du", _index(), load("g"))
    node = lowered(s)
    node.value = load("h")                      # a pass folding into the value
    assert s.value.id == "h" and s.built("value").id == "g"
    s = gen.ZeroBuffer("db", "b")
    node = lowered(s, Vocabulary(set()))
    node.value.args[0] = load("c")              # PropagateCopies renaming the primal
    assert s.like == "c" and s.built("like") == "b"
    node.targets[0] = gast.Name(id="dc", ctx=gast.Store(), annotation=None,
                                type_comment=None)
    assert out_of_step(node, Vocabulary(set()))     # its target is no longer the built one


def test_an_operand_expression_lowers_as_given_and_is_counted():
    s = gen.CallPullback("t_cots", "t_pb", _unbroadcast())
    assert mentioned(s) == {"t_cots", "t_pb", "dt", "t", "unbroadcast"}
    assert reads(s) == {"t_pb", "dt", "t", "unbroadcast"}
    assert typed_views.count(s, {}) == {"t_cots": 1, "t_pb": 1, "unbroadcast": 1, "dt": 1,
                                        "t": 1}
    node = lowered(s, Vocabulary(set()))
    assert unparse(node).strip() == \
        "t_cots = t_pb(unbroadcast(dt, t, 1))"
