"""Issue 16, closures: lambdas and nested defs that read locals of the function, kept as
values (closure records, runtime/closures.py): called later, returned by helpers, passed
to helpers, map, sorted, in lists and dicts, under functools.partial, made in loops.
Gradients must reach the values the closure reads, not only its parameters. Scalar and
array inputs (`both`) against finite differences under every policy; what Python would
read differently (a variable bound again after the closure is made) is refused."""
import functools
from dataclasses import dataclass
from functools import partial

import numpy as np

from .case import case, floats, refused
from .data_values import both


def apply(f, z):
    return f(z)


def compose(f, g):
    return lambda z: f(g(z))


def make_scale(w):
    return lambda z: z * w


def make_layer(w, b):
    def layer(z):
        return np.tanh(z * w + b)
    return layer


def keep(f):
    return f


def twice(f, z):
    return f(f(z))


ACT = {"tanh": lambda z: np.tanh(z), "square": lambda z: z * z, "sin": np.sin}
PRIORS = {"gauss": lambda v: -0.5 * v ** 2,
          "logistic": lambda v: -v - 2.0 * np.log1p(np.exp(-v))}   # (on its own line)


# -- a lambda reading a local, kept as a value ---------------------------------------------

@both
def lambda_over_a_local_called_later(x):
    w = np.cos(x)
    f = lambda t: t * w           # noqa: E731
    fs = [f, np.sin]
    return np.sum(fs[0](x) + fs[1](x))


@both
def lambda_over_an_argument_in_a_dict(x):
    ops = {"scale": lambda t: t * x, "shift": lambda t: t + x * x}
    return np.sum(ops["scale"](2.0) * ops["shift"](1.0))


@both
def lambda_reading_two_locals(x):
    a = x * 2.0
    b = np.exp(-x)
    f = lambda t: a * t + b        # noqa: E731
    return np.sum(apply(f, x) * apply(f, 1.5))


@both
def lambda_calling_a_closure(x):
    w = np.sin(x)
    f = lambda t: t * w            # noqa: E731  (called by name in g: a def)
    g = lambda t: f(t) * w + t     # noqa: E731
    return np.sum(apply(g, x))


# -- nested defs kept as values ---------------------------------------------------------

@both
def nested_def_called_later(x):
    w = x * x

    def layer(z):
        return np.sin(z * w)
    layers = [layer, layer]
    h = x
    for f in layers:
        h = f(h)
    return np.sum(h)


@both
def nested_def_reading_another(x):
    w = x + 1.0

    def inner(z):
        return z * w

    def outer(z):
        return inner(z) * x
    return np.sum(apply(outer, x))


@both
def nested_def_with_a_default(x):
    w = x * 3.0

    def f(z, k=w):
        return z * k + w
    return np.sum(apply(f, x))


def call_with_keyword(f, z):
    return f(z, s=2.0)


@both
def default_replaced_by_a_keyword(x):
    w = np.sin(x)
    f = lambda t, s=w: t * s       # noqa: E731  (s given: w gets no derivative from it)
    return np.sum(call_with_keyword(f, x) + apply(f, x))


@both
def nested_def_with_two_defaults(x):
    w = np.sin(x)

    def f(t, a=w, b=x):
        return t * a + b
    return np.sum(apply(f, x) * twice(f, 1.0))


# -- closures returned by helpers --------------------------------------------------------

@both
def closure_from_a_helper(x):
    g = make_scale(np.sin(x))
    return np.sum(g(x) + g(2.0))


@both
def nested_def_from_a_helper(x):
    layer = make_layer(x * 0.5, np.cos(x))
    return np.sum(layer(layer(x)))


@both
def closure_from_a_helper_passed_on(x):
    g = make_scale(x * x)
    return np.sum(twice(g, x))


@both
def composed_closures(x):
    h = compose(make_scale(x), np.tanh)
    return np.sum(h(x) * x)


@both
def closure_returned_through_a_list(x):
    gs = [make_scale(x), make_scale(x * 2.0)]
    return np.sum(gs[0](1.0) + gs[1](x))


# -- lambdas passed as arguments ---------------------------------------------------------

@both
def lambda_argument_reading_an_argument(x):
    return np.sum(apply(lambda z: z * x, np.cos(x)))


@both
def map_over_a_closure(x):
    w = x * 1.5
    ys = list(map(lambda t: t * w, [x, x * x, 2.0]))
    return np.sum(ys[0] + ys[1] * ys[2])


@case(floats((4,)))
def sorted_with_a_closure_key(x):
    w = np.exp(x[0])
    keyed = sorted([x[1], x[2], x[3]], key=lambda v: -v * w)
    return keyed[0] * w + keyed[2]


@both
def max_with_a_closure_key(x):
    w = x * 2.0
    candidates = [x, w, x * x]
    best = max(candidates, key=lambda v: np.sum(v * w))
    return np.sum(best * w)


# -- functools.partial --------------------------------------------------------------------

def scaled_sin(z, w, b=0.0):
    return np.sin(z * w) + b


