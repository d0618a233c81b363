"""Test-session hooks: the fuzz shares' seeds at the start, and the fuzzer's per-class
verdict counts at the end of the run."""
import sys


def pytest_report_header(config):
    from tests.fuzz import ci
    return ci.header()


def pytest_terminal_summary(terminalreporter):
    fuzz = sys.modules.get("tests.test_fuzz")
    if fuzz is None or not fuzz.TALLY:
        return
    from tests.fuzz import ci
    outcomes = ("passed", "refused", "skipped", "failed", "invalid")
    terminalreporter.write_sep("-", "fuzz programs per class")
    terminalreporter.write_line(ci.header())
    for cls, counts in sorted(fuzz.TALLY.items()):
        terminalreporter.write_line(
            f"{cls:<15}" + "  ".join(f"{counts[o]} {o}" for o in outcomes))
