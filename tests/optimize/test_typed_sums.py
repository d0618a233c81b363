"""WriteOutUnbroadcasts on the typed pullback body (session 39): an `unbroadcast(g, x)`
of known shapes in a typed statement's operand is written out as the sum it does, but
the value of an `Accumulate` "accumulate_unbroadcast", which the lowering takes apart
(`d = accumulate_unbroadcast(d, c, x)` from `unbroadcast(c, x)`'s arguments), keeps its
root: written out, the lowering would read the `.sum()` call's empty argument list."""
from transform.emit.render import unparse_each
from transform.ir import statements as ir
from transform.ir.lower_gast import to_gast
from transform.ir.nodes import load
from transform.ir.vocabulary import Vocabulary
from transform.optimize.passes import TypedFacts, run_passes
from transform.optimize.written_sums import WriteOutUnbroadcasts

SHAPES = {"x": (1, 3), "t": (1, 3), "g": (4, 3), "c": (4, 3)}


def _lowered(mode):
    names = Vocabulary(set())
    value = names.call("unbroadcast", load("g" if mode == "set" else "c"), load("x"))
    body = [ir.Accumulate("dx", value, mode)]
    facts = TypedFacts(body, names=names, shape_of=SHAPES.get, primal_of={"dx": "x"},
                       real_arguments=True)
    run_passes([WriteOutUnbroadcasts()], facts, check=True)
    return "\n".join(unparse_each(to_gast(None, body, names)))


def test_a_set_value_is_written_out_at_its_root():
    assert _lowered("set") == "dx = g.sum(axis=0, keepdims=True)"


def test_an_accumulate_unbroadcast_keeps_its_call():
    assert _lowered("accumulate_unbroadcast") == "dx = accumulate_unbroadcast(dx, c, x)"
