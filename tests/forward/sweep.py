"""What every corpus sweep through a mode asserts (jvp, jacfwd/jacrev, hvp, grad of
grad): `results` are (name, outcome, detail) with outcome "pass", "refused", "wrong",
"error" or "skipped"."""


def assert_corpus(results, floor, loud=frozenset()):
    """No result is wrong; only the cases in `loud` fail with an exception other than a
    refusal (that set may only shrink); at least `floor` pass (that count may only grow)."""
    wrong = [(n, d) for n, outcome, d in results if outcome == "wrong"]
    assert not wrong, wrong
    errors = {n: d for n, outcome, d in results if outcome == "error"}
    assert set(errors) <= set(loud), sorted((n, errors[n]) for n in set(errors) - set(loud))
    passed = sum(outcome == "pass" for _, outcome, _ in results)
    assert passed >= floor, (passed, floor)
