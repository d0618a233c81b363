"""make test's fuzzing is deterministic and bounded: a fixed share of seeds, a random share
with a printed seed, and shrinking that stops when its time runs out."""
from tests.fuzz import ci
from tests.fuzz.classes import CLASSES, make_case
from tests.fuzz.findings import Finding
from tests.fuzz.oracle import judge
from tests.fuzz.program import SCALAR
from tests.fuzz.shrink import shrink

WRONG_RULE = ("from runtime import defvjp\n\n\ndef sq(v):\n    return v * v\n\n\n"
              "defvjp(sq, 'v', 'g * 3.0 * v')\n\n\ndef f(x):\n    y = np.sin(x)\n"
              "    z = np.cos(x)\n    return sq(x) + y * z")


def test_the_fixed_share_is_the_same_programs_on_every_run():
    fixed = [s for s in ci.shares() if s[0] == "fixed"][0]
    assert fixed[1] == ci.FIXED_SEED == 20261130
    for cls in CLASSES:
        first, again = make_case(cls, fixed[1]), make_case(cls, fixed[1])
        assert first.source == again.source and first.inputs()[0] is not None


def test_a_costly_class_runs_a_smaller_share_and_none_when_the_share_is_empty(monkeypatch):
    monkeypatch.setattr(ci, "FIXED_PER_CLASS", 16)
    monkeypatch.setattr(ci, "RANDOM_PER_CLASS", 0)
    assert [n for _, _, n in ci.shares("hvp_routes")] == [6, 0]
    assert [n for _, _, n in ci.shares("calls")] == [16, 0]


def test_the_header_prints_the_random_share_seed():
    assert f"THUNKGRAD_FUZZ_SEED={ci.RANDOM_SEED}" in ci.header()


def test_shrinking_stops_when_its_time_runs_out():
    case = Finding("t", "", "", WRONG_RULE, (SCALAR,)).case()
    assert judge(case).kind == "wrong gradient"
    assert shrink(case, seconds=0).source == case.source
    smaller = shrink(case, seconds=60)
    assert len(smaller.source) < len(case.source)
    assert judge(smaller).kind == "wrong gradient"


def test_a_long_campaign_reports_failures_as_it_goes(capsys):
    from tests.fuzz.campaign import _progress
    from tests.fuzz.oracle import Verdict
    results = {f"calls:{k}": (Verdict("passed"), "") for k in range(499)}
    results["tensors:7"] = (Verdict("failed", "wrong gradient"), "")
    _progress(results)
    assert "500 done, 1 failed or invalid: tensors:7" in capsys.readouterr().out
    results["calls:999"] = (Verdict("passed"), "")
    _progress(results)
    assert capsys.readouterr().out == ""


def test_float32_programs_are_judged_against_float64_differences():
    from tests.fuzz.oracle import RTOL, tolerances
    from tests.fuzz.program import Case, tensor
    source = ("import numpy as np\n\n\ndef f(a, b):\n    c = a.copy()\n"
              "    c[-1] *= np.tanh(np.sum(b * b))\n    return np.sum(c * c)\n")
    case = Case("float32", 3, source, [("a", tensor((2,), "32")), ("b", tensor((2,), "32"))], 2)
    assert case.inputs()[0].dtype.name == "float32"
    assert tolerances(case)[0] > RTOL
    assert judge(case).outcome == "passed"     # a float32 store rounds no step away
