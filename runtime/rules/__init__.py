"""Derivative rules by family; importing this package registers them all.

Each family is one module; every rule it registers gets a `family` attribute
naming that module, which tools/rule_table.py uses to write docs/rules.md.
"""
import importlib

from .. import registry
# Template helpers: registering them makes their names available to templates.
from .. import (rule_helpers_shape, rule_helpers_reduce, rule_helpers_elementwise,  # noqa: F401
                rule_helpers_linalg, rule_helpers_einsum, rule_helpers_decomp,
                rule_helpers_norm, rule_helpers_ranges, rule_helpers_concat)

FAMILIES = ("operators", "math_module", "elementwise", "reductions", "linalg", "decompositions", "shape",
            "indexing", "constructors", "random", "nondiff", "methods")

try:                                   # SciPy is optional: its rules register if it imports
    import scipy.special  # noqa: F401
    FAMILIES += ("scipy_special", "scipy_stats")
except ImportError:
    pass

for _family in FAMILIES:
    importlib.import_module(f"{__name__}.{_family}")
    # Rules have no public listing; tag the ones this module added (a re-registration
    # of an earlier function moves it to this family).
    for _rule in registry._RULES.values():
        if getattr(_rule, "family", None) is None:
            _rule.family = _family
