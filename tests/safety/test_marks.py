"""The passes find the compiler's own names by the mark `Vocabulary.ref` puts on them
and its tape traffic by the typed statement the lowering marks its nodes with
(`statements.typed_of`); both survive every way the compiler copies nodes, and neither
goes by the name: a user's `pop()` or `tape.append(...)` is not the compiler's."""
import copy

import gast
import pytest

from transform.ir import templates
from transform.ir.nodes import load
from transform.ir import statements as ir
from transform.ir import generated as gen
from transform.ir.lower_gast import out_of_step, to_gast
from transform.ir.recognize import is_call
from transform.ir.vocabulary import Vocabulary, role_of


def _push(tape_name_node, value):
    append = gast.Attribute(value=tape_name_node, attr="append", ctx=gast.Load())
    return gast.Expr(value=gast.Call(func=append, args=[value], keywords=[]))


def _clone_statement(stmt):
    """templates.clone copies expressions: copy the statement's value with it."""
    new = copy.copy(stmt)
    new.value = templates.clone(stmt.value)
    return new


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy, _clone_statement],
                         ids=["copy", "deepcopy", "clone"])
def test_the_mark_survives_copying(copier):
    names = Vocabulary(set())
    pop = gast.Assign(targets=[gast.Name(id="x", ctx=gast.Store(), annotation=None,
                                         type_comment=None)],
                      value=names.call("pop"), type_comment=None)
    [pop] = to_gast(None, [ir.Pop(pop)])
    copied = copier(pop)
    assert type(ir.typed_of(copied)) is ir.Pop and ir.typed_of(copied).target == "x"
    assert ir.typed_of(copied).node is copied and ir.typed_of(pop).node is pop
    push = _push(names.ref("tape"), names.call("shape_only", load("x")))
    [push] = to_gast(None, [ir.Push(push)])
    assert ir.typed_of(copier(push)).value == "x"
    assert role_of(copier(push).value.func.value) == "tape"


def test_user_names_are_not_the_compilers():
    """A Name the user wrote, spelled like the compiler's, carries no mark; a statement
    the lowering did not make is no typed statement."""
    call = gast.Call(func=load("pop"), args=[], keywords=[])
    assert not is_call(call, "pop")
    assert ir.typed_of(_push(load("tape"), load("x"))) is None
    assert not is_call(gast.Call(func=load("unbroadcast"), args=[], keywords=[]), "unbroadcast")


def test_a_taken_name_moves_aside_and_keeps_its_role():
    names = Vocabulary({"tape", "pop", "unbroadcast"}, bound={"tape", "pop", "unbroadcast"})
    ref = names.ref("tape")
    assert ref.id == "tape_1" and role_of(ref) == "tape"
    assert is_call(names.call("pop"), "pop") and names.name("pop") == "pop_1"
    assert names.name("unbroadcast") == "unbroadcast_1"
    assert "unbroadcast_1" in names.bindings


def test_a_global_denoting_the_same_object_is_shared():
    import numpy
    names = Vocabulary({"np"}, resolve={"np": numpy}.get)
    assert names.name("np") == "np" and names.bindings["np"] is numpy
    other = Vocabulary({"np"}, resolve={"np": object()}.get)
    assert other.name("np") == "np_1" and other.bindings["np_1"] is numpy
    local = Vocabulary({"np"}, bound={"np"}, resolve={"np": numpy}.get)
    assert local.name("np") == "np_1"


def test_an_unknown_role_is_a_compiler_error():
    with pytest.raises(KeyError):
        Vocabulary(set()).name("not_a_helper_of_the_runtime")


def test_a_generated_statement_is_marked_and_checked_for_its_shape():
    """The generated classes' lowered nodes carry their statement; a pass changing a
    node's helper or target without re-marking it is out of step, one changing an
    expression inside it is not."""
    names = Vocabulary(set())
    [zeros, reset] = to_gast(None, [gen.ZeroBuffer("dx", "x"), gen.Reset("dy")], names)
    assert type(ir.typed_of(zeros)) is gen.ZeroBuffer and type(ir.typed_of(reset)) is gen.Reset
    assert not out_of_step(zeros, names) and not out_of_step(reset, names)
    zeros.value.args[0] = load("z")                     # an expression: still one
    assert not out_of_step(zeros, names)
    zeros.value.func = names.ref("own")                 # another helper: not any more
    reset.targets[0].id = "dz"
    assert out_of_step(zeros, names) and out_of_step(reset, names)
    ir.mark_typed(zeros, None)
    assert not out_of_step(zeros, names)
