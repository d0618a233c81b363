"""Session 38, item 1: forward over reverse through a custom rule called with a constant
keyword (`leaky(X @ w, alpha=0.2)`, its JVP a function taking the keyword) was refused;
it now matches central second differences (red37's checks, tests/fd.py)."""
import pytest

from tests.red34.check import run_checked
from tests.red38.cases import all_cases
from tests.red38.check import CHECKS

CASES = all_cases()


@pytest.mark.parametrize("name", ["leaky_keyword", "leaky_default"])
@pytest.mark.parametrize("check", ["hvp_fr", "hvp_auto", "hessian_fr"])
def test_custom_rule_with_constant_keyword_forward_over_reverse(name, check):
    run_checked("noticed38", CHECKS, CASES[name], name, check, False)
