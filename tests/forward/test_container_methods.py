"""Forward mode through dict and list methods (session 33): `d.get(k)`, `d.copy()`,
`d.values()`, `d.items()`, `xs.copy()` run their rules' JVPs (the receiver's class's
method, found when the code runs); a user object's method of the same name is refused
then, with the TransformError at the user's line. Against central differences."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.forward import custom_functions as C
from transform import TransformError, jvp


def test_dict_and_list_methods_against_differences():
    x, t = np.array([0.3, -1.2, 0.8]), np.array([1.0, 0.5, -2.0])
    _, got = jvp(C.dict_methods, (x,), (t,))
    assert_close(got, numerical_jvp(C.dict_methods, [x], 0, t), rtol=1e-7)


def test_a_user_objects_method_is_refused_at_its_line():
    with pytest.raises(TransformError, match="not a dict, list or tuple") as info:
        jvp(C.object_get, (np.ones(2), C.Scaler(2.0)), (np.ones(2),), wrt=0)
    assert "scaler.get(x)" in info.value.source_line
