"""The checked-in golden texts (tests/golden/passes/, tests/golden/adjoints/) are what
the compiler generates now. A failure shows the difference; if the change of generated
code is meant, `python -m tests.golden.regen` rewrites the files for review."""
import difflib

import pytest

from tests.golden.golden import PASS_GOLDENS, golden_files, pass_texts

FILES = golden_files()


@pytest.mark.parametrize("path, text", FILES, ids=[p.stem for p, _ in FILES])
def test_generated_code_matches_golden(path, text):
    assert path.exists(), f"{path} is missing: run python -m tests.golden.regen"
    expected, actual = path.read_text(), text()
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            "golden", "generated now"))
        pytest.fail(f"{path.name} differs from the generated code "
                    f"(python -m tests.golden.regen if meant):\n{diff}")


@pytest.mark.parametrize("golden", PASS_GOLDENS, ids=[g.name for g in PASS_GOLDENS])
def test_each_pass_golden_shows_the_pass_at_work(golden):
    before, after = pass_texts(golden)
    assert before != after, f"{golden.name} leaves its golden input unchanged"


def test_every_pass_but_the_hand_written_one_has_a_golden_file():
    from transform.optimize.optimize import FINISH, PASSES
    named = {g.name for g in PASS_GOLDENS}
    assert {repr(p) for p in PASSES + FINISH} - named == {"InlineForcedThunks"}
