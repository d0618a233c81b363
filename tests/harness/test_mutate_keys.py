"""tools/mutate.py's equivalent-mutant keys: a decorator's mutant can be listed for the one
function it decorates (identical decorator lines on several helpers keep separate verdicts)."""
from tools import mutate

KEY = "runtime/accumulate.py: True -> False [@helper(in_place=False)"


def _lines():
    return {name: line for line, name in mutate._decorated("runtime/accumulate.py").items()}


def test_decorator_lines_name_their_functions():
    assert {"accum_eager", "accumulate_into", "accumulate_at"} <= set(_lines())


def test_a_named_entry_matches_only_its_function():
    lines = _lines()
    listed = {KEY + " def accum_eager]": "never writes"}
    reason = lambda name: mutate.equivalent_reason(  # noqa: E731
        listed, "runtime/accumulate.py", lines[name], "True -> False", "@helper(in_place=False)")
    assert reason("accum_eager") == "never writes"
    assert reason("accumulate_into") is None and reason("accumulate_at") is None


def test_a_plain_entry_still_matches_every_identical_decorator():
    lines = _lines()
    listed = {KEY + "]": "all three"}
    for name in ("accum_eager", "accumulate_into", "accumulate_at"):
        assert mutate.equivalent_reason(listed, "runtime/accumulate.py", lines[name],
                                        "True -> False", "@helper(in_place=False)") == "all three"
