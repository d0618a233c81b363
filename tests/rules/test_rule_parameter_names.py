"""Every rule of thunkgrad's own functions (runtime's template helpers) declares the
parameter names its def uses: a call by keyword with the declared names (forward mode's
tidy, a template's own call of the function) reached `unbroadcast(grad=...)` on a def
taking `g` and crashed ("unexpected keyword argument"; red39, 38 helpers). A template's
own names for the cotangent and the output are `g` and `ans`, so the helpers call those
parameters `slopes`, `slopes_g`, `answer`, ... in both places."""
import inspect

import numpy as np

import runtime
import transform  # noqa: F401  (registers every rule)
from runtime import registry
from runtime.rules import SCIPY_FAMILIES, load_family


def _own_rules():
    for families in SCIPY_FAMILIES.values():        # (else registered once SciPy is used)
        for family in families:
            load_family(family)
    for rule in list(registry._RULES.values()):
        if rule.params and inspect.isfunction(rule.fn) and \
                (rule.fn.__module__ or "").split(".")[0] in ("runtime", "transform"):
            yield rule


def test_declared_parameters_are_the_defs_own():
    rules = list(_own_rules())
    assert len(rules) > 50                      # the scan sees the helpers at all
    wrong = {rule.name: (rule.params, list(inspect.signature(rule.fn).parameters))
             for rule in rules
             if list(inspect.signature(rule.fn).parameters)[:len(rule.params)] != rule.params}
    assert not wrong


def test_a_helper_called_by_its_declared_names():
    """unbroadcast, called by keyword as its rule declares it, sums a broadcast slope."""
    rule = registry.lookup(runtime.helpers.unbroadcast)
    slopes = np.ones((3, 2))
    out = rule.fn(**dict(zip(rule.params, (slopes, np.ones(2)))))
    assert out.tolist() == [3.0, 3.0]
