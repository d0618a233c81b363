"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/registry.py's
rule names and method table (`defmethod`): each test kills a mutant that every other
test let through, or pins the bug one of them led to."""
import numpy as np
import pytest

import runtime
import runtime.registry as registry
from tests.gradcheck import check_grad


@pytest.fixture
def methods(monkeypatch):
    """A private copy of the method table: what a test declares is undone after it."""
    monkeypatch.setattr(registry, "_METHODS", dict(registry._METHODS))


class Holder:
    @staticmethod
    def quadrupled(x):
        return 4.0 * x


def test_a_rule_name_is_the_qualified_name_not_the_bare_one():
    """A function defined in a class is named `Class.function` (its __qualname__), so two
    `quadrupled`s in one module are told apart in messages."""
    runtime.defvjp(Holder.quadrupled, "x", "4.0 * g")
    assert repr(runtime.lookup(Holder.quadrupled)) == \
        f"<Rule template {__name__}.Holder.quadrupled>"


def selected(x, condition):
    return np.compress(condition, x)


@runtime.rrule(selected)
def selected_rule(x, condition):
    mask = np.asarray(condition, dtype=bool)

    def pullback(g):
        dx = np.zeros_like(x)
        dx[mask] = runtime.unthunk(g)
        return dx, None
    return np.compress(mask, x), pullback


def selected_by_source(x, condition):
    return x[np.asarray(condition, dtype=bool)]


def squares_of_selected(x):
    return np.sum(x.compress([True, False, True]) ** 2)


@pytest.mark.parametrize("fn", [selected, selected_by_source], ids=["rule", "source"])
def test_a_method_mapped_to_a_function_passes_the_receiver(methods, fn):
    """`x.compress(c)` declared as `fn(x, c)`: the generated call passes x first (it was
    dropped for a function with a custom rule or with source: `selected_rrule(c)`)."""
    runtime.defmethod("compress", fn)
    check_grad(squares_of_selected, (np.array([1.0, 2.0, 3.0]),))


def cumsum_claimed_tenfold(x):
    return np.cumsum(x)


@runtime.rrule(cumsum_claimed_tenfold)
def cumsum_claimed_tenfold_rule(x):
    def pullback(g):
        return (10.0 * np.cumsum(runtime.unthunk(g)[::-1])[::-1],)
    return np.cumsum(x), pullback


def total_of_cumsum(x):
    return np.sum(x.cumsum())


def test_a_method_declared_after_compiling_is_used_by_the_next_call(methods):
    """defmethod bumps the registry's generation: a gradient compiled before is rebuilt
    with the new mapping (here a rule that deliberately claims ten times the derivative)."""
    from transform import grad

    g = grad(total_of_cumsum)
    x = np.array([1.0, 2.0, 3.0])
    assert np.array_equal(g(x), [3.0, 2.0, 1.0])
    runtime.defmethod("cumsum", cumsum_claimed_tenfold)
    assert np.array_equal(g(x), [30.0, 20.0, 10.0])


def copies_its_input(x):
    return np.array(x)


def test_declare_records_the_traits_and_bumps_the_generation():
    """declare() (traits of a callable without a rule of its own) is read by the compiler,
    so a gradient compiled before must be rebuilt: the generation changes."""
    from runtime.traits import traits_of

    before = registry.generation
    registry.declare(copies_its_input, fresh=True)
    try:
        assert traits_of(copies_its_input) == {"fresh": True}
        assert registry.generation != before
    finally:
        registry.declare(copies_its_input, fresh=False)
    assert traits_of(copies_its_input) == {}


def test_helper_declares_the_traits_of_a_helper_by_name():
    from runtime.traits import HELPER

    @registry.helper(pure=True)
    def thunkgrad_test_helper(x):
        return x

    try:
        assert HELPER["pure"]["thunkgrad_test_helper"] is True
    finally:
        HELPER["pure"].pop("thunkgrad_test_helper", None)
