"""Which tests can see a mutant: per-test line coverage for tools/mutate.py.

The suite's coverage is measured once, with one context per test case (`coverage run`
with tools/mutate_cov_plugin.py, which names the context by node id), and cached. A
mutant on a line that only runs inside function bodies can change the behaviour of only
the tests that execute that line, so those tests are the first stage that judges it:

    runtime/helpers.py:42 (inside `unbroadcast`)  ->  the 37 tests that ran line 42
    a line no test runs                             ->  "not covered" (never "killed")
    a line run at import or collection (context "") or a rule template
                                                    ->  the staged test lists, as before

This keeps judging exactly as strong for the tests that run (every test that executes
the line is in the stage) and makes it far cheaper: a rule helper's mutant runs a few
dozen tests instead of all of tests/rules. `--confirm` also runs the wide stages on a
mutant the covering tests let through (a compile cache can hide a line's later users).
"""
import ast
import json
import os
import subprocess
import sys
import tempfile

from tools.mutations import _template

SUITE = ["tests/rules", "tests/runtime", "tests/loop_pass", "tests/control",
         "tests/containers", "tests/corpus", "tests/optimize", "tests/api", "tests/harness"]


def available():
    """Whether coverage.py is installed (the dev extra lists it)."""
    try:
        import coverage  # noqa: F401
    except ImportError:
        return False
    return True


def load(root, path, refresh=False):
    """{file: {line: set of pytest node ids}} from the cached coverage at `path`,
    measured first if missing, stale (a runtime/ or tests/ file is newer) or `refresh`."""
    if refresh or _stale(root, path):
        _measure(root, path)
    with open(path) as fh:
        data = json.load(fh)
    return {f: {int(ln): set(ids) for ln, ids in lines.items()} for f, lines in data.items()}


def _stale(root, path):
    if not os.path.exists(path):
        return True
    made = os.path.getmtime(path)
    for top in ("runtime", "tests"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            if any(n.endswith(".py") and os.path.getmtime(os.path.join(folder, n)) > made
                   for n in names):
                return True
    return False


def _measure(root, path):
    print(f"measuring per-test coverage of runtime/ over {' '.join(SUITE)} ...", flush=True)
    work = tempfile.mkdtemp(prefix="thunkgrad_coverage_")
    rc = os.path.join(work, "rc")
    with open(rc, "w") as fh:
        fh.write(f"[run]\nsource = runtime\ndata_file = {work}/data\n")
    coverage = [sys.executable, "-m", "coverage"]
    subprocess.run([*coverage, "run", f"--rcfile={rc}", "-m", "pytest", "-q",
                    "-p", "no:cacheprovider", "-p", "tools.mutate_cov_plugin",
                    "-o", "addopts=", *SUITE], cwd=root, capture_output=True, check=False)
    report = os.path.join(work, "cov.json")
    subprocess.run([*coverage, "json", f"--rcfile={rc}", "--show-contexts", "-o", report],
                   cwd=root, capture_output=True, check=True)
    with open(path, "w") as fh:
        json.dump(from_report(root, report), fh)


def from_report(root, report):
    """`coverage json --show-contexts` output as {file: {line: [node ids]}}."""
    with open(report) as fh:
        files = json.load(fh)["files"]
    out = {}
    for name, data in files.items():
        rel = os.path.relpath(os.path.join(root, name), root)
        out[rel] = {ln: sorted(set(contexts))
                    for ln, contexts in data.get("contexts", {}).items()}
    return out


def line_map(source):
    """(deferred, statement): the lines that run only when a function is called (inside
    a function or lambda body, holding no code that runs at import: a decorator, a
    default, a rule template), and each line's innermost statement's first line
    (coverage reports a statement under its first line)."""
    tree = ast.parse(source)
    inside, outside, statement = set(), set(), {}

    def visit(node, in_body):
        if isinstance(node, ast.stmt):
            statement.update((ln, node.lineno)
                             for ln in range(node.lineno, node.end_lineno + 1))
        if _template(node) is not None:
            outside.add(node.lineno)        # a template: used by generated code
        elif hasattr(node, "lineno"):
            (inside if in_body else outside).add(node.lineno)
        for field, value in ast.iter_fields(node):
            body = in_body or (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                 ast.Lambda)) and field == "body")
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    visit(child, body)

    visit(tree, False)
    return inside - outside, statement


def tests_for(coverage, path, line, lines):
    """The node ids that ran `line` of `path` (`lines` is its line_map); None when the
    staged lists must judge it (a file not measured, a line that is not deferred or ran
    outside any test), an empty set when no test ran it."""
    deferred, statement = lines
    if line not in deferred or path not in coverage:     # only runtime/ is measured
        return None
    ran = coverage[path]
    ids = ran.get(line, set()) | ran.get(statement.get(line, line), set())
    if "" in ids:
        return None
    return ids
