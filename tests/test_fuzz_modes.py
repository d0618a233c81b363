"""The fuzzer's two judging modes of session 33: checkpointed_loops (a program's loops
marked checkpointed, judged against the unmarked program: tests/fuzz/gen_checkpointed.py,
checkpoint_reference.py) and forward_mode (jvp and hvp: tests/fuzz/oracle_forward.py);
hvp_routes (session 37) and plain_lowering (session 38: tests/fuzz/oracle_plain.py). Each check is shown to reject what it exists to catch."""
import random

import transform
from tests.fuzz.classes import make_case
from tests.fuzz.findings import Finding
from tests.fuzz.gen_checkpointed import mark
from tests.fuzz.oracle import judge
from tests.fuzz.program import ARRAY, SCALAR

LOOPS = ("import numpy as np\n\n\ndef f(x, a):\n    s = x\n    for t in range(3):\n"
         "        s = np.sin(s)\n    for e in [a, a * x]:\n        s = s + np.sum(e)\n"
         "    k = 0\n    while k < 2:\n        s = s * 0.5\n        k += 1\n"
         "    for i, e in enumerate(a):\n        s = s + e\n    return s\n")


def test_mark_wraps_for_loops_and_leaves_while_loops():
    marked, used = mark(LOOPS, random.Random(0), rate=1.0)
    assert marked.startswith("from transform import checkpointed\n")
    assert "in checkpointed(range(3)" in marked and "in checkpointed([a, a * x]" in marked
    assert "while k < 2:" in marked and "checkpointed_loop" in used
    compile(marked, "<marked>", "exec")


def test_mark_marks_nothing_when_there_is_no_for_loop():
    assert mark("import numpy as np\n\n\ndef f(x):\n    return x\n", random.Random(0)) == \
        (None, frozenset())


def _checkpointed_case(source, reference, **fields):
    case = Finding("t", "", "", source, (SCALAR, ARRAY)).case()
    ref = Finding("t", "", "", reference, (SCALAR, ARRAY)).case()
    case.reference_source = ref.source
    for key, value in fields.items():
        setattr(case, key, value)
    return case


MARKED = ("from transform import checkpointed\n\n\ndef f(x, a):\n    s = x\n"
          "    for t in checkpointed(range(3), snapshots=2):\n        s = np.sin(s) + np.sum(a)\n"
          "    return s")
UNMARKED = MARKED.replace("checkpointed(range(3), snapshots=2)", "range(3)")


def test_a_marked_loop_equal_to_the_unmarked_passes():
    verdict = judge(_checkpointed_case(MARKED, UNMARKED))
    assert verdict.outcome == "passed" and "unmarked" in verdict.kind


def test_a_gradient_unlike_the_unmarked_programs_fails():
    """The unmarked program here has the same value at the inputs, another gradient."""
    x0 = _checkpointed_case(MARKED, UNMARKED).inputs()[0]
    other = UNMARKED.replace("    return s", f"    return s + 0.25 * (x - {x0!r})")
    verdict = judge(_checkpointed_case(MARKED, other))
    assert (verdict.outcome, verdict.kind) == ("failed", "checkpointed gradient differs")


def test_a_draw_that_must_be_refused_fails_when_it_is_not():
    verdict = judge(_checkpointed_case(MARKED, UNMARKED, must_refuse="a draw"))
    assert (verdict.outcome, verdict.kind) == ("failed", "not refused")


def test_a_marked_random_draw_is_refused():
    draw = MARKED.replace("def f(x, a):\n", "def f(x, a):\n    np.random.seed(0)\n").replace(
        "np.sum(a)", "np.sum(a) * np.random.normal()")
    verdict = judge(_checkpointed_case(draw, draw.replace(
        "checkpointed(range(3), snapshots=2)", "range(3)"), must_refuse="a draw"))
    assert verdict.outcome == "refused"


WRONG_JVP = ("from runtime import defvjp\n\n\ndef sq(v):\n    return v * v\n\n\n"
             "defvjp(sq, 'v', 'g * 2.0 * v', jvp='t_v * 3.0 * v')\n\n\n"
             "def f(x, a):\n    return sq(x) + np.sum(np.sin(a) * x)")


