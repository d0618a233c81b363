"""Derivative rules by family; importing this package registers them all.

Each family is one module; every rule it registers gets a `family` attribute
naming that module, which tools/rule_table.py uses to write docs/rules.md. The SciPy
families register when the user's code has imported SciPy (see SCIPY_FAMILIES).
"""
import importlib

from .. import registry
# Template helpers: registering them makes their names available to templates.
from .. import (rule_helpers_shape, rule_helpers_reduce, rule_helpers_elementwise,  # noqa: F401
                rule_helpers_linalg, rule_helpers_einsum, rule_helpers_decomp,
                rule_helpers_norm, rule_helpers_ranges, rule_helpers_concat,
                rule_helpers_builtins)

FAMILIES = ("operators", "math_module", "elementwise", "reductions", "linalg", "decompositions", "shape",
            "indexing", "constructors", "random", "nondiff", "methods")

# SciPy is optional, and slow to import: a SciPy family registers the first time a
# rule is looked up after the user's code imported its SciPy module (registry.lookup).
SCIPY_FAMILIES = {"scipy.special": "scipy_special", "scipy.stats": "scipy_stats",
                  "scipy.linalg": "scipy_linalg"}


def load_family(family):
    importlib.import_module(f"{__name__}.{family}")
    # Rules have no public listing; tag the ones this module added (a re-registration
    # of an earlier function moves it to this family).
    for rule in registry._RULES.values():
        if getattr(rule, "family", None) is None:
            rule.family = family


for _family in FAMILIES:
    load_family(_family)
for _trigger, _family in SCIPY_FAMILIES.items():
    registry.register_when_imported(_trigger, lambda family=_family: load_family(family))
