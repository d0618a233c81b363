"""docs/rules.md is generated from the registry and must stay in sync with it."""
import importlib.util
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _rule_table():
    spec = importlib.util.spec_from_file_location("rule_table", ROOT / "tools" / "rule_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The tables list every rule, so they are written on a NumPy that has every function
# with a rule (2.2+: np.matvec is the newest); an older NumPy registers fewer rules.
# SciPy's rules are listed too, and `math` grows with Python (exp2 in 3.11, sumprod in
# 3.12, fma in 3.13): the tables are written on the development Python, 3.11.
written_here = pytest.mark.skipif(
    not hasattr(np, "matvec") or importlib.util.find_spec("scipy") is None
    or sys.version_info[:2] != (3, 11), reason="the rule tables are written on NumPy 2.2+ "
    f"with SciPy and Python 3.11; this is NumPy {np.__version__}, Python "
    f"{sys.version.split()[0]}")


def _fresh_tables():
    """(docs/rules.md, the README) as `tools/rule_table.py --write` would write them, in
    a fresh process: the registry of this one holds whatever the tests that ran before
    here registered or loaded (the suite runs in any order, on several workers)."""
    code = ("import json, sys; sys.path.insert(0, 'tools'); import rule_table as t; "
            "print(json.dumps([t.render(), t.readme_with_table(t.README.read_text())]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


@written_here
def test_docs_rules_md_and_the_readme_table_are_up_to_date():
    doc, readme = _fresh_tables()
    assert (ROOT / "docs" / "rules.md").read_text() == doc, \
        "docs/rules.md is stale: run `python tools/rule_table.py --write`"
    assert (ROOT / "README.md").read_text() == readme, \
        "the README rule table is stale: run `python tools/rule_table.py --write`"


def test_at_least_180_numpy_functions_are_covered():
    rows = _rule_table().numpy_rows()     # one row per function: aliases and methods share it
    assert len(rows) >= 180
    assert {family for family, *_ in rows} >= {"elementwise", "reductions", "linalg",
                                                 "decompositions", "shape", "indexing",
                                                 "constructors", "nondiff"}


def test_every_rule_has_a_family():
    table = _rule_table()
    assert all(family != "user" for family, *_ in table.numpy_rows() + table.python_rows())


def _coverage():
    spec = importlib.util.spec_from_file_location("public_coverage",
                                                  ROOT / "tools" / "public_coverage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("prefix, name, group, note", [
    ("np", "sin", "covered", ""), ("np", "argmax", "no derivative", "zero"),
    ("np", "ones_like", "no derivative", "shape"), ("np", "arange", "not yet covered", "refused"),
    ("math", "floor", "no derivative", "zero"), ("math", "hypot", "covered", ""),
    ("np.linalg", "norm", "covered", ""), ("np", "piecewise", "covered", "")])
def test_public_functions_are_sorted_by_their_rules(prefix, name, group, note):
    coverage = _coverage()
    assert coverage.classify(prefix, name, coverage.public_functions(prefix)[name]) == \
        (group, note)


def test_public_lists_leave_out_classes_and_private_names():
    functions = _coverage().public_functions("np")
    assert "sin" in functions and "ndarray" not in functions and "float64" not in functions
    assert not any(name.startswith("_") for name in functions)


def test_every_public_function_is_in_exactly_one_group():
    coverage = _coverage()
    groups = coverage.library_coverage(("np", "math"))
    listed = [name for entries in groups.values() for name, _ in entries]
    assert len(listed) == len(set(listed))
    assert len(listed) == len(coverage.public_functions("np")) + \
        len(coverage.public_functions("math"))


@written_here
def test_the_closing_note_gives_the_three_counts():
    text = (ROOT / "docs" / "rules.md").read_text()
    note = text.strip().splitlines()[-1]
    assert "covered" in note and "no derivative" in note and "not yet covered" in note
    headers = [line for line in text.splitlines() if line.startswith("### ")]
    assert {h.split(" (")[0][4:] for h in headers} >= {"NumPy", "scipy.special", "math"}


def test_rows_name_the_arguments_differentiated():
    """Session 30 (lib30): issue 17 asks the table to say which arguments are
    differentiated: a template rule's parameters with a template, nothing else."""
    rows = {names[0]: args for _, names, _, args, _ in _rule_table().numpy_rows()}
    assert rows["np.random.gamma"] == "`scale`"          # not the shape: no rule
    assert rows["np.where"] == "`x`, `y`"                # not the condition: zero
    assert rows["np.einsum"] == "custom rrule (see the notes)"
    assert rows["np.argmax"] == ""
