"""Mutation testing: plant one small bug at a time and check that the tests notice.

    python -m tools.mutate                        # rule templates, runtime, the FD reference
    python -m tools.mutate passes                 # the compiler passes (long)
    python -m tools.mutate runtime/thunks.py --tests tests/runtime --jobs 2
    make mutate TARGET="runtime/tape.py"

Each mutant (tools/mutations.py: an operator, comparison, constant, reversal, dropped
statement, or a change inside a rule template string) is written into a private copy of
the repository, and a targeted subset of the suite runs against it (`pytest -x`, with a
timeout; a timeout counts as killed). Survivors are printed with file, line and change;
the mutation score is killed / (killed + survived).
"""
import argparse
import ast
import difflib
import glob
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from tools.mutations import mutants

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS = {
    "rules": ["runtime/rules/*.py"],
    "runtime": ["runtime/accumulate.py", "runtime/thunks.py", "runtime/tape.py",
                "runtime/helpers.py", "runtime/containers.py"],
    "reference": ["tests/fd.py", "tests/gradcheck.py", "tests/trees.py"],
    "passes": ["transform/analysis/accumulation.py", "transform/reverse/reverse.py",
               "transform/reverse/backward_loops.py", "transform/reverse/backward_lists.py",
               "transform/optimize/tape_iteration.py", "transform/lowering/control.py",
               "transform/analysis/activity.py", "transform/optimize/optimize.py",
               "transform/optimize/fuse.py"],
}
DEFAULT_GROUPS = ("rules", "runtime", "reference")
# The tests each part of the code answers to (the first prefix that matches), in stages:
# a mutant killed by the fast first stage never waits for the wide one.
TESTS = [
    ("tests/", [["tests/harness/test_reference.py"]]),
    ("runtime/rules/", [["tests/rules/test_straightline.py", "tests/rules/test_templates.py"],
                        ["tests/rules"]]),
    ("runtime/", [["tests/runtime"],
                  ["tests/rules", "tests/loop_pass", "tests/control/test_loops.py"],
                  ["tests/control", "tests/containers"]]),
    ("transform/", [["tests/runtime", "tests/loop_pass", "tests/control/test_loops.py"],
                    ["tests/control", "tests/corpus", "tests/containers", "tests/optimize"]]),
]


