"""Lists, tuples, dicts and objects: building, appending, indexing, unpacking, attributes."""
import collections

import numpy as np

from .case import case, floats, mixed


@case(floats((), ()))
def list_literal_index(x, y):
    xs = [x, y, x * y]
    return xs[0] * xs[2] + xs[1]


@case(floats(()))
def list_append(x):
    xs = []
    xs.append(x)
    xs.append(x * x)
    xs.append(np.sin(x))
    return xs[0] + xs[1] * xs[2]


@case(floats((3,)))
def list_append_in_loop(a):
    hs = []
    h = 0.0
    for v in a:
        h = np.tanh(h + v)
        hs.append(h)
    return sum(hs) + hs[-1]


@case(floats((3,)))
def list_of_arrays(a):
    parts = [a, a * 2.0, np.sin(a)]
    return np.sum(parts[0] * parts[2]) + np.sum(parts[1])


@case(floats((), ()))
def list_negative_index(x, y):
    xs = [x, y, x + y]
    return xs[-1] * xs[-2]


@case(floats(()))
def list_len(x):
    xs = [x, x, x]
    return x * len(xs)


@case(floats((4,)))
def list_slice(a):
    xs = [a[0], a[1], a[2], a[3]]
    return sum(v * v for v in xs[1:3])


@case(mixed(lambda rng: [[rng.standard_normal(2), rng.standard_normal(2)]]))
def list_argument(xs):
    return np.sum(xs[0] * xs[1])


@case(mixed(lambda rng: [(float(rng.standard_normal()), float(rng.standard_normal()))]))
def tuple_argument(pair):
    a, b = pair
    return a * b + a


@case(floats((), ()))
def tuple_pack_unpack(x, y):
    t = (x * y, x + y)
    a, b = t
    return a * b


@case(floats((), ()))
def tuple_swap(x, y):
    x, y = y, x * y
    return x * y + x


@case(floats((), ()))
def tuple_index(x, y):
    t = (x, y * y)
    return t[0] * t[1]


@case(floats((2, 3)))
def unpack_array_rows(A):
    r0, r1 = A
    return np.sum(r0 * r1)


@case(floats((), ()))
def nested_lists(x, y):
    grid = [[x, y], [x * y, x - y]]
    return grid[1][0] * grid[0][1] + grid[1][1]


@case(floats((), ()))
def dict_literal(x, y):
    d = {"a": x, "b": y * y}
    return d["a"] * d["b"]


@case(floats(()))
def dict_setitem(x):
    d = {}
    d["sq"] = x * x
    d["cube"] = d["sq"] * x
    return d["sq"] + d["cube"]


@case(floats((), ()))
def dict_call_keywords(x, y):
    d = dict(u=x, v=y)
    return d["u"] * d["v"]


@case(mixed(lambda rng: [{"w": rng.standard_normal(3), "b": float(rng.standard_normal())}]))
def dict_argument(params):
    return np.sum(params["w"] ** 2) + params["b"]


@case(floats((), ()))
def dict_items_loop(x, y):
    d = {"a": x, "b": y}
    s = 0.0
    for k, v in d.items():
        s = s + v * v
    return s


class Point:
    """A plain object whose attributes a differentiated function reads."""

    def __init__(self, x, y):
        self.x = x
        self.y = y


POINT = Point(0.5, 2.0)


@case(floats(()))
def attribute_of_global_object(s):
    return s * POINT.x + s * s * POINT.y


@case(floats((2, 3)))
def array_attributes(A):
    return np.sum(A) * A.shape[1] / A.size + A.ndim


@case(floats((3,)))
def np_array_from_list(a):
    v = np.array([a[0] * a[1], a[2], 1.0])
    return np.sum(v * v)


@case(floats((), ()))
def list_sum_builtin(x, y):
    return sum([x, y, x * y])


@case(floats((2,)))
def list_unused_element(a):
    xs = [a[0], a[1]]
    return xs[1]


@case(mixed(lambda rng: [[float(rng.standard_normal()), rng.standard_normal(2)]]))
def ragged_list_argument(xs):
    return xs[0] * np.sum(xs[1] ** 2)


@case(floats((3,)))
def dict_reading_methods(x):
    d = {"a": x[0], "b": np.sin(x[1]), "c": x[2] * 2.0}
    total = 0.0
    for key, value in d.items():
        total = total + value * value
    return total + sum(d.values()) * d.get("a") + d.get("missing", x[1]) + d.copy()["c"]


@case(floats((4,)))
def unzip_pairs(x):
    pairs = [(x[0], x[1] * 2.0), (x[2], x[3] ** 2), (x[1], x[0])]
    firsts, seconds = zip(*pairs)
    return sum(firsts) * sum(seconds) + firsts[0] * seconds[2]


@case(floats((3, 2)))
def starred_shape_for_noise(W):
    rs = np.random.RandomState(0)
    noise = rs.randn(*W.shape)
    return np.sum(W * noise) + np.sum(W.reshape(*W.shape[::-1]) ** 2)


WEIGHTS = collections.namedtuple("WEIGHTS", "w b")


@case(lambda rng: [WEIGHTS(rng.standard_normal(3), float(rng.standard_normal()))])
def namedtuple_read_by_field_and_position(p):
    # (crashed: a field read's cotangent was a dict, a position read's a tuple)
    return np.sum(p.w * 2.0) + p[1] ** 2 + p.b * np.sum(p[0])


class Scaled:
    factor = 2.0

    @staticmethod
    def activation(v):
        return np.tanh(v)

    @classmethod
    def scaled(cls, v):
        return cls.factor * v

    def loss(self, x):
        return np.sum(self.activation(self.scaled(x)))

    def by_class_name(self, x):
        # (a method naming its own class was refused: "the file changed")
        return Scaled.factor * np.sum(x ** 2)


MODEL = Scaled()


@case(floats((3,)))
def static_and_class_methods(x):
    # (a staticmethod was called with the instance as its first argument)
    return MODEL.loss(x) + np.sum(Scaled.activation(x)) + np.sum(MODEL.scaled(x)) + \
        MODEL.by_class_name(x)


@case(floats((2,), (2,)))
def unpack_dict_views(x, y):
    d = {"a": x * 1.5, "b": np.sin(y)}
    a, b = d.values()
    (ka, va), (kb, vb) = d.items()
    first, second = d.keys()
    return np.sum(a * b) + np.sum(va * vb) * (first == "a") + (second == "b")


@case(floats((2,), (2,)))
def unpack_dict_views_with_list_shadowed(x, y):
    list = [x * 2.0, y]                       # the user's own `list`, not the builtin
    d = {"a": list[0], "b": np.cos(y)}
    a, b = d.values()
    return np.sum(a * b) + np.sum(list[1])
