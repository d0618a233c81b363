"""What memory_limit did, said two ways: `thunkgrad dump --memory-limit L --explain`
(each outermost loop at compile time: marked, and what the driver will measure, or
taped and why) and `checkpoint_stats().report()` after a run (what the driver chose
and from what measured numbers, or why a loop ran as written)."""
import numpy as np
import pytest

from tests.checkpoint import limit_cases
from transform import checkpoint_stats, grad
from transform.api import adjoint_source
from transform.cli import main

FIRST = limit_cases.simulate.__code__.co_firstlineno


def test_explain_says_what_happens_to_each_loop():
    text = adjoint_source(limit_cases.simulate, 0, explain=True, memory_limit="2MB")
    notes = [line for line in text.splitlines() if line.startswith("# memory_limit")]
    assert [n.split(":")[1] for n in notes] == [
        f" loop at line {FIRST + k}" for k in (1, 4, 7, 11)]
    assert "checkpointed if its tape exceeds 2,000,000 bytes" in notes[0]
    assert "(limit - 2e - 2c) // 3c snapshots" in notes[0]
    assert "loops over range(...) or a name" in notes[1]
    # (session 34: while loops and loops with break too, by the online schedule)
    assert "online schedule: its trip count is not known" in notes[2]
    assert "online schedule: its trip count is not known" in notes[3]
    assert "# memory_limit" not in adjoint_source(limit_cases.simulate, 0, explain=True)
    assert "# memory_limit" not in adjoint_source(limit_cases.simulate, 0,
                                                  memory_limit="2MB")


def test_the_cli_takes_it_for_reverse_mode_only(capsys):
    target = f"{limit_cases.__file__}:simulate"
    assert main(["dump", target, "--memory-limit", "2000000", "--explain"]) == 0
    assert "2,000,000 bytes" in capsys.readouterr().out
    assert main(["dump", target, "--memory-limit", "2MB", "--mode", "forward"]) == 2
    assert "--memory-limit does not apply" in capsys.readouterr().err


def _run(limit, n):
    u = np.linspace(0.0, 1.0, 200)
    with checkpoint_stats() as stats:
        got = grad(limit_cases.simulate, 0, memory_limit=limit)(u, 0.1, n)
    np.testing.assert_allclose(got, grad(limit_cases.simulate, 0)(u, 0.1, n), rtol=1e-12)
    return stats


def _first_loop(stats):
    """The report of simulate's first loop (its while loop and loop with break: taped
    here, their steps' tapes fit)."""
    [r] = [r for r in stats.reports if r["where"].endswith(f":{FIRST + 1}")]
    assert len(stats.reports) == 3 and all(
        r["decision"].startswith("taped (the steps' tapes fitted") for r in stats.reports[1:])
    return r


def test_the_report_of_a_checkpointed_loop():
    stats = _run(100_000, 200)
    r = _first_loop(stats)
    assert r["decision"].startswith("checkpointed by memory_limit") and r["limit"] == 100_000
    assert r["carry"] == 200 * 8 + 112 and r["step_tape"] > 0
    assert r["snapshots"] == (100_000 - 2 * r["step_tape"] - 2 * r["carry"]) // (3 * r["carry"])
    assert stats.peak_snapshots == r["snapshots"]
    line = stats.report()
    assert f":{FIRST + 1}: checkpointed" in line
    assert "200 iterations" in line and "snapshots" in line and "100,000 bytes" in line


def test_the_report_of_a_loop_that_fits():
    stats = _run(10**9, 20)
    r = _first_loop(stats)
    assert r["decision"].startswith("taped (iterations x one step's tape <= limit)")
    assert stats.loops == 0


def test_a_function_whose_marked_form_does_not_compile_is_compiled_unmarked():
    x = np.array([0.3, 0.4])
    with checkpoint_stats() as stats:
        got = grad(limit_cases.appended_into_an_entry, 0, memory_limit=1)(x, 5)
    np.testing.assert_allclose(got, grad(limit_cases.appended_into_an_entry, 0)(x, 5),
                               rtol=1e-12)
    assert stats.loops == 0 and stats.reports == []
    text = adjoint_source(limit_cases.appended_into_an_entry, 0, explain=True, memory_limit=1)
    assert "# memory_limit: every loop taped, the function with its loops marked did not " \
           "compile: " in text and "checkpoint_fits" not in text


def test_a_loop_whose_step_fails_alone_runs_as_written():
    x = np.array([0.3, 0.4])
    with checkpoint_stats() as stats:
        got = grad(limit_cases.merged_in_place, 0, memory_limit=1)(x, 5)
    np.testing.assert_allclose(got, grad(limit_cases.merged_in_place, 0)(x, 5), rtol=1e-12)
    [r] = stats.reports
    assert stats.loops == 0 and r["decision"].startswith(
        "taped as written (its step alone raised TypeError")
    assert "5 iterations" in stats.report()


@pytest.mark.parametrize("limit", ["2MB", 10**6])
def test_dump_with_a_limit_compiles_what_grad_runs(limit):
    assert "checkpoint_fits" in adjoint_source(limit_cases.simulate, 0, memory_limit=limit)
