"""Forward mode through dict and list methods (session 33): `d.get(k)`, `d.copy()`,
`d.values()`, `d.items()`, `xs.copy()` run their rules' JVPs (the receiver's class's
method, found when the code runs); a user object's method of the same name is the
class's own (session 35; refused before). Against central differences."""
import numpy as np

from tests.fd import assert_close, numerical_jvp
from tests.forward import custom_functions as C
from transform import TransformError, jvp


def test_dict_and_list_methods_against_differences():
    x, t = np.array([0.3, -1.2, 0.8]), np.array([1.0, 0.5, -2.0])
    _, got = jvp(C.dict_methods, (x,), (t,))
    assert_close(got, numerical_jvp(C.dict_methods, [x], 0, t), rtol=1e-7)


def test_a_user_objects_method_of_the_same_name_is_its_own():
    x, t = np.array([0.3, -1.2]), np.array([1.0, 0.5])
    args = (x, C.Scaler(2.0))
    _, got = jvp(C.object_get, args, (t,), wrt=0)
    assert_close(got, numerical_jvp(C.object_get, list(args), 0, t), rtol=1e-7)
