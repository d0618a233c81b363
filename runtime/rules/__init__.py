"""Derivative rules by family, each family's template helpers beside it
(`<family>.py` and `<family>_helpers.py`); `register_all()`, which the runtime
package runs once it is imported, registers them all.

Every rule a family registers gets a `family` attribute naming its module, which
tools/rule_table.py uses to write docs/rules.md. The SciPy families register when
the user's code has imported SciPy (see SCIPY_FAMILIES).
"""
import importlib

from .. import registry

# Template helpers: registering them makes their names available to templates.
HELPER_MODULES = ("shape_helpers", "reductions_helpers", "elementwise_helpers",
                  "linalg_helpers", "einsum_helpers", "decompositions_helpers", "det_helpers",
                  "triangular_helpers",
                  "norm_helpers",
                  "constructors_helpers", "indexing_helpers", "operators_helpers",
                  "signals_helpers", "polynomials_helpers", "statistics_helpers", "fft_helpers",
                  "complex_helpers",
                  "factorizations_helpers", "layouts_helpers",
                  "ufunc_methods_helpers", "ufunc_outer_helpers", "quantiles_helpers",
                  "gathers_helpers", "sequences_helpers", "forward_helpers",
                  "forward_linalg_helpers", "tangents_helpers", "forward_container_helpers",
                  "prod_second_helpers", "own_methods_helpers", "second_order_helpers",
                  "reverse_containers_helpers", "decompositions_second_helpers",
                  "sort_second_helpers")
FAMILIES = ("operators", "math_module", "elementwise", "complex_parts", "reductions", "linalg",
            "decompositions", "shape", "indexing", "constructors", "random", "nondiff", "methods",
            "signals", "polynomials", "statistics", "factorizations",
            "layouts", "ufunc_methods", "ufunc_outer", "piecewise", "fft", "quantiles",
            "gathers", "linalg_more", "polynomials_more", "tangents", "vectorized", "ufunc_at_more",
            "second_order", "structural_tangents", "reverse_code", "reverse_containers")
FAMILIES += ("closure_cotangents",)     # (hvp forward over reverse: closures' cotangents)
FAMILIES += ("piecewise_second",)       # (reverse mode over np.piecewise's tangent)
FAMILIES += ("weights_second",)         # (reverse mode over np.average's and nanmean's tangents)
FAMILIES += ("quantiles_second",)       # (reverse mode over the order statistics' tangents)
FAMILIES += ("gradient_second",)        # (reverse mode over np.gradient's JVP function)
FAMILIES += ("signals_second",)         # (reverse mode over np.interp's slope in x)
FAMILIES += ("statistics_second",)      # (reverse mode over np.cov's tangent)
FAMILIES += ("complex_second",)         # (reverse mode over the angle's tangents)
FAMILIES += ("decompositions_second",)  # (hvp forward over reverse: solve's, cholesky's cotangents)
FAMILIES += ("outer_second",)           # (reverse mode over ufunc.outer's spread operands)
FAMILIES += ("indexing_second",)        # (reverse mode over np.r_'s and np.c_'s tangent)
FAMILIES += ("sort_second",)            # (hvp forward over reverse: a sort's cotangent)

# SciPy is optional, and slow to import: a SciPy family registers the first time a
# rule is looked up after the user's code imported its SciPy module (registry.lookup).
SCIPY_FAMILIES = {"scipy.special": ("scipy_special", "scipy_special_more",
                                    "scipy_special_extra"),
                  "scipy.stats": ("scipy_stats", "scipy_stats_more", "scipy_stats_extra",
                                  "scipy_stats_summaries"),
                  "scipy.linalg": ("scipy_linalg", "scipy_linalg_more", "scipy_linalg_extra",
                                   "scipy_linalg_factorizations", "scipy_linalg_eig"),
                  "scipy.signal": ("scipy_signal", "scipy_signal_extra"),
                  "scipy.integrate": ("scipy_integrate",)}


def load_family(family):
    importlib.import_module(f"{__name__}.{family}")
    # Rules have no public listing; tag the ones this module added (a re-registration
    # of an earlier function moves it to this family).
    for rule in registry._RULES.values():
        if getattr(rule, "family", None) is None:
            rule.family = family


def register_all():
    """Register every helper and family (the runtime's core helpers import helper
    modules from here, so families load after the package, not as it imports)."""
    for module in HELPER_MODULES:
        importlib.import_module(f"{__name__}.{module}")
    for family in FAMILIES:
        load_family(family)
    for trigger, families in SCIPY_FAMILIES.items():
        registry.register_when_imported(trigger, lambda families=families: [
            load_family(family) for family in families])
