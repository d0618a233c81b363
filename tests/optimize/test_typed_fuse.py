"""FusePullback (optimize/typed_fuse.py) and FuseForward (optimize/fuse.py): the folds on
the typed sweeps, before they are lowered: a single-use temporary's value goes into the
operand that reads it (an accumulation's value, a callee pullback's cotangent, a user
statement's value, a callee's rrule call's arguments), `d = e1; d = d + e2` is joined,
and a temporary read twice, or past a statement that rebinds what it reads, stays."""
import gast

from transform.ir import generated as gen
from transform.ir.comments import unparse
from transform.ir.lower_gast import to_gast
from transform.ir.nodes import const, load
from transform.ir.statements import Accumulate, Emitted, Simple
from transform.ir.vocabulary import Vocabulary
from transform.optimize.fuse import fuse_forward
from transform.optimize.typed_fuse import fuse_pullback


def _times(name, k):
    return gast.BinOp(left=load(name), op=gast.Mult(), right=const(k))


def _source(body):
    return "\n".join(unparse(n).strip() for n in to_gast(None, body, Vocabulary(set())))


def _fused(body, temporaries):
    rewritten = fuse_pullback(body, [], frozenset(temporaries), frozenset({"dx", "dt2"}),
                              frozenset({"g"}), frozenset())
    return _source(body), rewritten


def test_a_temporary_folds_into_the_cotangent_and_the_join():
    body = [Accumulate("dt2", _times("g", 2), "set"),
            gen.CallPullback("t1_cots", "t1_pb", "dt2"),
            Accumulate("dx", _times("g", 3), "set"),
            Accumulate("dx", _times("g", 4), "sum")]
    source, rewritten = _fused(body, {"dt2"})
    assert source == "t1_cots = t1_pb(g * 2)\ndx = g * 3 + g * 4"
    assert len(rewritten) == 2


def test_a_temporary_read_twice_or_rebound_between_stays():
    twice = [Accumulate("dt2", _times("g", 2), "set"),
             Accumulate("dx", gast.BinOp(left=load("dt2"), op=gast.Add(), right=load("dt2")),
                        "set")]
    assert _fused(twice, {"dt2"})[0] == "dt2 = g * 2\ndx = dt2 + dt2"
    rebound = [Accumulate("dt2", _times("g", 2), "set"),
               Accumulate("g", const(1.0), "in_place"),
               Accumulate("dx", load("dt2"), "set")]
    assert _fused(rebound, {"dt2"})[0] == "dt2 = g * 2\ng += 1.0\ndx = dt2"


def _user(text):
    """A user's statement in the typed forward sweep (it keeps its node)."""
    return Simple(gast.parse(text).body[0], None)


def test_the_forward_sweep_folds_into_copies_of_quoted_nodes_and_rrule_arguments():
    quoted = _user("y = t1 + t2")
    args = [load("t3")]
    forward = [_user("t1 = x * 2"), _user("t2 = x * 3"), quoted, _user("t3 = y * 4"),
               gen.RruleCall("t4", "t4_pb", "sq_rrule", args, [], None, None),
               _user("a = x * 5"), _user("a = a + t4")]
    rewritten = fuse_forward(forward, [], frozenset({"t1", "t2", "t3"}), frozenset(),
                             frozenset(), commented=frozenset({id(quoted.node)}))
    assert _source(forward) == "y = x * 2 + x * 3\nt4, t4_pb = sq_rrule(y * 4)\n" \
        "a = x * 5 + t4"
    assert unparse(quoted.node).strip() == "y = t1 + t2"        # the comment's node kept
    assert gast.unparse(args[0]).strip() == "y * 4"              # folded in the shared list
    assert isinstance(forward[-1], Emitted) and len(rewritten) == 3