@both
def partial_binding_a_value_being_differentiated(x):
    f = functools.partial(scaled_sin, w=x * 2.0, b=x)
    return np.sum(f(x))


@both
def partial_binding_positionally(x):
    f = partial(scaled_sin, np.cos(x))
    return np.sum(f(x))


@both
def partial_over_a_closure(x):
    w = x * 2.0
    g = lambda t, s: t * w + s     # noqa: E731
    f = partial(g, s=np.sin(x))
    return np.sum(apply(f, x))


@both
def partial_of_a_partial(x):
    def f(a, b, c):
        return a * b + c
    g = partial(f, x)
    h = partial(g, np.sin(x))
    return np.sum(h(x * x))


@both
def closures_written_into_a_dict(x):
    w = x * 0.5
    ops = {"a": lambda t: t * w}
    ops["b"] = lambda t: t + x * w
    return np.sum(ops["a"](x) + ops["b"](1.0))


@both
def partial_over_a_returned_closure(x):
    f = partial(make_layer(x, 0.5), x * 0.1)
    return np.sum(f())


# -- module-level dicts of lambdas ---------------------------------------------------------

@both
def module_dict_of_lambdas(x):
    h = x
    for name in ("tanh", "square", "sin"):
        h = ACT[name](h)
    return np.sum(h)


@both
def module_dict_of_lambdas_over_lines(x):
    return np.sum(PRIORS["gauss"](x) + PRIORS["logistic"](x))


@case(floats((3,)), kind="square")
def module_dict_of_lambdas_by_argument(x, kind="tanh"):
    return np.sum(ACT[kind](x) + ACT["tanh"](x))


# -- loops: Python's late binding ----------------------------------------------------------

@both
def default_binds_the_loop_variable(x):
    fs = []
    for k in range(3):
        fs.append(lambda t, k=k: t * (k + 1.0) * x)
    total = 0.0
    for f in fs:
        total = total + np.sum(f(x))
    return total


@both
def comprehension_of_lambdas_with_defaults(x):
    fs = [lambda t, c=c: np.sin(t * c) for c in (1.0, 2.0, 3.0)]
    return sum(np.sum(f(x)) for f in fs)


@case(floats((3,)))
def lambda_argument_in_a_loop(x):
    total = 0.0
    for i in range(3):
        total = total + np.sum(apply(lambda t: t * x[i], x))
    return total


@case(floats((3,)))
def closure_made_and_called_in_each_pass(x):
    total = 0.0
    for i in range(3):
        w = x[i] * 2.0
        total = total + twice(make_scale(w), x[i])
    return total


@case(floats((3,)))
def closure_kept_by_a_helper_called_in_the_same_statement(x):
    total = 0.0
    for i in range(3):
        total = total + np.sum(keep(lambda t: t * x[i])(x))
    return total


@case(floats((3,)))
def loop_variable_read_after_the_loop_by_a_closure_made_after(x):
    for i in range(3):
        pass
    f = lambda t: t * x[i]            # noqa: E731  (made after the loop: i is final)
    return np.sum(apply(f, x))


# -- refused: Python would read a value the record does not hold ---------------------------

@refused(floats((3,)), "late binding: every closure reads the last i")
def closures_made_in_a_loop_called_after(x):
    fs = []
    for i in range(3):
        fs.append(lambda t: t * x[i])
    return np.sum(fs[0](x))


@refused(floats((3,)), "late binding in a comprehension")
def comprehension_of_late_binding_lambdas(x):
    fs = [lambda t: t * c for c in (1.0, 2.0, 3.0)]
    return sum(np.sum(f(x)) for f in fs)


@refused(floats((3,)), "the variable is bound again after the closure is made")
def closure_variable_rebound(x):
    w = x * 2.0
    f = lambda t: t * w               # noqa: E731
    w = x * 3.0
    return np.sum(apply(f, x))


@refused(floats((3,)), "the variable is changed in place after the closure is made")
def closure_variable_written_in_place(x):
    w = x * 2.0
    f = lambda t: t * w               # noqa: E731
    w[0] = 5.0
    return np.sum(apply(f, x))


@refused(floats((3,)), "a closure argument kept by the helper, called after i changed")
def closure_argument_kept_and_called_late(x):
    fs = []
    for i in range(3):
        fs.append(keep(lambda t: t * x[i]))
    return np.sum(fs[0](x))


@dataclass
class Model:
    w: object

    def loss(self, x):
        f = lambda t: np.tanh(t * self.w)      # noqa: E731  (reads self)
        return np.sum(apply(f, x))


@case(floats((3,), (3,)))
def closure_reading_self_in_a_method(w, x):
    return Model(w * 1.0).loss(x)


@refused(floats((3,)), "the variable's array is written through another name after")
def closure_variable_written_through_an_alias(x):
    w = x * 2.0
    v = w
    f = lambda t: t * w               # noqa: E731
    v[0] = 7.0
    return np.sum(apply(f, x))
