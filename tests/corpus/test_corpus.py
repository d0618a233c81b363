"""Every corpus case under every policy against the finite-difference reference
(tests/gradcheck.py), or, for a `refused` case, a TransformError before any code runs."""
import pytest

from tests.gradcheck import POLICIES, check_function
from transform import TransformError

from .case import all_cases

CASES = all_cases()


def _params():
    for c in CASES:
        for policy in POLICIES:
            yield pytest.param(c, policy, id=f"{c.name}-{policy}")


@pytest.mark.parametrize("case, policy", list(_params()))
def test_case(case, policy):
    run = lambda: check_function(case.fn, case.inputs(), wrt=case.wrt,  # noqa: E731
                                 policy=policy, rtol=case.rtol, atol=case.atol,
                                 kwargs=case.kwargs)
    if case.refused and policy in case.policies:
        with pytest.raises(TransformError):
            run()
    else:
        run()


def test_corpus_size():
    assert len(CASES) >= 150
    assert len({c.name for c in CASES}) == len(CASES), "corpus case names must be unique"
