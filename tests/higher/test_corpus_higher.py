"""Grad of grad on the corpus's scalar cases (tests/higher/corpus_run.py; every second
case by name, to keep the run near 30 s: `python -m tests.higher.corpus_run 1` runs
them all, 375 pass, 701 refused, 0 wrong in session 33; the half: 384 pass, 156 refused,
58 skipped, 0 wrong in session 34; 430 pass, 110 refused in session 35): no second
derivative differs from finite differences of the first, none fails with another
exception; what the route cannot take is refused. The pass count may only grow."""
import contextlib
import io

from tests.forward.sweep import assert_corpus
from tests.higher.corpus_run import run_all


def test_corpus_grad_of_grad():
    with contextlib.redirect_stdout(io.StringIO()):       # cases that print
        results = run_all()
    assert_corpus(results, floor=509)             # 194 before session 34, 384 after it, 509 in 35
