"""The fuzz oracle (tests/fuzz/oracle.py) gives each kind of program its verdict, and the
class generators are deterministic per seed."""
import numpy as np
import pytest

from tests.fuzz.classes import CLASSES, make_case, parse_classes, pick_class
from tests.fuzz.findings import Finding
from tests.fuzz.oracle import Verdict, _compare, _inside_generated, judge
from tests.fuzz.program import ARRAY, SCALAR


def verdict_of(body, *kinds, rebinds=()):
    return judge(Finding("t", "", "", body, kinds, rebinds).case())


def test_a_correct_program_passes():
    assert verdict_of("def f(x, a):\n    return np.sum(np.sin(a) * x)", SCALAR, ARRAY) \
        == Verdict("passed")


def test_a_program_too_curved_for_finite_differences_is_skipped():
    assert verdict_of("def f(x):\n    return np.sin(1e5 * x)", SCALAR).outcome == "skipped"


def test_a_transform_error_before_running_is_a_refusal():
    body = ("def f(x):\n    m = np.ma.masked_array(np.array([x, 1.0]), mask=[False, True])\n"
            "    return np.sum(m)")
    assert verdict_of(body, SCALAR).outcome == "refused"


def test_a_wrong_registered_rule_is_a_wrong_gradient():
    body = ("from runtime import defvjp\n\n\ndef sq(v):\n    return v * v\n\n\n"
            "defvjp(sq, 'v', 'g * 3.0 * v')\n\n\ndef f(x):\n    return sq(x)")
    verdict = verdict_of(body, SCALAR)
    assert (verdict.outcome, verdict.kind) == ("failed", "wrong gradient")


def test_a_rebound_global_is_judged_after_the_rebinding():
    body = "lam = 0.5\n\n\ndef f(x):\n    return lam * x"
    verdict = verdict_of(body, SCALAR, rebinds=("lam = 'text'",))
    assert verdict.outcome == "invalid"     # the primal itself fails after the rebinding


def test_a_changed_argument_is_a_failure():
    verdict = _compare(Finding("t", "", "", "def f(a):\n    return a", (ARRAY,)).case(),
                       "loop", [np.ones(2)], [np.zeros(2)], 1.0, 1.0, [], [])
    assert (verdict.outcome, verdict.kind) == ("failed", "mutated argument")


def test_only_frames_in_generated_files_count_as_inside():
    inside = compile("raise ValueError('x')", "<thunkgrad m.f wrt=x policy=loop>", "exec")
    outside = compile("raise ValueError('x')", "/tmp/user.py", "exec")
    for code, expected in ((inside, True), (outside, False)):
        with pytest.raises(ValueError) as info:
            exec(code)
        assert _inside_generated(info.value) is expected


@pytest.mark.parametrize("cls", [c for c in CLASSES if c != "grammar"])
def test_every_class_is_deterministic_per_seed_and_valid_python(cls):
    for seed in range(5):
        first, again = make_case(cls, seed), make_case(cls, seed)
        assert first.source == again.source and first.rebinds == again.rebinds
        compile(first.source, first.label(), "exec")


def test_class_selection():
    assert parse_classes("all") == tuple(CLASSES)
    assert parse_classes("inplace, alias_write") == ("inplace", "alias_write")
    with pytest.raises(ValueError):
        parse_classes("no_such_class")
    picked = {pick_class(seed, ("inplace", "grammar")) for seed in range(50)}
    assert picked == {"inplace", "grammar"}


def test_an_internal_compiler_error_is_a_failure_not_a_refusal(monkeypatch):
    """Issue 16: never "internal compiler error" for user code, so the fuzzer must not
    file one with the refusals (a starred comprehension target was one, session 30)."""
    import transform.api

    def broken(*args, **kwargs):
        raise AttributeError("'Starred' object has no attribute 'elts'")

    monkeypatch.setattr(transform.api, "compile_function", broken)
    verdict = verdict_of("def f(x):\n    return x * x", SCALAR)
    assert (verdict.outcome, verdict.kind) == ("failed", "internal compiler error")


def raising_verdict(body, *kinds):
    """The verdict of a program Case.raises says Python stops with ValueError."""
    case = Finding("t", "", "", body, kinds, ()).case()
    case.raises = "ValueError"
    return judge(case)


UNPACK_THREE = "def f(x):\n    a, b = x, x * 2.0, x\n    return a * b"


def test_a_program_raising_what_python_raises_passes():
    assert raising_verdict(UNPACK_THREE, SCALAR) == Verdict("passed")


def test_a_program_expected_to_raise_that_does_not_is_invalid():
    verdict = raising_verdict("def f(x):\n    return x * x", SCALAR)
    assert (verdict.outcome, verdict.kind) == ("invalid", "primal does not raise")


def test_a_gradient_where_python_raises_is_a_failure(monkeypatch):
    import transform
    monkeypatch.setattr(transform, "value_and_grad",
                        lambda f, **kw: lambda *args: (1.0, (1.0,)))
    verdict = raising_verdict(UNPACK_THREE, SCALAR)
    assert (verdict.outcome, verdict.kind) == ("failed", "no ValueError")


def test_another_error_where_python_raises_is_a_failure(monkeypatch):
    import transform

    def wrong(*args):
        raise IndexError("tuple index out of range")
    monkeypatch.setattr(transform, "value_and_grad", lambda f, **kw: wrong)
    verdict = raising_verdict(UNPACK_THREE, SCALAR)
    assert (verdict.outcome, verdict.kind) == ("failed", "not Python's ValueError")
