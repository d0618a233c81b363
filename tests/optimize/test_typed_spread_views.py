"""SpreadViews on the typed pullback (optimize/spread_views.py, the typed phase's last
pass) and the analysis it needs, `lowered_reads` (optimize/lowered_reads.py): every read
of a name with its parents as the gast lowering will place it, the lowering's own
wrappers (`d = d + v`, `d = accum(d, v)`, a generated statement's name fields) included,
and a replaced operand put back into its typed statement."""
import gast

from transform.ir import generated as gen
from transform.ir import statements as ir
from transform.ir.lower_gast import to_gast
from transform.ir.nodes import const, load
from transform.ir.vocabulary import Vocabulary
from transform.optimize.lowered_reads import LoweredReads
from transform.optimize.passes import TypedFacts, run_passes
from transform.optimize.spread_views import SpreadViews

SHAPES = {"x": (4, 3), "y": (4, 3), "g": (3,), "w": (4, 3)}
PRIMAL = {"dx": "x", "dy": "y", "dz": "x"}


def _spread(names, g="g", x="x"):
    return names.call("unreduce", load(g), load(x), const(0), const(False))


def _times(a, b):
    return gast.BinOp(left=load(a), op=gast.Mult(), right=load(b))


def _source(body, names):
    module = gast.Module(body=to_gast(None, body, names), type_ignores=[])
    return gast.unparse(gast.fix_missing_locations(module)).strip().splitlines()


def _views(body, names):
    facts = TypedFacts(body, params=frozenset({"g"}), adjoints=frozenset(PRIMAL),
                       names=names, shape_of=SHAPES.get, primal_of=PRIMAL)
    run_passes([SpreadViews()], facts, check=True)
    return _source(body, names)


def _return(name):
    return ir.Return(gast.Return(value=load(name)))


def test_a_read_under_the_lowerings_own_sum_is_judged_there():
    """`dz = dz + dx` reads dx under the `+` the lowering builds (4x3 either way): the
    spread becomes a view, in the typed statement's value."""
    names = Vocabulary(set())
    body = [ir.Accumulate("dx", _spread(names), "set"),
            ir.Accumulate("dz", _times("y", "w"), "set"),
            ir.Accumulate("dz", load("dx"), "sum"), _return("dz")]
    lines = _views(body, names)
    assert lines[0] == "dx = g[None, :]" and lines[2] == "dz = dz + dx"


def test_a_read_by_the_lowerings_helper_keeps_the_spread():
    """`dz = accum(dz, dx)`: dx is a helper's argument (no node reads it in the typed
    statement, the lowering does): the spread stays."""
    names = Vocabulary(set())
    body = [ir.Accumulate("dx", _spread(names), "set"),
            ir.Accumulate("dz", _times("y", "w"), "set"),
            ir.Accumulate("dz", load("dx"), "accum"), _return("dz")]
    assert _views(body, names)[0] == "dx = unreduce(g, x, 0, False)"


def test_a_generated_statements_name_field_is_a_read():
    """`dy = cotangent_zeros(dx)` reads dx through a name field (a string): not
    arithmetic, the spread stays; without that read dx * w would take the view."""
    names = Vocabulary(set())
    product = ir.Accumulate("dz", _times("dx", "w"), "set")
    for zeros, kept in ((True, True), (False, False)):
        body = [ir.Accumulate("dx", _spread(names), "set"), product] + \
            ([gen.ZeroBuffer("dy", "dx")] if zeros else []) + [_return("dz")]
        line = _views(body, names)[0]
        assert (line == "dx = unreduce(g, x, 0, False)") is kept, line
        product = ir.Accumulate("dz", _times("dx", "w"), "set")


def test_an_inline_spread_under_the_sum_goes_into_the_value():
    """`dz = dz + unreduce(...)` (an `Accumulate` "sum" of the spread itself): the view
    replaces the statement's whole value, its root in the model the lowering's `+`."""
    names = Vocabulary(set())
    body = [ir.Accumulate("dz", _times("y", "w"), "set"),
            ir.Accumulate("dz", _spread(names), "sum"), _return("dz")]
    assert _views(body, names)[1] == "dz = dz + g[None, :]"
    assert gast.unparse(body[1].value).strip() == "g[None, :]"


def test_the_model_leaves_the_statements_unlowered_and_models_the_snapshot():
    names = Vocabulary(set())
    zero = gen.ZeroBuffer("dy", "x")
    body = [gen.Bind("t1", _times("x", "w")), zero,
            ir.Accumulate("dx", load("t1"), "sum"), _return("dx")]
    model = LoweredReads(body, params={"g"}, adjoints={"dx", "dy"}, names=names)
    assert zero.node is None and body[2].node is None
    args = model.root.args
    assert [a.id for a in args.args] == ["g"] and [a.id for a in args.kwonlyargs] == ["t1"]
    [x_read] = [r for r in model.reads("x") if model.parents[id(r)] is not body[0].value]
    assert type(model.parents[id(x_read)]) is gast.Call      # cotangent_zeros(x)
    assert not model.writable(x_read)                      # a name field: no node to put
    sum_read, returned = model.reads("dx")                 # dx = dx + t1; return dx
    assert {type(model.parents[id(r)]) for r in (sum_read, returned)} == \
        {gast.BinOp, gast.Return}
    assert model.writable(body[2].value) and model.writable(body[0].value.left)
