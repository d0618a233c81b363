"""A mutant of runtime/patterns.py (session 29, mutG): is_instance_with's `and` made
`or`, so a class pattern matched any subject having the attributes, whatever its class
(tests/corpus/match_classes16.py's subjects always had the first pattern's class or
lacked its attributes). Two classes with the same fields: the second case must run.
And its nondiff declaration (dropped, the compiler traced into the runtime's own
source, with the same results: pinned by the registry's answer, which the compiler
reads)."""
import numpy as np
import pytest

from runtime.patterns import is_instance_with
from runtime.registry import lookup
from tests.gradcheck import POLICIES, check_function


class Pt:
    def __init__(self, x, y):
        self.x, self.y = x, y


class Twin:
    def __init__(self, x, y):
        self.x, self.y = x, y


def _second_class_same_fields(x):
    obj = Twin(x * 3.0, np.sin(x))
    match obj:
        case Pt(x=a, y=b):
            return np.sum(a * b)
        case Twin(x=a, y=b):
            return np.sum(a + b * b)
    return 0.0


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("shape", [(), (3,)])
def test_a_class_pattern_needs_the_class_not_only_its_fields(policy, shape):
    x = np.random.default_rng(29).normal(size=shape)
    check_function(_second_class_same_fields, (x,), policy=policy)


def test_is_instance_with_needs_both():
    assert is_instance_with(Pt(1.0, 2.0), Pt, ("x", "y"))
    assert not is_instance_with(Twin(1.0, 2.0), Pt, ("x", "y"))
    assert not is_instance_with(Pt(1.0, 2.0), Pt, ("x", "z"))
    assert not is_instance_with(Twin(1.0, 2.0), Pt, ())


def test_the_class_pattern_test_is_declared_without_derivative():
    rule = lookup(is_instance_with)
    assert rule is not None and rule.kind == "nondiff"
