"""Every no-derivative entry of the registry, driven with a differentiated value in
each argument that can hold a float: the gradient matches central differences, or
the compiler refuses with a TransformError before any generated code runs. A
zero gradient where the differences are not zero fails (but for stop_gradient's, zero
by definition); so does an entry with no
example in tests/safety/nondiff_examples.py (new entries are picked up here)."""
import itertools
import linecache
import traceback

import numpy as np
import pytest

import runtime
from runtime import registry
from tests.fd import numerical_grad
from tests.gradcheck import is_float_arg
from tests.safety.nondiff_examples import (EXAMPLES, NOT_CALLED, RANDOM, SEEDED,
                                           SHAPE_PROBED, STOPS, random_variant)
from transform import TransformError, grad

ENTRIES = sorted((r for r in registry._RULES.values() if r.kind == "nondiff"),
                 key=lambda r: r.name)
_COUNTER = itertools.count()


def probe(out):
    """A number that moves when `out` does (0.0 for outputs that are not numbers)."""
    if out is None:                       # print, logging: np.asarray(None) would be nan
        return 0.0
    try:
        return float(np.sum(np.asarray(out, dtype=float)))
    except (TypeError, ValueError):
        return 0.0


def example(fn):
    """(source lines before the call, callee expression, example arguments)."""
    variant = random_variant(fn)
    if variant is None:
        assert fn in EXAMPLES or fn in SEEDED, f"no example arguments for {fn!r}"
        return [], "FN", EXAMPLES.get(fn, (0,))
    kind, name = variant
    assert name in RANDOM, f"no example arguments for the random draw {name}"
    setup = {"Generator": "rng = np.random.default_rng(0)",
             "RandomState": "rng = np.random.RandomState(0)",
             "legacy": "np.random.seed(0)"}[kind]
    return [setup], "FN" if kind == "legacy" else f"rng.{name}", RANDOM[name]


def case_function(fn, callee, setup, args, k):
    """`def case(v): ...; out = callee(args with v at k); return probe(out) + 0 * sum(v)`,
    compiled from source registered with linecache, so thunkgrad can read it."""
    # a module global bound to None is not found by generated code: write it literally
    names = ["None" if a is None else f"A{j}" for j, a in enumerate(args)]
    names[k] = "v"
    probed = "np.shape(out)" if fn in SHAPE_PROBED else "out"
    body = setup + [f"out = {callee}({', '.join(names)})",
                    f"return probe({probed}) + 0.0 * np.sum(v)"]
    text = "def case(v):\n" + "".join(f"    {line}\n" for line in body)
    filename = f"<nondiff case {next(_COUNTER)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"np": np, "FN": fn, "probe": probe}
    namespace.update({f"A{j}": a for j, a in enumerate(args)})
    exec(compile(text, filename, "exec"), namespace)
    return namespace["case"]


def _raised_inside_generated_code(exc):
    return any("<thunkgrad" in frame.filename
               for frame in traceback.extract_tb(exc.__traceback__))


def _id(rule):
    variant = random_variant(rule.fn)
    return f"np.random.{variant[1]}" if variant and variant[0] == "legacy" else rule.name


@pytest.mark.parametrize("rule", ENTRIES, ids=_id)
def test_differentiated_argument_gets_fd_gradient_or_refusal(rule):
    if rule.fn in NOT_CALLED:
        return
    setup, callee, args = example(rule.fn)
    positions = [k for k, a in enumerate(args) if is_float_arg(a)]
    for k in positions:
        case = case_function(rule.fn, callee, setup, args, k)
        try:
            got = grad(case)(args[k])
        except TransformError as exc:
            assert not _raised_inside_generated_code(exc), f"refused at run time: {exc}"
            assert rule.reason(k) == runtime.NONE or rule.why == runtime.NONE, \
                f"{rule.name}: refused a position declared {rule.reason(k)}: {exc}"
            continue
        expected = numerical_grad(case, [args[k]], 0)
        if rule.fn in STOPS:               # stop_gradient: zero by definition, not by FD
            assert np.any(expected != 0), rule.name
            expected = np.zeros_like(expected)
        np.testing.assert_allclose(got, expected, atol=1e-6,
                                   err_msg=f"{rule.name}, argument {k + 1}")


def test_every_entry_declares_a_known_reason():
    for rule in ENTRIES:
        whys = rule.why.values() if isinstance(rule.why, dict) else [rule.why]
        assert set(whys) <= set(registry.REASONS), rule.name


def test_an_entry_without_an_example_fails():
    with pytest.raises(AssertionError, match="no example"):
        example(lambda x: x)
