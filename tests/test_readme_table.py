"""README's "Supported subset" table names its evidence: every corpus file and test file
a row's status cites exists, and every cited corpus module is imported by
tests/corpus/modules.py (so its cases run under every policy)."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def table_rows():
    text = (ROOT / "README.md").read_text()
    start = text.index("## Supported subset")
    end = text.index("###", start)
    return [line for line in text[start:end].splitlines()
            if line.startswith("|") and not line.startswith("|---")][1:]


def cited(row):
    """(corpus module names, test paths) the row's status cell names."""
    status = row.strip().strip("|").rsplit("|", 1)[-1]
    corpus = [m for group in re.findall(r"corpus ((?:`\w+\.py`(?:, | and )?)+)", status)
              for m in re.findall(r"`(\w+)\.py`", group)]
    return corpus, re.findall(r"`(tests/[\w/*]+\.py)`", status)


def test_the_table_is_found():
    assert len(table_rows()) >= 30


@pytest.mark.parametrize("row", table_rows(), ids=lambda r: r[2:40])
def test_cited_evidence_exists(row):
    corpus, tests = cited(row)
    registered = (ROOT / "tests/corpus/modules.py").read_text()
    for module in corpus:
        assert (ROOT / "tests/corpus" / f"{module}.py").exists(), module
        assert re.search(rf"\b{module}\b", registered), f"{module} is not in modules.py"
    for path in tests:
        assert list(ROOT.glob(path)), path


def test_rows_of_this_round_cite_their_corpus():
    rows = {r.split("|")[1].strip()[:40]: cited(r)[0] for r in table_rows()}
    objects = [c for key, c in rows.items() if key.startswith("attribute reads on objects")]
    assert objects and {"receivers", "properties"} <= set(objects[0])
    records = [c for key, c in rows.items() if key.startswith("dataclasses and NamedTuples")]
    assert records and {"records", "constructors"} <= set(records[0])
