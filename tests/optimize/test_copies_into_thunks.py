"""A copy propagated into a deferred cotangent (transform/optimize/copies.py): the backward
sweep of `b *= 1.1` in a loop body copies `dt1 = db` and defers `dt1 * 1.1` in a Thunk
whose lambda binds `dt1=dt1`. Propagating the copy renamed the lambda's body too
(`lambda dt1=db: db * 1.1`), so the thunk read db when it ran, after its own statement
had rebound db to the thunk: a TypeError under "flat" and "nested" (or another value of
db, had one been bound before it ran). Found in session 31 by red31b; the unpacked
display (`a, b = 2.0, c` lowered as `a = 2.0; b = c`) made such loop bodies common.
"""
import re

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import adjoint_source


def scaled_then_stored(x):
    a = x * 1.0
    for _ in range(2):
        b = a * 2.0
        b *= 1.1
        b[2] = 0.5
        a = b * 2.0
    return np.sum(a)


def second_name_stored(x):
    a = x * 1.0
    for _ in range(2):
        b = a * 2.0
        b *= 1.1
        c = b
        c[2] = a[2] * 0.5
        a = c
    return np.sum(a)


def unpacked_constant_and_name(x, y):
    a = x * 1.0
    for _ in range(2):
        b = a[::-1] * a * y
        b *= 1.1
        c = b
        c[2] = a[2] * 0.5
        a, b = 2.0, c
        a = a * b
    return np.sum(a * 1.1 + b * 0.3) + np.sum(c ** 2)


CASES = [
    (scaled_then_stored, lambda r: [r.normal(size=3)], (0,)),
    (second_name_stored, lambda r: [r.normal(size=3)], (0,)),
    (unpacked_constant_and_name, lambda r: [r.normal(size=3), r.normal(size=3)], (0, 1)),
]
IDS = [c[0].__name__ for c in CASES]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt", CASES, ids=IDS)
def test_gradients_match_finite_differences(fn, make, wrt, policy):
    check_function(fn, make(rng("copies_into_thunks", fn.__name__)), wrt, policy)


LAMBDA = re.compile(r"(\w+) = Thunk\(lambda ([^:]*): (.*)\)$", re.M)


@pytest.mark.parametrize("policy", ["flat", "nested"])
def test_a_thunk_never_reads_the_name_its_statement_binds(policy):
    source = adjoint_source(second_name_stored, wrt=0, policy=policy)
    thunks = LAMBDA.findall(source)
    assert thunks, source
    for target, params, body in thunks:
        bound = {p.split("=")[0].strip() for p in params.split(",")}
        free = set(re.findall(r"\b[a-z_]\w*\b", body)) - bound
        assert target not in free, (target, params, body)
