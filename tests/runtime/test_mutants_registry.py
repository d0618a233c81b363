"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/registry.py:
each test kills a mutant that every other test let through."""
import math
import sys
import types

import numpy as np
import pytest

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


def test_a_second_template_helper_of_the_same_name_is_refused():
    """Two different helpers under one name would make templates call the wrong one."""
    from runtime.registry import template_helper

    def unbroadcast(g, x):                   # not runtime.helpers.unbroadcast
        return g

    with pytest.raises(ValueError, match="already defined"):
        template_helper(unbroadcast)
    from runtime.helpers import unbroadcast as real
    assert runtime.TEMPLATE_NAMESPACE["unbroadcast"] is real


def test_a_top_level_helper_of_the_same_name_in_another_module_is_refused():
    """Same __qualname__, other module: np.convolve's rule once called scipy.signal's
    `convolve_vjp` (a silent wrong gradient in mode='same')."""
    import types
    from runtime.registry import template_helper
    other = types.ModuleType("some_other_rules")
    exec("def unbroadcast(g, x):\n    return g\n", other.__dict__)
    assert other.unbroadcast.__qualname__ == "unbroadcast"
    with pytest.raises(ValueError, match="already defined"):
        template_helper(other.unbroadcast)
    from runtime.helpers import unbroadcast as real
    assert runtime.TEMPLATE_NAMESPACE["unbroadcast"] is real


def constant_of(x):
    return x * 0.0 + 1.0


def test_nondiff_checks_its_reasons():
    with pytest.raises(ValueError, match="why must be one of"):
        runtime.nondiff(constant_of, why="no reason")
    with pytest.raises(ValueError, match="why must be one of"):
        runtime.nondiff(constant_of, why={"x": "no reason"}, signature="x")
    assert runtime.lookup(constant_of) is None       # nothing registered by a refusal


def half_plus_one(x):
    return x * 0.5 + 1.0


def uses_half_plus_one(x):
    return half_plus_one(x) * x


def test_a_nondiff_declared_after_compiling_is_used_by_the_next_call():
    """Declaring a function nondiff bumps the registry's generation too: the gradient
    compiled before is rebuilt and treats it as a constant (a deliberate lie here)."""
    from transform import grad

    g = grad(uses_half_plus_one)
    assert g(2.0) == 3.0                     # through the source: x + 1
    runtime.nondiff(half_plus_one, why=runtime.ZERO)
    assert g(2.0) == 2.0                     # a constant: half_plus_one(2)


def lazily_ruled(x):
    return 2.0 * x


def test_rules_for_a_module_load_once_it_is_imported():
    """register_when_imported: the loader runs at the first lookup after the module
    appears in sys.modules, not before."""
    from runtime.registry import register_when_imported

    calls = []

    def loader():
        calls.append(1)
        runtime.defvjp(lazily_ruled, "x", "2.0 * g")

    name = "thunkgrad_tests_lazily_imported"
    register_when_imported(name, loader)
    assert runtime.lookup(lazily_ruled) is None and calls == []
    sys.modules[name] = types.ModuleType(name)
    try:
        assert runtime.lookup(lazily_ruled) is not None and calls == [1]
    finally:
        del sys.modules[name]


def three_args(a, b, c):
    return a + b + c


def test_nondiff_accepts_every_reason_at_once():
    runtime.nondiff(three_args, signature="a, b, c",
                    why={"a": runtime.ZERO, "b": runtime.SHAPE, "*": runtime.NONE})
    assert runtime.lookup(three_args).kind == "nondiff"


def doubled(x):
    return 2.0 * x


def uses_doubled(x):
    return doubled(x) * 3.0


def test_a_template_rule_registered_after_compiling_is_used_by_the_next_call():
    from transform import grad

    g = grad(uses_doubled)
    assert g(1.0) == 6.0
    runtime.defvjp(doubled, "x", "5.0 * g")  # deliberately not the derivative
    assert g(1.0) == 15.0
