"""The rules of reverse mode's cotangent helpers that forward over reverse
differentiates (runtime/rules/reverse_containers.py) on every example of
tests/rules/reverse_code_examples.py, not only the first one covering a parameter
(tests/rules/test_every_rule_checked.py, test_jvp_rules.py): each cotangent template
against central differences, each JVP term against differences and as the transpose
of its cotangent template."""
import numpy as np
import pytest

from runtime import registry
from tests.rules.checks import check_rule, frozen
from tests.rules.reverse_code_examples import REVERSE_CONTAINERS
from tests.rules.rule_examples import is_float_value
from tests.rules.test_jvp_rules import _against_cotangent, _against_differences

CHECKS = [(fn, k, param) for fn, examples in REVERSE_CONTAINERS.items()
          for k in range(len(examples)) for param in registry.lookup(fn).templates
          if is_float_value(examples[k][registry.lookup(fn).params.index(param)])]


def _id(check):
    fn, k, param = check
    return f"{fn.__name__}-{k}-{param}"


@pytest.mark.parametrize("check", CHECKS, ids=_id)
def test_every_example(check):
    fn, k, param = check
    rule, args = registry.lookup(fn), list(REVERSE_CONTAINERS[fn][k])
    with np.errstate(all="ignore"):
        check_rule(fn, args, {}, argnums=[rule.params.index(param)])
    _against_differences(rule, param, [frozen(a) for a in args], {})
    _against_cotangent(rule, param, [frozen(a) for a in args], {})
