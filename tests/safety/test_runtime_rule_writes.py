"""The alias check does not read a runtime helper's source for writes when the helper has
a rule (transform/alias/summaries._own_rule): it is called through its rule. That is safe
only while no such helper writes into an argument; this scan keeps it proved. digamma's
`x += 1` rebinds a float parameter (the write the check once misread, session 38)."""
import inspect

import transform.api  # noqa: F401  (the rules the compiler registers)
import transform.flat_calls  # noqa: F401
from runtime import registry
from transform.alias import summaries

FLOAT_REBINDS = {"runtime.rules.math_module.digamma"}


def _writes(fn):
    try:
        reader = summaries._read(fn, summaries.WriteReader)
    except Exception as exc:  # noqa: BLE001  (a refusal while reading counts as a write)
        return str(exc)
    return {} if reader is None else reader.written


def test_no_runtime_helper_with_a_rule_writes_into_its_arguments():
    writing = {rule.name for rule in list(registry._RULES.values())
               if inspect.isfunction(rule.fn) and
               (rule.fn.__module__ or "").split(".")[0] == "runtime" and _writes(rule.fn)}
    assert writing <= FLOAT_REBINDS, sorted(writing - FLOAT_REBINDS)
