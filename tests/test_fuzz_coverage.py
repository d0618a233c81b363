"""The fuzzer's grammar covers the supported subset (tests/fuzz/coverage.py): every row of
README's supported table, every NumPy rule family and every issue-13 pattern has
productions, and a sample of every class draws each of them."""
import pathlib
import re

import pytest

from tests.fuzz import coverage

ROOT = pathlib.Path(__file__).resolve().parents[1]
DRAWN = {}


def drawn():
    if not DRAWN:
        DRAWN.update(coverage.drawn(coverage.sample()))
    return DRAWN


def readme_rows(status="supported"):
    """(construct, status) cells of table rows whose status cell starts with `status`, in
    README.md and docs/*.md (wherever the table lives after a restructuring)."""
    rows = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in path.read_text().splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and len(cells) == 2 and cells[1].startswith(status):
                rows.append((_plain(cells[0]), cells[1]))
    return rows


def readme_supported_rows():
    return [construct for construct, _ in readme_rows("supported")]


def _plain(cell):
    text = re.sub(r"\s*\(see [^)]*\)", "", cell.replace("`", ""))
    return " ".join(text.split())


@pytest.mark.parametrize("row", coverage.required())
def test_every_supported_construct_has_productions_and_each_is_drawn(row):
    productions = coverage.required()[row]
    assert productions, f"{row!r} has no production in tests/fuzz/coverage.py"
    never = [p for p in productions if not drawn()[p]]
    assert not never, f"{row!r}: productions never drawn in the sample: {never}"


def test_every_row_of_the_readme_table_is_in_the_coverage_list():
    rows = readme_supported_rows()
    missing = [r for r in rows if r not in coverage.SUPPORTED]
    assert not missing, ("README rows marked supported without an entry in "
                         f"tests/fuzz/coverage.py SUPPORTED (add them with productions): {missing}")


def test_constructs_reads_productions_from_source():
    source = ("def f(x, a):\n    if x > 0:\n        y = x\n    elif -1 < x < 1:\n"
              "        y = -x\n    else:\n        y = a @ a\n    b = a.copy()\n"
              "    b[a > 0] = 0.0\n    return np.einsum('i,i->', b, a) + y\n")
    found = coverage.constructs("import numpy as np\n\n\n" + source)
    assert {"elif", "chained_comparison", "matmul_operator", "mask_write", "element_write",
            "numpy:linalg", "unary_minus", "if_else"} <= found
    assert "for_zip" not in found and "closure" not in found


def _listed(row, table):
    return next((key for key in table if row.startswith(key)), None)


def test_every_works_row_of_the_readme_table_is_fuzzed_or_listed_as_not_yet():
    rows = [construct for construct, _ in readme_rows("works")]
    assert rows, "README's supported table has no row marked works: the reader is broken"
    missing = [r for r in rows if not _listed(r, coverage.WORKS)
               and not _listed(r, coverage.UNFUZZED)]
    assert not missing, ("README rows marked works in neither WORKS (with productions) nor "
                         f"UNFUZZED (with the reason) of tests/fuzz/coverage_rows.py: {missing}")


def test_a_fuzzed_works_row_does_not_say_it_is_not_fuzzed():
    stale = [construct for construct, status in readme_rows("works")
             if _listed(construct, coverage.WORKS) and "not yet in the fuzzer" in status]
    assert not stale, f"README says these rows are not fuzzed, but they are: {stale}"


def test_every_works_and_unfuzzed_key_matches_a_readme_row():
    rows = [construct for construct, _ in readme_rows("works")]
    stale = [key for key in [*coverage.WORKS, *coverage.UNFUZZED]
             if not any(r.startswith(key) for r in rows)]
    assert not stale, f"keys of tests/fuzz/coverage_rows.py matching no README row: {stale}"
