"""Example arguments for every registered rule, gathered from the rule tests' own tables
(tests/rules/test_*.py): `case(fn, *args, **kwargs)` entries, `(fn, x)` and
`(fn, (a, b))` pairs, and the scipy.stats points. tests/rules/test_every_rule_checked.py
drives every rule with them."""
import importlib
import pathlib

import numpy as np
import pytest

import runtime

HERE = pathlib.Path(__file__).resolve().parent


def _as_example(entry):
    """(fn, args, kwargs) from one table entry, or None."""
    values = getattr(entry, "values", entry)
    if not isinstance(values, tuple) or len(values) < 2 or not callable(values[0]):
        return None
    marks = getattr(entry, "marks", ())
    if any(m.name == "skip" for m in marks):
        return None
    fn, rest = values[0], values[1:]
    if len(rest) == 2 and isinstance(rest[0], (tuple, list)) and isinstance(rest[1], dict):
        return fn, tuple(rest[0]), rest[1]             # case(fn, *args, **kwargs)
    if len(rest) == 1:
        x = rest[0]
        return fn, tuple(x) if isinstance(x, tuple) else (x,), {}   # (fn, x), (fn, (a, b))
    return None


def _tables(module):
    """Module-level lists and tuples, and the lists of parametrize marks."""
    for value in vars(module).values():
        if isinstance(value, (list, tuple)):
            yield value
        for mark in getattr(value, "pytestmark", ()) if callable(value) else ():
            if mark.name == "parametrize" and isinstance(mark.args[1], (list, tuple)):
                yield mark.args[1]


def _stats_examples():
    try:
        stats = importlib.import_module("scipy.stats")
    except ImportError:                      # without SciPy: no scipy.stats rules either
        return
    from tests.rules.test_scipy_stats import LOC, METHODS, POINTS, SCALE
    from tests.rules.test_scipy_stats_extra import POINTS as MORE_POINTS
    for family, (x, shapes) in list(POINTS.items()) + list(MORE_POINTS.items()):
        for method in METHODS:
            yield getattr(getattr(stats, family), method), (x,) + shapes + (LOC, SCALE), {}


def gathered():
    """{fn: [(args, kwargs), ...]} for every function with a rule."""
    examples = {}
    for path in sorted(HERE.glob("test_*.py")):
        try:
            module = importlib.import_module(f"tests.rules.{path.stem}")
        except (pytest.skip.Exception, ImportError):     # a SciPy test module, no SciPy
            continue
        for table in _tables(module):
            for entry in table:
                example = _as_example(entry)
                if example is not None and _has_rule(example[0]):
                    examples.setdefault(example[0], []).append(example[1:])
    for fn, args, kwargs in _stats_examples():
        examples.setdefault(fn, []).append((args, kwargs))
    return examples


def _has_rule(fn):
    try:
        return runtime.lookup(fn) is not None
    except TypeError:
        return False


def is_float_value(x):
    if isinstance(x, (list, tuple)):
        return len(x) > 0 and all(is_float_value(e) for e in x)
    if isinstance(x, (bool, np.bool_)):
        return False
    return isinstance(x, float) or isinstance(x, (np.ndarray, np.generic)) and \
        x.dtype.kind == "f"
