"""runtime/closures.py: a closure record stands for the Python function it was made
from (same code, its values as cells and defaults), a compiled partial is never
flattened, and a record's cotangent passes unbroadcast unchanged."""
import functools

import numpy as np
import pytest

from runtime.closures import (Closure, expire_closure, make_closure, make_partial,
                              partial_part, template_of)
from runtime.helpers import unbroadcast


def _maker(w):
    return lambda t, s=2.0: t * w + s


CODE = _maker(1.0).__code__
TEMPLATE = template_of(CODE, _maker.__globals__)


def test_a_template_is_one_per_code_object_and_marked_for_lifting():
    assert template_of(CODE, _maker.__globals__) is TEMPLATE
    assert TEMPLATE.thunkgrad_lifted and TEMPLATE.__code__ is CODE


def test_a_record_calls_as_the_function_it_stands_for():
    record = make_closure(TEMPLATE, (3.0, 0.5))
    assert isinstance(record, Closure)
    assert record(2.0) == _maker(3.0)(2.0, 0.5) == 6.5
    assert record(2.0, 1.0) == 7.0


def test_defaulted_leaves_out_given_and_keyword_parameters():
    record = make_closure(TEMPLATE, (3.0, 0.5))
    assert record.defaulted((1.0,), {}) == {1: 0.5}
    assert record.defaulted((1.0, 2.0), {}) == {}
    assert record.defaulted((1.0,), {"s": 4.0}) == {}


def test_an_expired_record_refuses_to_run():
    record = make_closure(TEMPLATE, (3.0, 0.5))
    expire_closure(record)
    with pytest.raises(RuntimeError, match="bound again"):
        record(1.0)


def test_a_compiled_partial_of_a_partial_keeps_its_structure():
    inner = functools.partial(max, 1.0)               # a user's partial: no attributes
    outer = make_partial(inner, (2.0,), {})
    assert isinstance(outer.func, functools.partial) and outer.args == (2.0,)
    assert outer.func.args == (1.0,) and outer(0.5) == 2.0
    again = make_partial(outer, (3.0,), {})
    assert again.func is outer                        # made here: kept as it is


def test_partial_part_reads_a_part_or_none():
    assert partial_part(None, 1) is None
    assert partial_part(("f", (1.0,), {}), 1) == (1.0,)


@pytest.mark.parametrize("value", [
    make_closure(TEMPLATE, (np.ones(3), 0.5)),
    make_partial(np.multiply, (np.ones(3),), {}),
])
def test_a_records_cotangent_is_passed_through_by_unbroadcast(value):
    g = (np.arange(3.0), None)
    assert unbroadcast(g, value) is g
