"""Every ndarray attribute name (shape, T, data, real, ...) used as a user object's
attribute, a dataclass field and a NamedTuple field: each is the object's own value and
carries its derivative (against finite differences, every policy). Reading these names
by their ndarray meaning on any receiver gave silent zero gradients (shape, size, ...),
crashes (T) or refusals (data, flat)."""
import importlib.util
import sys

import numpy as np
import pytest

from transform import TransformError
from transform.analysis.reasons import ARRAY_ONLY_ATTRIBUTES

from .check import check_grad, policies

# the ndarray attributes that are not methods (NumPy's vocabulary for values)
VOCABULARY = sorted(n for n in dir(np.ndarray) if not n.startswith("_") and
                    not callable(getattr(np.ones((2, 2)), n)))

PROGRAM = '''
from dataclasses import dataclass
from typing import NamedTuple


class Plain:
    def __init__(self, a, b):
        self.{n} = a
        self.other = b


@dataclass
class Record:
    {n}: float
    other: float


class Pair(NamedTuple):
    {n}: float
    other: float


def product(d):
    return d.{n} * d.other


def plain(a, b):
    d = Plain(a, b)
    return d.{n} * d.other + 2.0 * d.{n}


def plain_through_a_helper(a, b):
    return product(Plain(a, b)) + a


def record(a, b):
    d = Record(a, b)
    return d.{n} * d.other + 2.0 * d.{n}


def record_through_a_helper(a, b):
    return product(Record(a, b)) + a


def pair(a, b):
    d = Pair(a, b)
    return d.{n} * d.other + 2.0 * d.{n}


def pair_through_a_helper(a, b):
    return product(Pair(a, b)) + a
'''


def program(name, tmp_path_factory):
    """The module PROGRAM makes for attribute `name` (from a file: the compiler reads
    the source)."""
    path = tmp_path_factory.mktemp("fields") / f"fields_{name}.py"
    path.write_text(PROGRAM.format(n=name))
    spec = importlib.util.spec_from_file_location(f"fields_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return {name: program(name, tmp_path_factory) for name in VOCABULARY}


def test_the_vocabulary_holds_the_names_that_were_wrong():
    assert {"shape", "size", "ndim", "dtype", "nbytes", "strides", "itemsize", "T",
            "data", "flat"} <= set(VOCABULARY)


@pytest.mark.parametrize("kind", ["plain", "record", "pair"])
@pytest.mark.parametrize("name", VOCABULARY)
@pytest.mark.parametrize("policy", policies())
def test_numpy_named_attribute_carries_its_derivative(programs, name, kind, policy):
    f = getattr(programs[name], kind)
    check_grad(f, (1.3, -0.7), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("kind", ["plain", "record", "pair"])
@pytest.mark.parametrize("name", VOCABULARY)
@pytest.mark.parametrize("policy", policies())
def test_numpy_named_attribute_of_a_helpers_argument(programs, name, kind, policy):
    """A helper's argument may be an array: `.shape`, `.T`, `.real` are decided when the
    code runs; `.data`, `.flat`, ... (no derivative for an array) are refused there."""
    f = getattr(programs[name], kind + "_through_a_helper")
    if name not in ARRAY_ONLY_ATTRIBUTES:
        check_grad(f, (1.3, -0.7), wrt=(0, 1), policy=policy)
        return
    with pytest.raises(TransformError, match=f"`.{name}` of a value being differentiated"):
        check_grad(f, (1.3, -0.7), wrt=(0, 1), policy=policy)