def test_the_forward_oracle_rejects_a_wrong_jvp():
    verdict = judge(Finding("t", "", "", WRONG_JVP, (SCALAR, ARRAY), oracle="forward").case())
    assert (verdict.outcome, verdict.kind) == ("failed", "wrong jvp")


def test_the_forward_oracle_rejects_a_wrong_hvp(monkeypatch):
    right = transform.hvp
    monkeypatch.setattr(transform, "hvp", lambda *a, **k: right(*a, **k) * 1.01)
    body = "def f(x, a):\n    return np.sum(np.tanh(a * x) ** 2)"
    verdict = judge(Finding("t", "", "", body, (SCALAR, ARRAY), oracle="forward").case())
    assert (verdict.outcome, verdict.kind) == ("failed", "wrong hvp")


def test_the_forward_oracle_passes_a_right_program_and_judges_its_hvp():
    body = "def f(x, a):\n    return np.sum(np.tanh(a * x) ** 2)"
    verdict = judge(Finding("t", "", "", body, (SCALAR, ARRAY), oracle="forward").case())
    assert (verdict.outcome, verdict.kind) == ("passed", "hvp judged")


def test_forward_mode_programs_are_other_classes_judged_forward():
    cases = [make_case("forward_mode", seed) for seed in range(20)]
    assert all(c.oracle == "forward" and c.cls == "forward_mode" for c in cases)
    assert len({next(p for p in c.productions if p.startswith("forward_base:"))
                for c in cases}) > 3


def _wrong_on(route):
    right = transform.hvp

    def hvp(*args, **kwargs):
        out = right(*args, **kwargs)
        return out * 1.01 if kwargs.get("route") == route else out
    return hvp


def test_the_routes_oracle_rejects_a_wrong_hvp_on_one_route(monkeypatch):
    monkeypatch.setattr(transform, "hvp", _wrong_on("forward_over_reverse"))
    body = "def f(x, a):\n    return np.sum(np.tanh(a * x) ** 2)"
    verdict = judge(Finding("t", "", "", body, (SCALAR, ARRAY), oracle="hvp_routes").case())
    assert (verdict.outcome, verdict.kind) == ("failed", "fr: wrong hvp")


def test_the_routes_oracle_passes_a_right_program_on_every_route():
    body = "def f(x, a):\n    return np.sum(np.tanh(a * x) ** 2)"
    verdict = judge(Finding("t", "", "", body, (SCALAR, ARRAY), oracle="hvp_routes").case())
    assert (verdict.outcome, verdict.kind) == \
        ("passed", "fr passed, auto passed, rf passed")
    assert make_case("hvp_routes", 5).oracle == "hvp_routes"


def _wrong_when_plain():
    right = transform.value_and_grad

    def value_and_grad(*args, **kwargs):
        compiled = right(*args, **kwargs)
        if kwargs.get("lowering") != "plain":
            return compiled

        def scaled(*given, **options):
            value, grads = compiled(*given, **options)
            return value, tuple(g * 1.01 for g in grads)
        return scaled
    return value_and_grad


BODY = "def f(x, a):\n    for t in range(3):\n        a = np.tanh(a * x)\n    return np.sum(a)"


def test_the_plain_oracle_judges_the_plain_lowering(monkeypatch):
    case = Finding("t", "", "", BODY, (SCALAR, ARRAY), oracle="plain_lowering").case()
    assert judge(case).outcome == "passed"
    monkeypatch.setattr(transform, "value_and_grad", _wrong_when_plain())
    verdict = judge(case)
    assert (verdict.outcome, verdict.kind) == ("failed", "wrong gradient")
    assert make_case("plain_lowering", 5).oracle == "plain_lowering"


def test_the_plain_oracle_skips_a_non_scalar_output():
    body = "def f(x, a):\n    return np.tanh(a * x)"
    verdict = judge(Finding("t", "", "", body, (SCALAR, ARRAY), oracle="plain_lowering").case())
    assert (verdict.outcome, verdict.kind) == \
        ("skipped", "not a scalar output (lowering='plain' offers no vjp)")
