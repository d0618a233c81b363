"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/registry.py:
each test kills a mutant that every other test let through."""
import math

import numpy as np

import runtime


def test_a_rule_is_named_by_its_module_and_qualified_name():
    """Rule names (in messages and reprs) say which `sin` they are."""
    assert repr(runtime.lookup(np.tanh)) == "<Rule template numpy.tanh>"
    assert repr(runtime.lookup(math.sin)) == "<Rule template math.sin>"
