"""The fuzz findings of issue 12 (tests/fuzz/findings.py, docs/fuzz_findings.md), each judged
by the fuzz oracle: the primal's value and gradient, or a TransformError before generated
code runs. Findings named in findings.OPEN are expected to fail until their fix merges."""
import pytest

from tests.fuzz.findings import FINDINGS, OPEN
from tests.fuzz.oracle import judge


def _param(finding):
    marks = [pytest.mark.xfail(reason=f"open: {finding.bug}", strict=False)] \
        if finding.name in OPEN else []
    return pytest.param(finding, id=finding.name, marks=marks)


@pytest.mark.parametrize("finding", [_param(f) for f in FINDINGS])
def test_finding_is_right_or_refused(finding):
    case = finding.case()
    verdict = judge(case)
    assert verdict.outcome in ("passed", "refused"), (
        f"{finding.bug}: {verdict.outcome}: {verdict.kind}\n{verdict.detail}\n"
        f"{case.describe()}")
