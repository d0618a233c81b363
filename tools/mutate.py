"""Mutation testing: plant one small bug at a time and check that the tests notice.

    python -m tools.mutate                        # rule templates, runtime, the FD reference
    python -m tools.mutate passes                 # the compiler passes (long)
    python -m tools.mutate runtime/thunks.py --tests tests/runtime --jobs 2
    make mutate TARGET="runtime/tape.py"

Each mutant (tools/mutations.py: an operator, comparison, constant, reversal, dropped
statement, or a change inside a rule template string) is written into a private copy of
the repository and judged by tests (`pytest -x`, with a timeout; a timeout counts as
killed). A mutant on a line that runs only inside functions is judged by exactly the
test cases that execute that line (tools/mutate_select.py, from cached per-test
coverage); no such test makes it "not covered", never "killed". Other mutants (rule
templates, module-level code) are judged by staged test lists, the mutated file's own
test module first (TESTS). Each pytest run is a fork of a server that imported NumPy,
SciPy and pytest once (tools/mutate_runner.py). Survivors and uncovered mutants are
printed with file, line and change; the mutation score is killed / all.
"""
import argparse
import ast
import difflib
import fnmatch
import functools
import glob
import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from tools import mutate_equivalent, mutate_select
from tools.mutate_runner import Runner
from tools.mutations import mutants

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS = {
    "rules": ["runtime/rules/*.py"],
    "runtime": ["runtime/*.py"],
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
_PASSES = [["tests/runtime", "tests/loop_pass", "tests/control/test_loops.py"],
           ["tests/control", "tests/corpus", "tests/containers", "tests/optimize"]]
TESTS = [
    ("tests/", [["tests/harness/test_reference.py", "tests/harness/test_reference_checks.py"],
                ["tests/harness"]]),                                       # the reference
    ("runtime/rules/*_helpers.py", [["tests/rules"],
                               ["tests/runtime", "tests/loop_pass", "tests/control/test_loops.py"],
                               ["tests/control", "tests/containers"]]),
    # a rule's traits (view, fresh, writes, full_reduction, numeric) show in the aliasing
    # checks and the generated code, not in the rules' own tests
    ("runtime/rules/", [["tests/rules/test_straightline.py", "tests/rules/test_templates.py"],
                        ["tests/golden", "tests/safety/test_alias_matrix.py"],
                        ["tests/rules"]]),
    # forward mode's run-time helpers (2026-12-02, session 32 (fwd))
    ("runtime/forward.py", [["tests/runtime/test_forward_helpers.py"], ["tests/forward"]]),
    ("runtime/", [["tests/runtime"],
                  ["tests/rules", "tests/loop_pass", "tests/control/test_loops.py"],
                  ["tests/control", "tests/containers"]]),
    # the aliasing check's refusals and the emitted text's tracebacks and limits are
    # tested in tests/safety and tests/reliability, which the wide stage leaves out
    ("transform/alias/", [*_PASSES, ["tests/safety"]]),
    ("transform/emit/", [*_PASSES, ["tests/safety", "tests/reliability"]]),
    ("transform/forward", [["tests/forward"]]),
    ("transform/", _PASSES),
]

# A rule file whose own tests are not (only) tests/rules/test_<file>.py
OWN_TESTS = {"runtime/rules/random.py": ["tests/safety/test_random_draws.py",
                                        "tests/safety/test_generator_draws.py"]}


def main(argv=None):
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # still remove the copies
    options = _parse(argv)
    files = _files(options.targets or DEFAULT_GROUPS)
    work = [(path, m) for path in files for m in _mutants_of(path, options.kinds)]
    if options.only:
        work = [(path, m) for path, m in work if f"{path}:{m[0]}" in set(options.only)]
    if options.limit:
        work = work[::max(1, len(work) // options.limit)][:options.limit]
    print(f"{len(work)} mutants in {len(files)} files, {options.jobs} jobs, "
          f"timeout {options.timeout:.0f} s", flush=True)
    if options.select and not mutate_select.available():
        print("coverage is not installed (pip install coverage): staged lists only")
        options.select = False
    options.coverage = (mutate_select.load(ROOT, options.coverage_file, options.measure)
                        if options.select and not options.tests else None)
    copies = [(_copy_repo(), Runner()) for _ in range(options.jobs)]
    started = time.monotonic()
    try:
        if not options.no_baseline:
            _baseline(copies[0], files, options)
        results = _run_all(work, copies, options)
    finally:
        for c, runner in copies:
            runner.close()
            shutil.rmtree(c, ignore_errors=True)
    elapsed = time.monotonic() - started
    print(f"{elapsed:.0f} s, {elapsed * options.jobs / max(1, len(work)):.2f} s a mutant a job")
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
    p.add_argument("--no-select", dest="select", action="store_false",
                   help="judge every mutant by the staged lists only (no per-test coverage)")
    p.add_argument("--confirm", action="store_true", help="run the staged lists too on a "
                   "mutant that the tests covering its line let through")
    p.add_argument("--coverage-file", default=os.path.join(ROOT, ".mutate_coverage.json"),
                   help="the cached per-test coverage (tools/mutate_select.py)")
    p.add_argument("--measure", action="store_true", help="measure the coverage again")
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
    stages = next(stages for prefix, stages in TESTS
                  if path.startswith(prefix) or fnmatch.fnmatch(path, prefix))
    own = OWN_TESTS.get(path, [os.path.join("tests", "rules", "test_" + os.path.basename(path))])
    if path.startswith("runtime/rules/") and os.path.exists(os.path.join(ROOT, own[0])):
        pinned = os.path.join("tests", "rules", "test_mutants_" + os.path.basename(path))
        own = own + [pinned] if os.path.exists(os.path.join(ROOT, pinned)) else own
        return [own, *stages]              # a rule file's own tests first
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


def _baseline(job, files, options):
    """The unmutated code must pass the tests that will judge the mutants."""
    copy, runner = job
    stages = {tuple(t) for f in files for t in _stages_for(f, options)}
    for tests in sorted(stages):
        if runner.pytest(copy, list(tests), options.timeout * 5) != "passed":
            sys.exit(f"the tests {' '.join(tests)} fail on the unmutated code")


def _run_all(work, jobs, options):
    free = list(jobs)
    results = []
    lines = {path: mutate_select.line_map(_read(os.path.join(ROOT, path)))
             for path in {p for p, _ in work}}
    equivalent = mutate_equivalent.load()

    def run(item):
        path, (line, what, text) = item
        changed = _changed_line(path, text)
        reason = equivalent_reason(equivalent, path, line, what, changed)
        if reason is not None:
            outcome = "equivalent"
        else:
            job = free.pop()
            try:
                outcome = _run_one(job, path, text, _plan(path, line, lines[path], options),
                                   options.timeout)
            finally:
                free.append(job)
        if outcome in ("passed", "uncovered", "equivalent"):
            what = f"{what} [{changed}]"
        results.append((path, line, what, outcome))
        mark = {"failed": "killed", "timeout": "killed (timeout)", "equivalent": "equivalent",
                "uncovered": "NOT COVERED"}.get(outcome, "SURVIVED")
        print(f"{len(results):>5}/{len(work)} {mark:<16} {path}:{line}: {what}", flush=True)

    with ThreadPoolExecutor(len(jobs)) as pool:
        list(pool.map(run, work))
    return results


def _plan(path, line, line_map, options):
    """The test stages for a mutant on `line`: the tests that ran the line (then, with
    --confirm, the staged lists), or the staged lists; [] when no test runs the line."""
    staged = _stages_for(path, options)
    if options.coverage is None or options.tests:
        return staged
    ids = mutate_select.tests_for(options.coverage, path, line, line_map)
    if ids is None:
        return staged
    if not ids:
        return []
    return [*_nearest_first(path, ids, staged), *(staged if options.confirm else [])]


def _nearest_first(path, ids, staged, modules=2):
    """The covering test cases in two stages: those in the `modules` test modules nearest
    the mutated file (named after it, else in the order of its staged lists), then the
    rest. Most mutants die in the first, which collects one or two modules, not dozens."""
    order = [t for stage in staged for t in stage]
    topic = os.path.basename(path)[:-3].replace("_helpers", "")   # shape_helpers -> shape

    def rank(module):
        near = [k for k, t in enumerate(order) if module == t or module.startswith(t + "/")]
        named = os.path.basename(module) == f"test_{topic}.py"
        return (not named, near[0] if near else len(order), module)

    by_module = {}
    for node in sorted(ids):
        by_module.setdefault(node.split("::")[0], []).append(node)
    nearest = sorted(by_module, key=rank)
    first = [n for m in nearest[:modules] for n in by_module[m]]
    rest = [n for m in nearest[modules:] for n in by_module[m]]
    return [first, rest] if rest else [first]


def _run_one(job, path, text, stages, timeout):
    """The outcome of the first stage that does not pass, 'passed' (a survivor) or
    'uncovered' (no test runs the mutated line)."""
    if not stages:
        return "uncovered"
    copy, runner = job
    target = os.path.join(copy, path)
    original = _read(target)
    try:
        _write(target, text)
        for tests in stages:
            outcome = runner.pytest(copy, tests, timeout)
            if outcome != "passed":
                return outcome
        return "passed"
    finally:
        _write(target, original)


def _read(path):
    with open(path) as fh:
        return fh.read()


_STAMPS = itertools.count(1_000_000_000)


def _write(path, text):
    """Write a file with an mtime no other version of it had, so Python never runs a
    cached .pyc of another mutant (it checks mtime and size only)."""
    with open(path, "w") as fh:
        fh.write(text)
    stamp = next(_STAMPS)
    os.utime(path, (stamp, stamp))


def _changed_line(path, text):
    """The mutated line(s) as they read in the mutant (the survivors' list, the key of
    an equivalent mutant)."""
    before = _unparsed(path)
    changed = [ln for ln in difflib.unified_diff(before, text.splitlines(), lineterm="", n=0)
               if ln.startswith("+") and not ln.startswith("+++")]
    return " / ".join(ln[1:].strip() for ln in changed)


def equivalent_reason(equivalent, path, line, what, changed):
    """The listed reason a mutant is equivalent, or None. A decorator's mutant is looked
    up first with the function it decorates named (`[@helper(in_place=False) def
    accumulate_at]`), then as the line alone (which matches every identical decorator)."""
    named = _decorated(path).get(line)
    reason = equivalent.get(mutate_equivalent.key(path, what, f"{changed} def {named}")) \
        if named else None
    return reason if reason is not None else \
        equivalent.get(mutate_equivalent.key(path, what, changed))


@functools.lru_cache(maxsize=None)
def _decorated(path):
    """{a decorator's line: the name of the function or class it decorates}, so that an
    equivalent entry can name one of several identical decorator lines
    (`[@helper(in_place=False) def accumulate_at]`)."""
    out = {}
    for node in ast.walk(ast.parse(_read(os.path.join(ROOT, path)))):
        for decorator in getattr(node, "decorator_list", ()):
            out[decorator.lineno] = node.name
    return out


@functools.lru_cache(maxsize=None)
def _unparsed(path):
    return ast.unparse(ast.parse(_read(os.path.join(ROOT, path)))).splitlines()


def _summary(results, report):
    def fate(name):
        return sorted((p, ln, w) for p, ln, w, outcome in results if outcome == name)

    survivors, uncovered, equivalent = fate("passed"), fate("uncovered"), fate("equivalent")
    killed = len(results) - len(survivors) - len(uncovered) - len(equivalent)
    judged = len(results) - len(equivalent)
    score = 100.0 * killed / judged if judged else 100.0
    lines = [f"{killed} of {judged} mutants killed, {len(survivors)} survived, "
             f"{len(uncovered)} not covered by any test; mutation score {score:.1f}% "
             f"({len(equivalent)} more are equivalent: tools/equivalent_mutants.txt)",
             *(f"SURVIVED {p}:{ln}: {w}" for p, ln, w in survivors),
             *(f"NOT COVERED {p}:{ln}: {w}" for p, ln, w in uncovered),
             *(f"equivalent {p}:{ln}: {w}" for p, ln, w in equivalent)]
    print("\n".join(["", *lines]))
    if report:
        with open(report, "w") as fh:
            fh.write(time.strftime("%Y-%m-%d %H:%M UTC\n", time.gmtime()) + "\n".join(lines)
                     + "\n")
    return 1 if survivors or uncovered else 0


if __name__ == "__main__":
    sys.exit(main())
