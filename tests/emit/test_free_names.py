"""What a Thunk captures: the free names of its expression, never the parameters of a
lambda inside it (a lambda handed to odeint/solve_ivp once made the thunk capture `t`
and `a`, a NameError under the flat and nested policies)."""
import gast

from transform.ir.nodes import free_names


def expr(text):
    return gast.parse(text).body[0].value


def test_a_lambda_parameter_is_not_free():
    assert free_names(expr("f(lambda t, a: -a * t, k)")) == {"f", "k"}


def test_a_name_read_outside_and_bound_by_a_lambda_stays_free():
    assert free_names(expr("g(lambda a: a * w, a)")) == {"g", "a", "w"}


def test_defaults_are_read_where_the_lambda_is_made():
    assert free_names(expr("lambda t, s=s0, *rest, k=k0, **kw: t + s + rest + k + kw + c")) \
        == {"s0", "k0", "c"}


def test_nested_lambdas():
    assert free_names(expr("lambda x: (lambda y: x + y + z)")) == {"z"}


def test_without_lambdas_every_name():
    assert free_names(expr("a * b + f(c)")) == {"a", "b", "f", "c"}
