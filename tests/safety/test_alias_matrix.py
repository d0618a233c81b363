"""Aliasing: every alias source x every write kind is refused with a
TransformError at the write, naming both names, under every policy, before any
generated code runs; the caller's arrays never change."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES
from transform import TransformError, grad

from .alias_matrix import SOURCES, VIEWS, WRITES, alias_written, base_written, build

X = np.array([[0.5, -1.2], [0.3, 0.8]])
W = 0.7
# `c += w` where c may not be an array (`a[0]` of a 1-D array is a number) is checked
# when it runs (TypeError naming the line): the compiler cannot tell it is in place
RUN_TIME = {"row", "ifexp", "branch", "helper_result"}

BASE = build({(s, w): base_written(s, w) for s in SOURCES for w in WRITES})
ALIAS = build({(s, w): alias_written(s, w) for s in VIEWS for w in WRITES})


def refused(fn, policy, *names):
    x = X.copy()
    with pytest.raises(TransformError) as info:
        grad(fn, wrt=(0, 1), policy=policy)(x, W)
    np.testing.assert_array_equal(x, X)
    message = str(info.value)
    for name in names:
        assert f"`{name}`" in message, message
    assert "<thunkgrad" not in "".join(str(tb.tb_frame.f_code.co_filename)
                                      for tb in _frames(info.tb))
    return message


def _frames(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def runtime_refused(fn, policy):
    x = X.copy()
    with pytest.raises(TypeError, match="augmented assignment on an array"):
        grad(fn, wrt=(0, 1), policy=policy)(x, W)
    np.testing.assert_array_equal(x, X)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("source", list(SOURCES))
def test_writing_the_base_while_the_alias_is_read_later(source, write, policy):
    # `v.insert(0, a)` on a list the function builds is a rebinding now
    # (transform/frontend/container_methods.py): the write into `a` it holds is refused
    message = refused(BASE[source, write], policy, "a")
    assert "`v`" in message or write in ("sort", "copyto", "add_at", "out", "put"), message


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("source", VIEWS)
def test_writing_the_alias_while_the_base_is_read_later(source, write, policy):
    fn = ALIAS[source, write]
    if write == "augmented" and source in RUN_TIME:
        runtime_refused(fn, policy)
        return
    refused(fn, policy, "v", "a")


def test_the_message_names_the_line_and_suggests_a_copy():
    message = refused(BASE["slice", "item"], "loop", "a", "v")
    assert "a[0] = w" in message                  # the source line of the write
    assert "`v = a[:1].copy()`" in message
    assert "line" in message
