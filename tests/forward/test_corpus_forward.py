"""Every corpus case jvp takes (tests/forward/corpus_run.py) against finite differences:
no tangent differs from them; what forward mode does not cover is refused (a
TransformError) or, for the cases below, refused when it runs (a record's property).
The pass count may only grow."""
import contextlib
import io

from tests.forward.corpus_run import run_all

# refused when they run (a TypeError, not a TransformError): the list may only shrink
LOUD = {
    # a property's getter read on a record built here (runtime/forward.attribute_tangent:
    # "computed by code ... use vjp")
    "records.record_with_property_scalar", "records.record_with_property_array",
    "properties.property_of_record_built_here_scalar",
    "properties.property_of_record_built_here_array"}


def test_corpus_through_jvp():
    with contextlib.redirect_stdout(io.StringIO()):       # cases that print
        results = run_all()
    wrong = [(n, d) for n, outcome, d in results if outcome == "wrong"]
    assert not wrong, wrong
    errors = {n for n, outcome, _ in results if outcome == "error"}
    assert errors <= LOUD, sorted(errors - LOUD)
    passed = sum(outcome == "pass" for _, outcome, _ in results)
    assert passed >= 660, passed
