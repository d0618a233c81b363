"""The corpus registry: `@case(...)` records a module-level function with its inputs.

    @case(floats((3,), ()))              # x: array of 3, y: python float
    def scaled_sum(x, y):
        return np.sum(x) * y

Every case runs under every policy against the suite's finite-difference reference
(tests/gradcheck.py check_function; tests/corpus/test_corpus.py); a `refused` case must
raise TransformError instead. Functions stay module-level and undecorated at
run time (the decorator returns them unchanged), so the compiler can read
their source.
"""
from dataclasses import dataclass, field

import numpy as np

from tests.gradcheck import POLICIES, rng

REGISTRY = []


@dataclass
class Case:
    """One corpus function: name, function, inputs(rng) -> args, and expectations."""

    name: str
    fn: object
    make_inputs: object
    wrt: object = None
    rtol: float = 1e-5
    atol: float = 1e-7
    refused: str = None              # why the compiler must raise TransformError, or None
    policies: tuple = POLICIES       # the policies the refusal applies to
    kwargs: dict = field(default_factory=dict)

    def inputs(self):
        return tuple(self.make_inputs(rng(self.name)))


def case(make_inputs, *, wrt=None, rtol=1e-5, atol=1e-7, refused=None, policies=POLICIES,
         **kwargs):
    """Register the decorated function as a corpus case; returns it unchanged."""
    def register(fn):
        module = fn.__module__.rsplit(".", 1)[-1]
        REGISTRY.append(Case(f"{module}.{fn.__name__}", fn, make_inputs, wrt, rtol, atol,
                             refused, tuple(policies), kwargs))
        return fn
    return register


def refused(make_inputs, reason, policies=POLICIES, **options):
    """A case the compiler cannot show it keeps the meaning of: a TransformError."""
    return case(make_inputs, refused=reason, policies=policies, **options)


def floats(*shapes, scale=1.0, offset=0.0):
    """Inputs maker: a python float for shape (), else a float64 array, normal(offset, scale)."""
    def make(rng):
        return [_draw(rng, s, scale, offset) for s in shapes]
    return make


def positive(*shapes, low=0.5, high=2.0):
    """Inputs maker: values uniform in [low, high] (for log, sqrt, division)."""
    def make(rng):
        return [_uniform(rng, s, low, high) for s in shapes]
    return make


def given(*values):
    """Inputs maker returning fixed values (copied, so cases cannot share arrays)."""
    def make(rng):
        return [np.array(v, dtype=float) if isinstance(v, np.ndarray) else v for v in values]
    return make


def mixed(*makers):
    """Concatenate several inputs makers."""
    def make(rng):
        return [v for m in makers for v in m(rng)]
    return make


def _draw(rng, shape, scale, offset):
    if shape == ():
        return float(offset + scale * rng.standard_normal())
    return offset + scale * rng.standard_normal(shape)


def _uniform(rng, shape, low, high):
    if shape == ():
        return float(rng.uniform(low, high))
    return rng.uniform(low, high, size=shape)


def all_cases():
    """Every registered case, after importing all corpus modules."""
    from . import modules  # noqa: F401  (imports register the cases)
    return list(REGISTRY)
