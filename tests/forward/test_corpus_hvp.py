"""Every scalar-output corpus case hvp takes (tests/forward/corpus_hvp.py) against
central differences of grad: no H v differs from them; what the reverse-over-forward
route does not cover is refused (a TransformError), none fails when it runs (LOUD would
list them). The pass count may only grow."""
import contextlib
import io

from tests.forward.corpus_hvp import run_all
from tests.forward.sweep import assert_corpus

# failing when they run (not a TransformError): the set may only shrink
LOUD = set()


def test_corpus_through_hvp():
    with contextlib.redirect_stdout(io.StringIO()):       # cases that print
        results = run_all()
    assert_corpus(results, floor=888, loud=LOUD)   # 659 before s34, 795 after it, 888 in s35
