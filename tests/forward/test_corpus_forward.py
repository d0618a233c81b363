"""Every corpus case jvp takes (tests/forward/corpus_run.py) against finite differences:
no tangent differs from them; what forward mode does not cover is refused (a
TransformError), none fails when it runs (LOUD would list them).
The pass count may only grow."""
import contextlib
import io

from tests.forward.corpus_run import run_all
from tests.forward.sweep import assert_corpus

# refused when they run (a TypeError, not a TransformError): the set may only shrink
LOUD = set()


def test_corpus_through_jvp():
    with contextlib.redirect_stdout(io.StringIO()):       # cases that print
        results = run_all()
    assert_corpus(results, floor=1077, loud=LOUD)   # 806 in session 33, 835 in 34, 1077 in 35
