"""if/elif/else and conditional expressions on data and on non-differentiable values."""
import numpy as np

from .case import case, floats, given, mixed


@case(given(0.7))
def if_taken(x):
    if x > 0:
        y = x * x
    else:
        y = -x
    return y


@case(given(-0.7))
def if_not_taken(x):
    if x > 0:
        y = x * x
    else:
        y = -x * 3.0
    return y


@case(given(0.4, 1.3))
def if_without_else(x, y):
    z = x * y
    if x < y:
        z = z + x * x
    return z


@case(given(-1.5))
def elif_chain(x):
    if x > 1.0:
        y = x ** 3
    elif x > 0.0:
        y = x * 2.0
    elif x > -1.0:
        y = x * x
    else:
        y = np.sin(x)
    return y


@case(given(0.25))
def elif_middle(x):
    if x > 1.0:
        y = x ** 3
    elif x > 0.0:
        y = x * 2.0 + x * x
    else:
        y = np.sin(x)
    return y


@case(given(0.3, -0.8))
def nested_if(x, y):
    if x > 0:
        if y > 0:
            z = x * y
        else:
            z = x - y * y
    else:
        z = y
    return z * x


@case(floats((4,)))
def if_on_array_sum(a):
    if np.sum(a) > 100.0:
        b = a * 2.0
    else:
        b = np.sin(a)
    return np.sum(b * a)


@case(given(0.6, 2.0))
def conditional_expression(x, y):
    z = x * y if x < y else x + y
    return z * z


@case(given(-0.6))
def conditional_expression_else(x):
    return (x * x if x > 0 else np.exp(x)) * x


@case(mixed(floats(()), lambda rng: [True]))
def flag_argument(x, flag):
    if flag:
        return x * x
    return x


@case(given(0.5, 2.0))
def branch_assigns_different_names(x, y):
    a = x
    b = y
    if x > 0:
        a = a * y
    else:
        b = b * x
    return a * b


@case(given(0.9))
def early_value_reused_after_branch(x):
    t = np.sin(x)
    if t > 0.5:
        t = t * x
    return t + x * t


@case(given(1.2, 0.4))
def boolean_and_or(x, y):
    if x > 0 and y > 0 or x < -5:
        return x * y
    return x + y


@case(given(0.3))
def not_condition(x):
    if not x > 1.0:
        x = x * 3.0
    return x * x


@case(floats((3,)))
def branch_in_both_arms_array(a):
    if a[0] > 10.0:
        out = np.sum(a)
    else:
        out = np.sum(a * a) + a[1]
    return out


@case(given(0.5, 0.7))
def chained_comparison(x, y):
    if 0 < x < y:
        return y * x * x
    return y


@case(floats((3,)))
def and_or_give_an_operand(x):
    # `a and b` is b when a is true, `a or b` is a when a is true: values, not bools
    scale = x[0] > -10.0 and x[1] * 2.0
    fallback = x[2] * 3.0 or 1.0
    return scale * fallback + (x[0] < -10.0 or np.sum(x ** 2))


@case(floats((), ()))
def and_chain_short_circuits(a, b):
    first = a * 0.0 and b * 5.0          # a * 0.0 is falsy: b never counts
    return first + (b and a * b and a + b)
