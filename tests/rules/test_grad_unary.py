"""`grad(np.<name>)` works directly for every unary elementwise NumPy function."""
import warnings

import numpy as np
import pytest

import runtime
from transform import grad
from tests.fd import numerical_grad


def unary_rules():
    """(name, function) for each elementwise NumPy function with one required parameter."""
    found = {}
    for name in sorted(dir(np)):
        fn = getattr(np, name)
        rule = runtime.lookup(fn) if callable(fn) else None
        if rule is None or rule.kind != "template" or not rule.signature \
                or getattr(rule, "family", None) != "elementwise":
            continue
        required = [p for p in rule.signature.parameters.values() if p.default is p.empty]
        if len(required) == 1 and required[0].name in rule.templates:
            found.setdefault(id(rule), (name, fn))
    return sorted(found.values(), key=lambda pair: pair[0])


UNARY = unary_rules()


def a_point(fn):
    """A point where fn is finite and smooth: 0.3, else 1.3 (arccosh)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for x in (0.3, 1.3):
            try:
                values = fn(np.array([x - 0.01, x + 0.01]))
            except TypeError:
                if np.lib.NumpyVersion(np.__version__) >= "2.1.0":
                    raise
                pytest.skip(f"NumPy < 2.1: {fn.__name__} needs more arguments (np.clip)")
            if np.isfinite(values).all():
                return x
    pytest.skip("no finite point")


def test_there_are_many_unary_rules():
    assert len(UNARY) >= 30


@pytest.mark.parametrize("name,fn", UNARY, ids=[n for n, _ in UNARY])
def test_grad_of_a_unary_numpy_function(name, fn):
    x = a_point(fn)
    expected = numerical_grad(lambda v: float(fn(v)), (x,), 0)
    assert grad(fn)(x) == pytest.approx(expected, rel=1e-6, abs=1e-8)
