"""The optimiser's typed phase (TYPED_PASSES: optimize_typed, on the pullback's typed
body before it is lowered): the names a typed statement mentions, binds and reads
(ir/typed_names.py) are its lowered gast's, helper names aside, and the reset passes
drop resets off typed statements as they did off the gast."""
import copy

import gast
import pytest

from tests.ir.test_read_through import CASES
from transform.ir import generated as gen
from transform.ir import statements as ir
from transform.ir.lower_gast import GastLowering, to_gast
from transform.ir.nodes import load
from transform.ir.typed_names import bound, mentioned, overwrites, reads
from transform.ir.vocabulary import Vocabulary
from transform.optimize.optimize import PASSES, TYPED_PASSES, optimize_typed
from transform.optimize.release import ReleaseTemporaries

MORE = [lambda mode=mode: ir.Accumulate("dx", load("g"), mode) for mode in
        ("set", "own", "in_place", "sum", "accum")] + [
    lambda: ir.Accumulate("dx", load("dx"), "set"),
    lambda: gen.Reset("dx"), lambda: gen.Bind("dx", load("dx"))]


def _value_names(node):
    """The names below a lowered node, the compiler's helpers (marked) left out."""
    return {n.id for n in gast.walk(node) if isinstance(n, gast.Name)
            and getattr(n, "role", None) is None}


def _gast_overwrites(node, name):
    """optimize/resets.py's gast test before the typed phase: `name = <not name>`."""
    return isinstance(node, gast.Assign) and len(node.targets) == 1 \
        and isinstance(node.targets[0], gast.Name) and node.targets[0].id == name \
        and name not in _value_names(node.value)


@pytest.mark.parametrize("make", CASES + MORE, ids=lambda make: repr(make()))
def test_typed_names_are_the_lowered_names(make):
    s = make()
    nodes = GastLowering(None, Vocabulary(set())).statement(copy.deepcopy(s))
    lowered = set().union(*(_value_names(n) for n in nodes))
    assert mentioned(s) == lowered
    for name in lowered:
        assert overwrites(s, name) == _gast_overwrites(nodes[0], name), name
    if bound(s) is not None:
        assert reads(s) == _value_names(nodes[0].value)


def _loop(body):
    return gen.typed_for(gast.Name(id="i", ctx=gast.Store(), annotation=None,
                                   type_comment=None), load("steps1"), body)


def test_the_resets_go_off_the_typed_body():
    loop = _loop([gen.Reset("dx"), ir.Accumulate("dx", load("g"), "set"),
                  gen.Reset("dy"), ir.Accumulate("dz", load("dy"), "in_place")])
    ret = ir.Return(gast.Return(value=gast.Tuple(elts=[load("dz")], ctx=gast.Load())))
    body = [gen.Reset("dz"), loop, gen.Reset("dx"), gen.Reset("dw"), ret]
    optimize_typed(body, params=frozenset({"g"}),
                   adjoints=frozenset({"dx", "dy", "dz", "dw"}), check=True)
    # dx is overwritten next; dy is read after its reset; the dead top-level ones go,
    # dz's stays (the loop reads it)
    assert [type(s).__name__ for s in loop.body] == ["Accumulate", "Reset", "Accumulate"]
    assert [type(s).__name__ for s in body] == ["Reset", "For", "Return"]
    module = gast.Module(body=to_gast(None, body, Vocabulary(set())), type_ignores=[])
    source = gast.unparse(gast.fix_missing_locations(module))
    assert "dx = None" not in source and "dw = None" not in source


def test_every_optimiser_pass_is_typed():
    """No pass rewrites gast after lowering (session 40: SpreadViews was the last);
    the lowering's finish is not the optimiser's."""
    assert PASSES == TYPED_PASSES and all(p.phase == "typed" for p in TYPED_PASSES)
    with pytest.raises(AssertionError, match="a pass that is not typed"):
        optimize_typed([], passes=[TYPED_PASSES[0], ReleaseTemporaries()])



