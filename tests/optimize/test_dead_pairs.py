"""DropDeadSaves drops a dead push/pop pair by its `pair_id` (the pop's target is never
read: the push with its id goes too), on typed sweeps built by hand as reverse mode
builds them (`Push`, `Pop`, `TapeReader`); a pair without ids falls back to the name.
With no pop left the tape reader goes, and with no push left the tape (it answers
whether the forward sweep still uses one)."""
import gast

from transform.ir.generated import TapeReader
from transform.ir.statements import NonDiff, Pop, Push, Return
from transform.optimize.dead_saves import drop_dead_saves

NAMES = ("t1", "t2", "t3")


def _node(src):
    return gast.parse(src).body[0]


def _sweeps(read, ids, pop_ids=None):
    """(forward, backward): three pushes, and a pullback popping them back and returning
    `g * t1 * READ` (`ids[name]` the pushes' pair ids; the pops' `pop_ids[name]`)."""
    pop_ids = ids if pop_ids is None else pop_ids
    forward = [Push(_node(f"tape.append({n})"), None, ids[n]) for n in NAMES]
    backward = [TapeReader(None)] + \
        [Pop(_node(f"{n} = pop()"), pop_ids[n]) for n in reversed(NAMES)] + \
        [Return(_node(f"return (g * t1 * {read},)"))]
    return forward, backward


def _text(block):
    return [gast.unparse(s.node).strip() if s.node is not None else type(s).__name__
            for s in block]


def _dropped(read, ids, pop_ids=None):
    forward, backward = _sweeps(read, ids, pop_ids)
    used = drop_dead_saves(forward, backward)
    return _text(forward), _text(backward), used


IDS = {"t1": 1, "t2": 2, "t3": 3}


def test_the_dead_pairs_go_by_id_and_the_rest_stays():
    forward, backward, used = _dropped("t3", IDS)
    assert forward == ["tape.append(t1)", "tape.append(t3)"]
    assert backward[:3] == ["TapeReader", "t3 = pop()", "t1 = pop()"] and used


def test_without_ids_the_pairs_go_by_name_the_same():
    assert _dropped("t3", dict.fromkeys(IDS)) == _dropped("t3", IDS)


def test_a_pop_goes_with_the_push_of_its_id_not_of_its_name():
    # the pop into t2 shares its id with the push of t3 (and the pop into t3 with the
    # push of t2): the pair is the id's, whatever the names
    forward, backward, _ = _dropped("t3", IDS, {"t1": 1, "t2": 3, "t3": 2})
    assert "tape.append(t2)" in forward and "tape.append(t3)" not in forward
    assert "t2 = pop()" not in backward and "t3 = pop()" in backward


def test_a_name_read_in_a_statement_keeps_its_save():
    forward, backward = _sweeps("1.0", IDS)
    backward.insert(-1, NonDiff(_node("u = t2 + 1"), None))
    drop_dead_saves(forward, backward)
    assert _text(forward) == ["tape.append(t1)", "tape.append(t2)"]


def test_no_live_pair_left_drops_the_tape_reader_and_the_tape():
    forward, backward = _sweeps("1.0", IDS)
    backward[-1] = Return(_node("return (g,)"))           # nothing reads t1 either
    used = drop_dead_saves(forward, backward)
    assert forward == [] and _text(backward) == ["return (g,)"] and not used
