"""PropagateCopies on the typed sweeps (optimize/copies.py, a pass of the typed phase):
a copy into a temporary goes where its reads follow in reach, in both sweeps, and stays
where the lowered rrule would mention the temporary elsewhere (the pullback's snapshot,
the other sweep) or a lambda reads it late."""
import gast

from transform.ir import generated as gen
from transform.ir import statements as ir
from transform.ir.lower_gast import to_gast
from transform.ir.nodes import assign, load
from transform.ir.vocabulary import Vocabulary
from transform.optimize.copies import propagate_copies


def _source(body):
    module = gast.Module(body=to_gast(None, body, Vocabulary(set())), type_ignores=[])
    return gast.unparse(gast.fix_missing_locations(module)).strip().splitlines()


def _times(a, b):
    return gast.BinOp(left=load(a), op=gast.Mult(), right=load(b))


def _return(name):
    return ir.Return(gast.Return(value=load(name)))


def test_an_adjoint_copy_goes():
    backward = [ir.Accumulate("dt2", load("dt3"), "set"),
                ir.Accumulate("dx", _times("dt2", "x"), "set"),
                ir.Accumulate("dx", _times("dt2", "x"), "sum"), _return("dx")]
    propagate_copies([], backward, {"dt2"}, adjoints={"dt2", "dx"}, params={"dt3"})
    assert _source(backward) == ["dx = dt3 * x", "dx = dx + dt3 * x", "return dx"]


def test_a_forward_copy_goes_unless_the_pullback_reads_it():
    for read_back, kept in ((False, False), (True, True)):
        forward = [ir.Copy(assign("t2", load("x")), None),
                   ir.NonDiff(assign("t3", _times("t2", "x")), None), _return("t3")]
        backward = [ir.Accumulate("dx", _times("dt3", "t2" if read_back else "x"), "set")]
        propagate_copies(forward, backward, {"t2", "t3"}, adjoints={"dx"}, params={"dt3"})
        assert ("t2 = x" in _source(forward)) is kept


def test_a_name_the_pullback_rebinds_stays():
    """`t2 = t1` bound in the pullback is in its snapshot (`t2=t2`): left alone."""
    backward = [gen.Bind("t2", load("t1")), ir.Accumulate("dx", _times("dt3", "t2"), "set")]
    propagate_copies([], backward, {"t2"}, adjoints={"dx"}, params={"dt3"})
    assert _source(backward)[0] == "t2 = t1"


def test_a_lambda_reading_the_copy_late_keeps_it():
    late = gast.Lambda(args=gast.arguments(args=[], posonlyargs=[], vararg=None,
                                           kwonlyargs=[], kw_defaults=[], kwarg=None,
                                           defaults=[]), body=load("dt2"))
    backward = [ir.Accumulate("dt2", load("dt3"), "set"),
                ir.Accumulate("dx", late, "set"), _return("dx")]
    propagate_copies([], backward, {"dt2"}, adjoints={"dt2", "dx"}, params={"dt3"})
    assert _source(backward)[0] == "dt2 = dt3"
