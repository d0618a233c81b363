"""A tape push and the pop reading its entry back share one `pair_id` (ir/statements.py
Push, Pop; the mark `node.pair_id` on the lowered gast, ir/recognize.pair_of): in the
rrule stage 6 builds and in the one the optimiser leaves, every pop has exactly one push
with its id and every push one pop."""
import copy
from collections import Counter

import gast
import numpy as np
import pytest

from transform import grad, pipeline
from transform.ir.nodes import statements
from transform.ir.recognize import pair_of
from transform.ir.statements import Pop, Push, typed_of


def overwritten(x):
    z = x
    for i in range(3):
        z = np.sin(z) * x
    return np.sum(z)


def nested(x):
    s = 0.0
    for i in range(2):
        y = x * 1.5
        for j in range(3):
            y = np.tanh(y) + x
            s = s + np.sum(y * y)
    return s


def looped_while(x):
    k = 0
    z = x
    while k < 3:
        z = np.cos(z) * z
        k = k + 1
    return np.sum(z)


def step(z, x):
    return np.sin(z) * x + z


def called(x):
    z = x
    for _ in range(3):
        z = step(z, x)
    return np.sum(z)


def branching(x):
    z = x
    for i in range(4):
        if i % 2:
            z = np.exp(-z) * x
        else:
            z = z * z
    return np.sum(z)


def _pairs(rrule):
    pushes, pops = Counter(), Counter()
    for s in statements(rrule):
        if isinstance(typed_of(s), Push):
            pushes[pair_of(s)] += 1
        elif isinstance(typed_of(s), Pop):
            pops[pair_of(s)] += 1
    return pushes, pops


@pytest.mark.parametrize("fn", [overwritten, nested, looped_while, called, branching])
def test_every_pop_has_one_push_with_its_id(fn, monkeypatch):
    built = []

    def spy(ctx, sweeps):
        rrule = pipeline_lower(ctx, sweeps)
        built.append((copy.deepcopy(rrule), rrule))      # as lowered; as optimised later
        return rrule
    pipeline_lower = pipeline.lower_sweeps
    monkeypatch.setattr(pipeline, "lower_sweeps", spy)
    grad(fn)(np.array([0.3, -0.7, 1.1]))
    assert built and any(_pairs(b)[1] for b, _ in built)     # some pops were made
    for made, optimised in built:
        for rrule in (made, optimised):
            assert isinstance(rrule, gast.FunctionDef)
            pushes, pops = _pairs(rrule)
            assert None not in pushes and None not in pops
            assert set(pushes.values()) <= {1} and set(pops.values()) <= {1}
            assert set(pops) <= set(pushes)
        pushes, pops = _pairs(made)
        assert set(pushes) == set(pops)       # (the optimiser may read entries in a header)
