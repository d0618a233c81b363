"""A call that leaves defaults out or passes keywords gets the rule specialised to the
shapes of every parameter's value, as the call that spells them all out."""
import numpy as np
import pytest

from tests.gradcheck import check_grad
from transform.api import _full_signature, signature_of


def simulate(theta0, dt=1e-3, steps=50):
    theta, omega = theta0, 0.0
    for _ in range(steps):
        omega = omega - dt * 9.81 * np.sin(theta)
        theta = theta + dt * omega
    return np.sum(theta)


def test_defaults_left_out_give_the_full_signature():
    x = np.array([0.5, 0.2])
    full = signature_of((x, 1e-3, 50))
    assert _full_signature(simulate, (x,), {}) == full
    assert _full_signature(simulate, (x,), {"steps": 50}) == full
    assert _full_signature(simulate, (), {"theta0": x, "dt": 1e-3}) == full


def test_a_call_that_does_not_bind_has_no_signature():
    assert _full_signature(simulate, (1.0, 2.0, 3, 4), {}) is None


def test_gradient_with_defaults_left_out():
    check_grad(simulate, (np.array([0.5, 0.2]),))
    check_grad(lambda x: simulate(x, dt=2e-3), (np.array([0.5, 0.2]),))


def scaled(x, y=2.0, *, z=3.0):
    return x * y * z + y ** 2


def test_wrt_a_parameter_left_at_its_default():
    # (a KeyError: the gradient's shape was looked up among the arguments passed)
    from transform import grad
    assert grad(scaled, wrt="y")(0.7) == pytest.approx(0.7 * 3.0 + 2.0 * 2.0)
    assert grad(scaled, wrt="z")(0.7) == pytest.approx(1.4)
    assert grad(scaled, wrt=(0, 1))(0.7) == pytest.approx((6.0, 6.1))


def test_defaults_and_keywords_take_the_positional_fast_path(monkeypatch):
    """grad(f)(x) for f(x, dt=..., steps=...) binds the call without inspect (the
    general path's signature binding cost 8x a small function's gradient)."""
    import inspect
    from transform import grad
    x = np.array([0.5, 0.2])
    df = grad(simulate)
    want = df(x, 1e-3, 50)
    calls = []
    real = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda *a, **k: calls.append(a) or real(*a, **k))
    for got in (df(x), df(x, steps=50), df(theta0=x, dt=1e-3), df(x, 1e-3, steps=50)):
        np.testing.assert_array_equal(got, want)
    assert calls == []


@pytest.mark.parametrize("args,kwargs", [((1.0, 2.0, 3, 4), {}), ((1.0,), {"theta0": 1.0}),
                                         ((1.0,), {"nope": 1}), ((), {"dt": 1.0})])
def test_calls_that_do_not_bind_still_fail_as_python_says(args, kwargs):
    from transform import grad
    with pytest.raises(TypeError):
        grad(simulate)(*args, **kwargs)


def test_value_and_grad_with_keywords_and_a_wrt_left_at_its_default():
    from transform import grad, value_and_grad
    value, g = value_and_grad(scaled, wrt=(0, 1))(0.7, y=1.5)
    assert value == pytest.approx(0.7 * 1.5 * 3.0 + 1.5 ** 2)
    assert g == pytest.approx((4.5, 2.1 + 3.0))
    assert grad(simulate, wrt="dt")(np.array([0.5, 0.2])) == pytest.approx(
        grad(simulate, wrt="dt")(np.array([0.5, 0.2]), 1e-3, 50))


def rnn(params, xs, h0):
    Wh, Wx, b = params
    h = h0
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x + b)
    return np.sum(h * h)


def rnn_args(container=tuple):
    r = np.random.default_rng(19)
    params = container([r.normal(size=(3, 3)) * 0.5, r.normal(size=(3, 2)), r.normal(size=3)])
    return [params, [r.normal(size=2) for _ in range(4)], r.normal(size=3)]


def test_a_tuple_of_arrays_has_the_shapes_of_its_parts():
    params = rnn_args()[0]
    assert signature_of((params,)) == (("parts", ((3, 3), (3, 2), (3,))),)
    assert signature_of(([np.ones(2), 1.5],)) == (("parts", ((2,), ())),)
    assert signature_of(([np.ones(2), np.ones(2)],)) == (("items", (2,)),)
    assert signature_of(((np.ones(2), "a"),)) is None
    assert signature_of(((),)) is None


def test_parameters_passed_as_a_tuple_reach_the_specialised_rule():
    """`Wh, Wx, b = params` of a tuple argument: each part has its concrete shape, so
    the loop keeps no shapes on the tape and adds the bias's cotangent without
    unbroadcast, as for the same function with three array parameters."""
    from transform.api import compiled
    args = rnn_args()
    signature = signature_of(args)
    rule = compiled(rnn, ("params",), "loop", signature=signature).source
    unknown = compiled(rnn, ("params",), "loop", signature=(None,) + signature[1:]).source
    assert "specialised to argument shapes params (3x3, 3x2, 3)" in rule
    assert "shape_only" not in rule and "unbroadcast" not in rule
    assert "shape_only" in unknown and "unbroadcast" in unknown


@pytest.mark.parametrize("container", [tuple, list])
@pytest.mark.parametrize("policy", ["loop", "eager", "flat", "nested"])
def test_gradient_for_parameters_in_a_container(container, policy):
    check_grad(rnn, rnn_args(container), wrt=0, policy=policy)


def pick(params, k):
    return np.sum(params[1] * params[-1]) + np.sum(params[0]) * k


@pytest.mark.parametrize("policy", ["loop", "eager", "flat", "nested"])
def test_parts_read_by_constant_and_negative_index(policy):
    r = np.random.default_rng(3)
    check_grad(pick, [(r.normal(size=2), r.normal(size=(2,)), r.normal(size=2)), 0.5],
               wrt=(0, 1), policy=policy)
    check_grad(pick, [(1.5, r.normal(size=(3, 2)), r.normal(size=2)), 0.5], wrt=(0, 1),
               policy=policy)


def test_a_long_list_of_numbers_is_data_not_parts():
    """A list of 1,000 floats (samples) is not a tuple of parameters: no key, so each
    new length does not use up a specialisation."""
    assert signature_of(([0.5] * 1000,)) is None
    assert signature_of(([np.ones(2), np.ones(3)] * 5,)) is None
