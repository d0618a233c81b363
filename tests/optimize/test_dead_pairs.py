"""DropDeadSaves drops a dead push/pop pair by its `pair_id` (the pop's target is never
read: the push with its id goes too), on an rrule written by hand and marked as the
lowering marks the compiler's (`Push`, `Pop`, `TapeStart`, `TapeReader`); a pair
without ids falls back to the name."""
import gast

from transform.ir.generated import TapeReader, TapeStart
from transform.ir.statements import Pop, Push, mark_typed
from transform.optimize.dead_saves import drop_dead_saves

RRULE = """\
def f_rrule(x):
    tape = []
    tape.append(t1)
    tape.append(t2)
    tape.append(t3)
    def pullback(g):
        pop = tape_reader(tape)
        t3 = pop()
        t2 = pop()
        t1 = pop()
        return (g * t1 * READ,)
    return (x, pullback)
"""


def _marked(read, ids, pop_ids=None):
    """The rrule with `READ` read back, its tape traffic marked (`ids[name]`; the
    pops' `pop_ids[name]` if given)."""
    pop_ids = ids if pop_ids is None else pop_ids
    rrule = gast.parse(RRULE.replace("READ", read)).body[0]
    for s in gast.walk(rrule):
        if isinstance(s, gast.Expr) and isinstance(s.value, gast.Call):
            mark_typed(s, Push(s, None, ids[s.value.args[0].id]))
        elif isinstance(s, gast.Assign) and isinstance(s.value, gast.List):
            mark_typed(s, TapeStart())
        elif isinstance(s, gast.Assign) and s.value.func.id == "tape_reader":
            mark_typed(s, TapeReader(None))
        elif isinstance(s, gast.Assign) and s.value.func.id == "pop":
            mark_typed(s, Pop(s, pop_ids[s.targets[0].id]))
    return rrule


def _dropped(read, ids, pop_ids=None):
    rrule = _marked(read, ids, pop_ids)
    drop_dead_saves(rrule, rrule.body[4])
    return gast.unparse(rrule)


IDS = {"t1": 1, "t2": 2, "t3": 3}


def test_the_dead_pairs_go_by_id_and_the_rest_stays():
    out = _dropped("t3", IDS)
    assert "t2" not in out
    for kept in ("tape.append(t1)", "tape.append(t3)", "t1 = pop()", "t3 = pop()",
                 "tape = []", "tape_reader(tape)"):
        assert kept in out


def test_without_ids_the_pairs_go_by_name_the_same():
    assert _dropped("t3", dict.fromkeys(IDS)) == _dropped("t3", IDS)


def test_a_pop_goes_with_the_push_of_its_id_not_of_its_name():
    # the pop into t2 shares its id with the push of t3 (and the pop into t3 with the
    # push of t2): the pair is the id's, whatever the names
    out = _dropped("t3", IDS, {"t1": 1, "t2": 3, "t3": 2})
    assert "tape.append(t2)" in out and "tape.append(t3)" not in out
    assert "t2 = pop()" not in out and "t3 = pop()" in out


def test_no_live_pair_left_drops_the_tape_setup():
    rrule = _marked("1.0", IDS)
    for s in rrule.body[4].body:                      # nothing reads t1 either
        if isinstance(s, gast.Return):
            s.value = gast.parse("(g,)").body[0].value
    drop_dead_saves(rrule, rrule.body[4])
    out = gast.unparse(rrule)
    assert "tape" not in out and "pop" not in out
