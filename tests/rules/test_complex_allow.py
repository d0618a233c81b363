"""The complex allow-list over the whole registry (runtime/complex_safety.py): every rule
that gives cotangents is either declared complex_ok and matches complex central
differences (real and imaginary parts of each input perturbed apart), or refuses a
complex value with ComplexRefused, never a number. Parametrised over every registered
rule, so a new rule is checked the day it is added."""
import numpy as np
import pytest

import runtime
from runtime.complex_safety import ComplexRefused
from tests.optional_scipy import HAVE_SCIPY
from tests.rules.complex_allow_cases import (check_complex, complex_only_examples,
                                             differentiable_rules, examples)

EXAMPLES = examples()
for _fn, _calls in complex_only_examples().items():
    EXAMPLES.setdefault(runtime.lookup(_fn), []).extend(_calls)

# complex_ok rules whose cotangent is a container's structure (a list, a dict, a record,
# a closure's env), linear, or whose arguments are a factor pair (lu, piv): checked on
# whole programs against central differences where named
_CONTAINERS = "tests/rules/test_complex_containers.py"
PROGRAM_CHECKED = dict.fromkeys((
    "_operator.getitem", "builtins.list", "builtins.tuple", "builtins.sorted",
    "builtins.getattr", "_operator.or_", "dict.copy", "dict.get", "dict.items", "dict.values", "list.copy",
    "runtime.closures.make_closure", "runtime.closures.make_partial",
    "runtime.containers.product_or_repeat", "runtime.containers.repeat_sequence",
    "runtime.containers.replace_fields", "runtime.rules.indexing.index_trick",
    "runtime.rules.operators_helpers.transposed", "numpy.row_stack"), _CONTAINERS)
PROGRAM_CHECKED.update(dict.fromkeys((
    "scipy.linalg._decomp_lu.lu_factor", "scipy.linalg._decomp_lu.lu_solve")
    if HAVE_SCIPY else (), "tests/rules/test_mutants_scipy_linalg_more.py"))
PROGRAM_CHECKED.update(dict.fromkeys((      # session 30 (py30b): zip/reversed, copies
    "builtins.dict", "copy.copy", "copy.deepcopy", "runtime.rules.sequences_helpers.in_order",
    "runtime.rules.sequences_helpers.reversed_items"), "tests/runtime/test_sequences30.py"))
PROGRAM_CHECKED["runtime.attributes.with_attribute"] = "tests/runtime/test_attributes.py"
PROGRAM_CHECKED.update(dict.fromkeys((     # session 34: a real matrix only (complex refused)
    "scipy.linalg._decomp.eig", "scipy.linalg._decomp.eigvals") if HAVE_SCIPY else (),
    "tests/rules/test_scipy_linalg_eig.py"))
STRUCTURAL = set(PROGRAM_CHECKED)

RULES = differentiable_rules()


def _id(rule):
    return rule.name


@pytest.mark.parametrize("rule", RULES, ids=_id)
def test_rule_is_complex_checked_or_refuses(rule):
    calls = EXAMPLES.get(rule, [])
    if rule.complex_ok:
        if rule.name in STRUCTURAL:
            return
        assert calls, f"{rule.name} is declared complex_ok but has no complex example"
        for args, kwargs, positions in calls[:4]:
            check_complex(rule.fn, args, kwargs, positions)
        return
    for args, kwargs, _ in calls[:2]:
        _refuses(rule, args, kwargs)


def _refuses(rule, args, kwargs):
    """Refused: by NumPy or SciPy in the forward (no value to be wrong), or by the rule."""
    try:
        with np.errstate(all="ignore"):
            rule.fn(*args, **kwargs)
    except Exception:               # the function itself takes no complex value
        return
    with pytest.raises(ComplexRefused, match="real values"):
        out, pullback = rule.rrule(*args, **kwargs)
        g = np.ones_like(out) if isinstance(out, np.ndarray) else 1.0
        [runtime.unthunk(c) for c in pullback(g)]


def test_every_complex_ok_rule_is_driven():
    undriven = sorted(r.name for r in RULES if r.complex_ok and r.name not in STRUCTURAL
                      and not EXAMPLES.get(r))
    assert not undriven


def test_program_checked_names_are_registered_complex_ok_rules_with_tests():
    import pathlib
    names = {r.name for r in RULES if r.complex_ok}
    assert STRUCTURAL <= names, sorted(STRUCTURAL - names)
    root = pathlib.Path(__file__).resolve().parents[2]
    for name, where in PROGRAM_CHECKED.items():
        assert (root / where).exists(), (name, where)


def test_rules_known_wrong_for_complex_values_are_not_complex_ok():
    from runtime.complex_safety import INSTEAD
    wrong = [r.name for r in RULES if r.name in INSTEAD and r.complex_ok]
    assert not wrong


@pytest.mark.parametrize("rule", [r for r in RULES if not r.complex_ok], ids=_id)
def test_rule_not_complex_ok_refuses_a_complex_value_before_its_math(rule):
    # every template, called as Rule.rrule calls it, given a complex argument
    if rule.kind == "custom":
        with pytest.raises(ComplexRefused):
            rule.rrule(np.array([1.0 + 2.0j, 0.5j]))
        return
    own = [p for p in rule.params if p not in ("g", "ans")]
    for param in rule.templates:
        values = dict.fromkeys(own)
        if param in values:
            values[param] = np.array([1.0 + 2.0j, 0.5j])
        with pytest.raises(ComplexRefused, match=r"real values only.*Instead"):
            rule.vjp_function(param)(np.ones(2), np.array([0.5j, 1.0]), **values)
