"""Every corpus case through check_grads, under every policy."""
import pytest

from transform.testing import check_grads

from .case import POLICIES, all_cases

CASES = all_cases()


def _params():
    for c in CASES:
        for policy in POLICIES:
            marks = []
            if c.xfail and policy in c.xfail_policies:
                marks.append(pytest.mark.xfail(strict=c.strict, reason=c.xfail))
            yield pytest.param(c, policy, id=f"{c.name}-{policy}", marks=marks)


@pytest.mark.parametrize("case, policy", list(_params()))
def test_case(case, policy):
    check_grads(case.fn, *case.inputs(), wrt=case.wrt, policies=(policy,), rtol=case.rtol,
                atol=case.atol, **case.kwargs)


def test_corpus_size():
    assert len(CASES) >= 150
    assert len({c.name for c in CASES}) == len(CASES), "corpus case names must be unique"