def main(argv=None):
    options = _parse(argv)
    files = _files(options.targets or DEFAULT_GROUPS)
    work = [(path, m) for path in files for m in _mutants_of(path, options.kinds)]
    if options.only:
        work = [(path, m) for path, m in work if f"{path}:{m[0]}" in set(options.only)]
    if options.limit:
        work = work[::max(1, len(work) // options.limit)][:options.limit]
    print(f"{len(work)} mutants in {len(files)} files, {options.jobs} jobs, "
          f"timeout {options.timeout:.0f} s", flush=True)
    copies = [_copy_repo() for _ in range(options.jobs)]
    try:
        if not options.no_baseline:
            _baseline(copies[0], files, options)
        results = _run_all(work, copies, options)
    finally:
        for c in copies:
            shutil.rmtree(c, ignore_errors=True)
    return _summary(results, options.report)


def _parse(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("targets", nargs="*", help="files, globs or groups: "
                   + ", ".join(GROUPS) + f" (default: {' '.join(DEFAULT_GROUPS)})")
    p.add_argument("--tests", nargs="*", help="test paths for every mutant (default: "
                   "chosen by the mutated file, see TESTS)")
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    p.add_argument("--limit", type=int, default=0, help="an evenly spread sample")
    p.add_argument("--kinds", default="expression,statement,template")
    p.add_argument("--report", help="also write the survivors to this file")
    p.add_argument("--only", nargs="*", default=(),
                   help="only the mutants on these lines, as file:line (re-judge survivors)")
    p.add_argument("--no-baseline", action="store_true",
                   help="skip checking that the tests pass on the unmutated code")
    options = p.parse_args(argv)
    options.kinds = tuple(options.kinds.split(","))
    return options


def _files(targets):
    out = []
    for t in targets:
        for pattern in GROUPS.get(t, [t]):
            out += sorted(os.path.relpath(p, ROOT)
                          for p in glob.glob(os.path.join(ROOT, pattern)))
    return [p for p in dict.fromkeys(out) if not p.endswith("__init__.py")]


def _mutants_of(path, kinds):
    with open(os.path.join(ROOT, path)) as fh:
        source = fh.read()
    return [(line, what, text) for line, what, text in mutants(source, kinds)]


def _stages_for(path, options):
    """The test stages judging a mutant of `path` (lists of pytest paths)."""
    if options.tests:
        return [options.tests]
    stages = next(stages for prefix, stages in TESTS if path.startswith(prefix))
    own = os.path.join("tests", "rules", "test_" + os.path.basename(path))
    if path.startswith("runtime/rules/") and os.path.exists(os.path.join(ROOT, own)):
        return [[own], *stages]            # a rule file's own tests first
    return stages


def _copy_repo():
    """A private copy of the tracked and new files (never .venv, caches or results)."""
    target = tempfile.mkdtemp(prefix="thunkgrad_mutant_")
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    for rel in listed:
        if os.path.isfile(os.path.join(ROOT, rel)):
            os.makedirs(os.path.dirname(os.path.join(target, rel)) or target, exist_ok=True)
            shutil.copy2(os.path.join(ROOT, rel), os.path.join(target, rel))
    return target


def _pytest(copy, tests, timeout):
    """'passed', 'failed' or 'timeout' for the tests run against the copy's code."""
    env = dict(os.environ, PYTHONPATH=copy)
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "-o", "addopts=", *tests]
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "passed" if done.returncode == 0 else "failed"


def _baseline(copy, files, options):
    """The unmutated code must pass the tests that will judge the mutants."""
    stages = {tuple(t) for f in files for t in _stages_for(f, options)}
    for tests in sorted(stages):
        if _pytest(copy, list(tests), options.timeout * 5) != "passed":
            sys.exit(f"the tests {' '.join(tests)} fail on the unmutated code")


def _run_all(work, copies, options):
    free = list(copies)
    results = []

    def run(item):
        path, (line, what, text) = item
        copy = free.pop()
        try:
            outcome = _run_one(copy, path, text, _stages_for(path, options), options.timeout)
        finally:
            free.append(copy)
        if outcome == "passed":
            what = f"{what}   [{_changed_line(path, text)}]"
        results.append((path, line, what, outcome))
        mark = {"failed": "killed", "timeout": "killed (timeout)"}.get(outcome, "SURVIVED")
        print(f"{len(results):>5}/{len(work)} {mark:<16} {path}:{line}: {what}", flush=True)

    with ThreadPoolExecutor(len(copies)) as pool:
        list(pool.map(run, work))
    return results


def _run_one(copy, path, text, stages, timeout):
    """The outcome of the first stage that does not pass, or 'passed' (a survivor)."""
    target = os.path.join(copy, path)
    with open(target) as fh:
        original = fh.read()
    try:
        _write(target, text)
        for tests in stages:
            outcome = _pytest(copy, tests, timeout)
            if outcome != "passed":
                return outcome
        return "passed"
    finally:
        _write(target, original)


_STAMPS = itertools.count(1_000_000_000)


def _write(path, text):
    """Write a file with an mtime no other version of it had, so Python never runs a
    cached .pyc of another mutant (it checks mtime and size only)."""
    with open(path, "w") as fh:
        fh.write(text)
    stamp = next(_STAMPS)
    os.utime(path, (stamp, stamp))


def _changed_line(path, text):
    """The mutated line as it reads in the mutant (for the survivors' list)."""
    with open(os.path.join(ROOT, path)) as fh:
        before = ast.unparse(ast.parse(fh.read())).splitlines()
    changed = [ln for ln in difflib.unified_diff(before, text.splitlines(), lineterm="", n=0)
               if ln.startswith("+") and not ln.startswith("+++")]
    return " / ".join(ln[1:].strip() for ln in changed)[:160]


def _summary(results, report):
    survivors = sorted((p, ln, w) for p, ln, w, outcome in results if outcome == "passed")
    killed = len(results) - len(survivors)
    score = 100.0 * killed / len(results) if results else 100.0
    lines = [f"{killed} of {len(results)} mutants killed, mutation score {score:.1f}%",
             *(f"SURVIVED {p}:{ln}: {w}" for p, ln, w in survivors)]
    print("\n".join(["", *lines]))
    if report:
        with open(report, "w") as fh:
            fh.write(time.strftime("%Y-%m-%d %H:%M UTC\n", time.gmtime()) + "\n".join(lines)
                     + "\n")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
