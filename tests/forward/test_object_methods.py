"""Forward mode through methods of user objects (session 35): `model.forward(x)`,
`layer(h)` over a list of layers, `self.predict(x)` inside a method, a dataclass's
method and property, a method changing an object only the function sees; in jvp,
jacfwd and hvp. Tangents against central differences of the function, H v against
central differences of its finite-difference gradient (tests/fd.py: neither calls the
compiler). Where the meaning cannot be shown, the call is refused at the user's line."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.forward import object_functions as O
from tests.gradcheck import rng
from transform import TransformError, hvp, jacfwd, jvp


def _arrays(*shapes, key):
    r = rng("object methods", key)
    return tuple(r.normal(size=s) for s in shapes)


def _jvp_check(f, args, tangents):
    _, got = jvp(f, args, tangents, wrt=tuple(range(len(args))))
    want = sum(numerical_jvp(f, list(args), k, t) for k, t in enumerate(tangents))
    assert_close(got, want, rtol=1e-6, atol=1e-8)


def _hvp_check(f, args, directions, eps=1e-4):
    """Entry i of H v against differences, along v, of the differences gradient."""
    got = hvp(f, args, directions, wrt=tuple(range(len(args))))

    def gradient(sign):
        moved = [a + sign * eps * v for a, v in zip(args, directions)]
        return [numerical_grad(f, moved, k) for k in range(len(args))]
    for g, plus, minus in zip(got, gradient(1), gradient(-1)):
        assert_close(g, (plus - minus) / (2 * eps), rtol=1e-4, atol=1e-5)


MLP_SHAPES = ((3, 2), (2, 3), (2,))
LAYER_SHAPES = ((3, 2), (3,), (2, 3), (2,), (2,))


def test_an_mlps_forward_method():
    args = _arrays(*MLP_SHAPES, key="mlp")
    tangents = _arrays(*MLP_SHAPES, key="mlp tangents")
    _jvp_check(O.mlp_loss, args, tangents)
    _hvp_check(O.mlp_loss, args, tangents)


def test_jacfwd_through_a_method_is_the_differences_jacobian():
    args = _arrays(*MLP_SHAPES, key="mlp jacobian")
    jac = jacfwd(O.mlp_out, wrt=2)(*args)
    for e in range(2):
        direction = np.eye(2)[e]
        assert_close(jac[:, e], numerical_jvp(O.mlp_out, list(args), 2, direction),
                     rtol=1e-6, atol=1e-8)


def test_a_list_of_layers_called_through_their_call_method():
    args = _arrays(*LAYER_SHAPES, key="layers")
    tangents = _arrays(*LAYER_SHAPES, key="layers tangents")
    _jvp_check(O.sequential_loss, args, tangents)
    _hvp_check(O.sequential_loss, args, tangents)


def test_a_loss_method_calling_the_models_own_methods():
    args = _arrays(*LAYER_SHAPES, (2,), key="regressor")
    tangents = _arrays(*LAYER_SHAPES, (2,), key="regressor tangents")
    _jvp_check(O.regressor_loss, args, tangents)
    _hvp_check(O.regressor_loss, args, tangents)


def test_a_fixed_model_held_by_the_module():
    args, tangents = _arrays((2,), (2,), key="fixed"), _arrays((2,), (2,), key="fixed t")
    _jvp_check(O.fixed_model_loss, args, tangents)
    _hvp_check(O.fixed_model_loss, args, tangents)


def test_a_dataclass_method_and_property():
    args, tangents = _arrays((3, 2), (2,), key="affine"), _arrays((3, 2), (2,), key="t")
    _jvp_check(O.affine_loss, args, tangents)
    _hvp_check(O.affine_loss, args, tangents)


def test_a_dataclass_argument_carries_its_fields_tangents():
    (W, x), (t_W, t_x) = _arrays((3, 2), (2,), key="a"), _arrays((3, 2), (2,), key="at")
    _, got = jvp(O.affine_argument, (O.Affine(W, 0.5), x), (O.Affine(t_W, 0.0), t_x))
    want = numerical_jvp(lambda W, x: O.affine_argument(O.Affine(W, 0.5), x), [W, x], 0,
                         t_W) + numerical_jvp(O.affine_argument, [O.Affine(W, 0.5), x], 1, t_x)
    assert_close(got, want, rtol=1e-6, atol=1e-8)


def test_a_method_changing_an_object_only_the_function_sees():
    args, tangents = _arrays((3, 2), (2,), key="acc"), _arrays((3, 2), (2,), key="acct")
    _jvp_check(O.accumulated, args, tangents)
    _hvp_check(O.accumulated, args, tangents)


def test_a_change_of_self_inside_an_expression_is_refused_at_the_line():
    args = _arrays((3, 2), (2,), key="refused")
    with pytest.raises(TransformError, match="assigning to an attribute") as info:
        jvp(O.accumulated_in_an_expression, args, args)
    assert "self.total = " in info.value.source_line
    assert "acc.add_and_read(x)" in "\n".join(getattr(info.value, "__notes__", []))


@pytest.mark.parametrize("name", ["static_helper", "class_method_helper",
                                  "stored_activation", "through_the_class"])
def test_static_and_class_methods_a_stored_numpy_function_and_the_class(name):
    f = getattr(O, name)
    shapes = ((3, 2), (2,)) if name == "stored_activation" else ((2,), (2,))
    args, tangents = _arrays(*shapes, key=name), _arrays(*shapes, key=name + " t")
    _jvp_check(f, args, tangents)
    _hvp_check(f, args, tangents)


def test_a_closure_stored_on_the_object_is_refused_at_the_call():
    w, x = _arrays((2,), (2,), key="closure")
    with pytest.raises(TransformError, match="closure stored on the object") as info:
        jvp(O.stored_closure, (w, x), (w, x))
    assert "self.fn(x)" in info.value.source_line


def test_a_class_constant_read_through_a_differentiated_object():
    """`self.eps` set in the class body carries no tangent (jvp only: reverse mode
    over it, hvp, meets reverse mode's own refusal of the attribute, a known gap)."""
    args, tangents = _arrays((2,), (2,), key="eps"), _arrays((2,), (2,), key="eps t")
    _jvp_check(O.class_constant, args, tangents)
