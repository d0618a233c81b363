"""Calls dispatched at run time (a method of an object, a callable held in a local)
return cotangents by position: a value being differentiated passed by keyword
used to get a silent zero; it is refused at compile time."""
import pytest

from tests.gradcheck import check_grad
from transform import TransformError, grad


class Scale:
    def apply(self, x, w=1.0):
        return x * w


def scaled(x, w=1.0):
    return x * w


def method_keyword(x, w, obj):
    return obj.apply(x, w=w)


def callable_keyword(x, w, fn):
    return fn(x, w=w)


def method_positional(x, w, obj):
    return obj.apply(x, w)


@pytest.mark.parametrize("f, held", [(method_keyword, Scale()), (callable_keyword, scaled)])
def test_differentiated_keyword_is_refused(f, held):
    with pytest.raises(TransformError, match="passed by keyword") as info:
        grad(f, wrt=(0, 1))(2.0, 3.0, held)
    assert info.value.line is not None


def test_constant_keyword_is_fine():
    check_grad(lambda x, obj: obj.apply(x, w=3.0), (2.0, Scale()), wrt=(0,))


def test_positional_gets_its_gradient():
    check_grad(method_positional, (2.0, 3.0, Scale()), wrt=(0, 1))
