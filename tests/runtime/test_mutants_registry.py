"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/registry.py:
each test kills a mutant that every other test let through."""
import math

import numpy as np

import runtime


def test_a_rule_is_named_by_its_module_and_qualified_name():
    """Rule names (in messages and reprs) say which `sin` they are."""
    assert repr(runtime.lookup(np.tanh)) == "<Rule template numpy.tanh>"
    assert repr(runtime.lookup(math.sin)) == "<Rule template math.sin>"


def scaled(x):
    return 3.0 * x


def uses_scaled(x):
    return scaled(x) * 2.0


def test_a_rule_registered_after_compiling_is_used_by_the_next_call():
    """Registering a rule bumps the registry's generation, so a gradient compiled before
    is rebuilt with the new rule (here a deliberately different derivative)."""
    from transform import grad, rrule

    g = grad(uses_scaled)
    assert g(1.0) == 6.0                     # through scaled's source: 3 * 2

    @rrule(scaled)
    def scaled_rule(x):
        return 3.0 * x, lambda ct: (10.0 * ct,)

    assert g(1.0) == 20.0                    # the rule, not the source: 10 * 2
