"""Functions calling custom (rrule) rules that declare a JVP (tests/forward/
test_custom_forward.py): the compiler reads their source."""
import numpy as np

from transform import JOINT, LINEAR, rrule


def scaled(x, w):
    return x * w


@rrule(scaled, jvp=LINEAR)      # bilinear: linear in each argument
def _scaled_rule(x, w):
    return x * w, lambda g: (g * w, g * x)


def mixed(x, y):
    return 2.0 * x - 3.0 * y


@rrule(mixed, jvp=JOINT)        # linear in (x, y) together
def _mixed_rule(x, y):
    return mixed(x, y), lambda g: (2.0 * g, -3.0 * g)


def cube(x, p):
    return x ** 3 * p


def _cube_jvp(tangents, x, p):
    tx, tp = tangents
    return (0.0 if tx is None else 3 * x ** 2 * p * tx) + (0.0 if tp is None else x ** 3 * tp)


@rrule(cube, jvp=_cube_jvp)
def _cube_rule(x, p):
    return cube(x, p), lambda g: (3 * g * x ** 2 * p, g * x ** 3)


def heavy(x, y):
    return x * np.exp(y)


# a JVP declared with a lambda: its name `<lambda>` is no identifier (the generated code
# once named it so: an internal SyntaxError, session 37)
@rrule(heavy, jvp=lambda t, x, y: (0.0 if t[0] is None else t[0] * np.exp(y))
       + (0.0 if t[1] is None else x * np.exp(y) * t[1]))
def _heavy_rule(x, y):
    out = heavy(x, y)
    return out, lambda g: (g * np.exp(y), g * out)


def uses_heavy(x, y):
    return np.sum(heavy(x, y) ** 2)


def uses_scaled(x, w):
    return np.sum(np.sin(scaled(x, w)))


def uses_mixed(x, y):
    return np.sum(mixed(x, y) ** 2)


def uses_cube(x, p):
    return np.sum(cube(x, p))


def uses_einsum(a, b):
    return np.sum(np.tanh(np.einsum("ij,jk->ik", a, b)))


def uses_meshgrid(x, y):
    X, Y = np.meshgrid(x, y)
    return np.sum(np.sin(X) * Y)


def uses_broadcast_arrays(x, y):
    u, v = np.broadcast_arrays(x, y)
    return np.sum(u * v ** 2)


def by_keyword(x, w):
    return np.sum(scaled(x, w=w))


def dict_methods(x):
    d = {"a": x, "b": 2.0 * x, "name": "k"}
    g = d.copy()
    s = g.get("a") * g.get("zz", x) + np.sum(list(d.values())[1])
    items = list(g.items())
    ys = [x, x * 3.0].copy()
    return np.sum(s + items[1][1]) + np.sum(ys[1]) + (items[2][1] == "k")


class Scaler:
    def __init__(self, w):
        self.w = w

    def get(self, x):
        return self.w * x


def object_get(x, scaler):
    return np.sum(scaler.get(x))
