"""Every template is one expression over the names the compiler can inline:
g, ans, the rule's parameters, np, math and registered template helpers."""
import ast
import builtins

import pytest

import runtime
from runtime import registry

TEMPLATE_RULES = [rule for rule in registry._RULES.values() if rule.kind == "template"]
ALLOWED_BUILTINS = {"None", "True", "False", "tuple", "len", "range", "isinstance", "float", "int"}


@pytest.mark.parametrize("rule", TEMPLATE_RULES, ids=[r.name for r in TEMPLATE_RULES])
def test_template_names_are_known(rule):
    for param, template in rule.templates.items():
        tree = ast.parse(template, mode="eval")
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        bound = {n.id for n in ast.walk(tree)  # comprehension variables
                 if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        unknown = names - bound - {"g", "ans"} - set(rule.params) - set(runtime.TEMPLATE_NAMESPACE)
        assert unknown <= ALLOWED_BUILTINS and not (unknown - set(dir(builtins))), \
            f"{rule.name}({param}): unknown names {unknown}"
        rule.vjp_function(param)   # compiles
