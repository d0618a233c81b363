"""A printing generator walked by a loop or comprehension that prints only indirectly:
the generated code prints in Python's order, or refuses before running
(tests/corpus/printing_generators.py)."""
import pytest

from tests.gradcheck import POLICIES
from transform import TransformError, value_and_grad

from . import printing_generators as programs


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", programs.PROGRAMS, ids=lambda f: f.__name__)
def test_lines_come_in_pythons_order_or_refused(fn, policy, capsys):
    fn(programs.X.copy())
    expected = capsys.readouterr().out
    try:
        value_and_grad(fn, policy=policy)(programs.X.copy())
    except TransformError as error:
        assert "Instead:" in str(error)
        assert capsys.readouterr().out == ""       # refused before anything ran
        return
    assert capsys.readouterr().out == expected


def test_a_comprehension_over_a_printing_generator_is_refused():
    with pytest.raises(TransformError, match="comprehension reading it both print"):
        value_and_grad(programs.sum_of_a_generator_expression)(programs.X.copy())


@pytest.mark.parametrize("fn", [f for f in programs.PROGRAMS
                                if f is not programs.sum_of_a_generator_expression],
                         ids=lambda f: f.__name__)
def test_loops_are_inlined_not_refused(fn):
    value_and_grad(fn)(programs.X.copy())
