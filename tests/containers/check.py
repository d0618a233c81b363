"""Checks for the container tests: tests/gradcheck.py's harness with the defaults these
tests use (the first argument, the loop policy), and TransformError location checks."""
import inspect

import numpy as np
import pytest

from tests import gradcheck
from tests.gradcheck import POLICIES, assert_like, assert_tree_close, readonly  # noqa: F401
from transform import TransformError


def policies():
    """pytest params, one per accumulation policy."""
    return [pytest.param(p, id=p) for p in POLICIES]


def check_grad(f, args, wrt=0, policy="loop", rtol=1e-5, atol=1e-7):
    """tests.gradcheck.check_grad with the container tests' defaults (first argument)."""
    __tracebackhide__ = True
    return gradcheck.check_grad(f, args, wrt=wrt, policy=policy, rtol=rtol, atol=atol)


def check_vjp(f, args, wrt, policy="loop", seed=0, rtol=1e-5, atol=1e-7):
    __tracebackhide__ = True
    return gradcheck.check_vjp(f, args, wrt=wrt, policy=policy, seed=seed, rtol=rtol,
                               atol=atol)


# ---- errors -----------------------------------------------------------------
def line_of(fn, marker):
    """The line number in fn's file of the first line of fn containing `marker`."""
    lines, first = inspect.getsourcelines(fn)
    for k, text in enumerate(lines):
        if marker in text:
            return first + k
    raise AssertionError(f"{marker!r} not found in the source of {fn.__name__}")


def assert_error_at(err, fn, marker, *words):
    """A TransformError names fn's file and the line holding `marker`, and says `words`."""
    assert isinstance(err, TransformError), type(err)
    filename = inspect.getsourcefile(fn)
    line = line_of(fn, marker)
    text = str(err)
    assert f"{filename}:{line}" in text, f"expected {filename}:{line} in:\n{text}"
    assert err.line == line
    for word in words:
        assert word.lower() in text.lower(), f"expected {word!r} in:\n{text}"


def is_zero(g):
    """A zero gradient for a non-differentiable leaf: None, 0 or an all-zero array."""
    if g is None:
        return True
    try:
        return not np.any(np.asarray(g, dtype=float))
    except (TypeError, ValueError):
        return False
