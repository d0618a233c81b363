"""Each refused case of tests/corpus/slot_alias.py is refused at its augmented
assignment (file:line:col of the `op=` statement) with an Instead: line, before running."""
import ast
import inspect
import textwrap

import numpy as np
import pytest

from transform import TransformError, grad

from . import slot_alias
from .case import all_cases

REFUSED = [c for c in all_cases() if c.name.startswith("slot_alias.") and c.refused]


def _augmented_location(fn):
    """file:line:col of the function's last augmented assignment."""
    lines, first = inspect.getsourcelines(fn)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    last = [n for n in ast.walk(tree) if isinstance(n, ast.AugAssign)][-1]
    indent = len(lines[0]) - len(lines[0].lstrip())
    return f"{inspect.getsourcefile(fn)}:{first + last.lineno - 1}:{last.col_offset + indent + 1}"


def test_every_refusal_is_listed():
    assert len(REFUSED) >= 14


@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c.name)
def test_refused_at_the_augmented_assignment(case):
    with pytest.raises(TransformError) as info:
        grad(case.fn)(*case.inputs())
    message = str(info.value)
    assert message.startswith(_augmented_location(case.fn) + ":"), message
    assert "Instead:" in message


def test_the_slot_hint_rebinds_the_slot():
    with pytest.raises(TransformError, match=r"Instead: assign a new value: "
                       r"`xs\[0\] = xs\[0\] \* 2\.0`"):
        grad(slot_alias.two_slots_of_one_array)(np.ones(3))


def test_the_popped_hint_rebinds_the_name():
    with pytest.raises(TransformError, match=r"Instead: assign a new value: `a = a \* 2\.0`"):
        grad(slot_alias.list_popped_then_scaled)(np.ones(3))
