"""The ndarray-method facts the alias check reads are declared beside the methods'
rules (runtime/rules/methods.py, runtime/traits.py METHOD): every method declared in
place is refused on a local array, with the declared hint where there is one, and
every method declared a view makes a second name the write is refused through."""
import numpy as np
import pytest

from runtime.traits import METHOD, METHOD_TRAITS, declare_method
from transform import TransformError, grad

from .alias_matrix import build

# how to call each method declared in place on a local 1-d array `a`
IN_PLACE_CALLS = {"sort": "a.sort()", "partition": "a.partition(1)", "fill": "a.fill(w)",
                  "put": "a.put([0], w)", "resize": "a.resize(3)",
                  "itemset": "a.itemset(0, w)", "setfield": "a.setfield(w, np.float64)"}
# how to make `v` from a local 2-d array `a` with each method declared a view
VIEW_CALLS = {"reshape": "a.reshape(4)", "ravel": "a.ravel()", "transpose": "a.transpose()",
              "swapaxes": "a.swapaxes(0, 1)", "squeeze": "a.squeeze()", "view": "a.view()",
              "diagonal": "a.diagonal()", "__array__": "a.__array__()"}

IN_PLACE = build({name: f"def f(x, w):\n    a = x * 2.0\n    {call}\n    return np.sum(a)\n"
                  for name, call in IN_PLACE_CALLS.items()})
VIEWS = build({name: f"def f(x, w):\n    a = np.reshape(x * 2.0, (2, 2))\n    v = {call}\n"
                     f"    a[0] = w\n    return np.sum(v)\n"
               for name, call in VIEW_CALLS.items()})
X = np.array([1.0, 2.0, 3.0, 4.0])


def test_the_tables_list_every_declared_method():
    assert set(IN_PLACE_CALLS) == set(METHOD["in_place"])
    assert set(VIEW_CALLS) == set(METHOD["view"])


# `a.fill(w)` on an array no other name sees has a rule (its gradient goes to w); a
# fill shared with another name is refused in test_alias_matrix.py
@pytest.mark.parametrize("name", sorted(set(IN_PLACE_CALLS) - {"fill"}))
def test_a_method_declared_in_place_is_refused_on_a_local_with_its_hint(name):
    with pytest.raises(TransformError) as info:
        grad(IN_PLACE[name], wrt=0)(X.copy(), 0.5)
    message = str(info.value)
    assert f"`.{name}()` changes `a` in place" in message, message
    hint = METHOD["in_place"][name]
    if isinstance(hint, str):
        assert hint.format("a") in message, message


@pytest.mark.parametrize("name", sorted(VIEW_CALLS))
def test_a_write_through_a_declared_view_is_refused(name):
    with pytest.raises(TransformError) as info:
        grad(VIEWS[name], wrt=0)(X.copy(), 0.5)
    assert "`v`" in str(info.value) and "`a`" in str(info.value), str(info.value)


def test_an_unknown_method_trait_is_an_error():
    with pytest.raises(TypeError, match="unknown trait"):
        declare_method("reshape", views=True)
    assert set(METHOD_TRAITS) == set(METHOD)
