"""Every corpus case with float or float-array arguments through jacfwd and jacrev
(tests/forward/corpus_jacobians.py): the two agree to rounding and J v matches central
differences; what either does not cover is refused (a TransformError), none fails when
it runs (LOUD would list them). The pass count may only grow."""
import contextlib
import io

from tests.forward.corpus_jacobians import run_all
from tests.forward.sweep import assert_corpus

# failing when they run (not a TransformError): the set may only shrink
LOUD = set()


def test_corpus_through_jacfwd_and_jacrev():
    with contextlib.redirect_stdout(io.StringIO()):       # cases that print
        results = run_all()
    assert_corpus(results, floor=1071, loud=LOUD)   # 769 before session 34, 829 after it, 1071 in 35
