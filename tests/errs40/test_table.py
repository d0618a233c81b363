"""Session 39 red team on bad input and refusals (errs40): ~100 programs (programs.py)
the way users write code thunkgrad cannot or should not differentiate (try/except,
with, async def, generators, global/nonlocal writes, writes into arguments, del,
walrus, match, f-strings, assert, __getattr__/__array_ufunc__ classes, C functions,
np.random, casts, recursion, wrong outputs), each through every public entry and
the CLI (check.py), against table.py. No entry may give a wrong value (central
differences), an internal exception or the CLI's "internal error"; a refusal is a
TransformError at the program's own line with advice. ~9 s CPU in all."""
import pytest

from tests.errs40 import check
from tests.errs40.table import EXPECTED, NOT_IDEAL

CODES = {"OK": "o", "PASS": "p", "REFUSED": "R", "TYPE": "T", "ERROR": "E", "CHECKED": "C",
         "DUMPED": "d", "DUMP-REFUSED": "r", "NOFD": "N", "INTERNAL": "I", "DEEP": "D"}


def test_every_program_is_in_the_table():
    assert sorted(check.program_names()) == sorted(EXPECTED)
    assert len(EXPECTED) >= 80


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_program(name):
    seen, details = [], []
    for entry in check.ENTRIES:
        status, detail = check.run(name, entry)
        seen.append(CODES.get(status, "?"))
        details.append(f"{entry}: {status} {detail[:300]}")
    seen.append(" ")
    for mode in check.MODES:
        status, detail = check.run_cli(name, mode)
        seen.append(CODES.get(status, "?"))
        details.append(f"{mode}: {status} {detail[:300]}")
    got = "".join(seen)
    assert got == EXPECTED[name], "\n".join([f"{name}: {got} != {EXPECTED[name]}", *details])
    assert not set(got) & set("ENI") or name in NOT_IDEAL, name
