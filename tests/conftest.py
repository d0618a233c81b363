"""Test-session hooks: the fuzzer's per-class verdict counts at the end of the run."""
import sys


def pytest_terminal_summary(terminalreporter):
    fuzz = sys.modules.get("tests.test_fuzz")
    if fuzz is None or not fuzz.TALLY:
        return
    outcomes = ("passed", "refused", "skipped", "failed", "invalid")
    terminalreporter.write_sep("-", f"fuzz programs per class (seed {fuzz.SEED})")
    for cls, counts in sorted(fuzz.TALLY.items()):
        terminalreporter.write_line(
            f"{cls:<15}" + "  ".join(f"{counts[o]} {o}" for o in outcomes))
