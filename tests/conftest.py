"""Test-session hooks: the fuzz shares' seeds at the start, and the fuzzer's per-class
verdict counts at the end of the run.

`make test` runs the suite on every CPU (pytest-xdist). The random fuzz share's seed is
drawn once, in the controlling process, and handed to the workers through the
environment, so every worker fuzzes the same programs and the header's replay command
is the one that replays them. Each fuzz test reports its verdict counts as a user
property, which travels with its report to the controller, where they are summed."""
import collections
import os


def pytest_configure(config):
    from tests.fuzz import ci
    os.environ.setdefault("THUNKGRAD_FUZZ_SEED", str(ci.RANDOM_SEED))


def pytest_report_header(config):
    from tests.fuzz import ci
    return ci.header()


def _fuzz_tallies(stats):
    total = collections.defaultdict(collections.Counter)
    for reports in stats.values():
        for rep in reports:
            if getattr(rep, "when", None) != "call":
                continue
            for key, value in getattr(rep, "user_properties", ()):
                if key == "fuzz_tally":
                    cls, counts = value
                    total[cls].update(counts)
    return total


def pytest_terminal_summary(terminalreporter):
    tallies = _fuzz_tallies(terminalreporter.stats)
    if not tallies:
        return
    from tests.fuzz import ci
    outcomes = ("passed", "refused", "skipped", "failed", "invalid")
    terminalreporter.write_sep("-", "fuzz programs per class")
    terminalreporter.write_line(ci.header())
    for cls, counts in sorted(tallies.items()):
        terminalreporter.write_line(
            f"{cls:<19}" + "  ".join(f"{counts[o]} {o}" for o in outcomes))
