"""Functions under test for the container tests (containers, calls, recursion, methods,
in-place writes). They live at module level in a .py file because the compiler
reads their source. Each construct comes in a scalar (`_s`) and an array (`_a`)
variant where both make sense."""
import dataclasses

import numpy as np


# =============================================================================
# Calls into the user's own functions
# =============================================================================
def mul_add(x, y):
    return x * y + np.sin(x)


def chain_inner(x):
    return np.exp(-x * x)


def chain_outer(x, y):
    return chain_inner(x * y) * y


def call_module_s(x, y):
    return mul_add(x, y) * x


def call_module_a(x, y):
    return np.sum(mul_add(x, y) * x)


def call_chain_s(x, y):
    return chain_outer(x, y) + chain_inner(y)


def call_chain_a(x, y):
    return np.sum(chain_outer(x, y) + chain_inner(y))


def call_twice_s(x):
    return mul_add(x, x) * mul_add(2.0 * x, 0.5)


def call_twice_a(x):
    return np.sum(mul_add(x, x) * mul_add(2.0 * x, 0.5))


# -- positional, keyword and default arguments --------------------------------
def scale(x, k=2.0, shift=0.0):
    return k * x + shift


def call_args_s(x, y):
    return scale(x) + scale(x, y) + scale(x, k=y) + scale(k=3.0, x=y) + \
        scale(y, shift=x * x) * scale(x, 0.5, y)


def call_args_a(x, y):
    return np.sum(scale(x) * scale(x, y) + scale(x, k=y) + scale(k=3.0, x=y) +
                  scale(y, shift=x * x))


def kwonly(x, *, extra=3.0):
    return x * extra


def call_kwonly_default_s(x):
    return kwonly(x) * x


def call_kwonly_passed_s(x, y):
    return kwonly(x, extra=y) * x


# -- nested defs (inlined where they are called) -------------------------------
def nested_reads_outer_s(x, y):
    c = np.cos(y)

    def inner(a):
        return a * c + y * a

    return inner(x) * inner(x * x)


def nested_reads_outer_a(x, y):
    c = np.cos(y)

    def inner(a):
        return a * c + y * a

    return np.sum(inner(x) * inner(x * x))


def nested_defaults_s(x, y):
    def inner(a, b=2.0, c=1.0):
        return a * b + c * y

    return inner(x) + inner(x, y) + inner(x, c=x) + inner(b=y, a=x * x)


def nested_defaults_a(x, y):
    def inner(a, b=2.0, c=1.0):
        return a * b + c * y

    return np.sum(inner(x) * inner(x, y) + inner(x, c=x) + inner(b=y, a=x * x))


def nested_in_loop_s(x, w):
    def step(h):
        return np.tanh(w * h + x)

    h = 0.0
    for _ in range(4):
        h = step(h)
    return h


def nested_in_loop_a(x, w):
    def step(h):
        return np.tanh(w @ h + x)

    h = np.zeros(x.shape[0])
    for _ in range(4):
        h = step(h)
    return np.sum(h * h)


def nested_calls_nested_s(x, w):
    def a(v):
        return v * w

    def b(v):
        return a(v) + a(v * v)

    return b(x) * b(w)


def nested_calls_nested_a(x, w):
    def a(v):
        return v * w

    def b(v):
        return a(v) + a(v * v)

    return np.sum(b(x) * b(w))


def nested_returns_tuple_s(x, y):
    def both(a):
        return a * y, a + y

    p, q = both(x)
    return p * q


def nested_param_shadows_outer_s(x):
    y = x * 2.0

    def g(y):
        return y * y

    return g(x) * y


def nested_local_s(x):
    def g(v):
        z = v * v
        return z

    return g(x) + x


def nested_local_a(x):
    def g(v):
        z = v * v
        return np.sin(z)

    return np.sum(g(x) * x)


def nested_late_binding_s(x):
    c = x

    def g(a):
        return a * c            # reads c when called: x * x

    c = x * x
    return g(x)


def nested_loop_variable_s(x):
    total = 0.0
    for k in range(3):
        def g(a):
            return a * k + a * a

        total = total + g(x)
    return total


def nested_default_from_outer_s(x, y):
    def g(a, b=y):              # the default is evaluated here, where y is the argument
        return a * b

    y = x * x
    return g(x)


# -- closures made by a factory at module level --------------------------------
def make_scaler(k):
    def scaled(x):
        return k * np.sin(x)
    return scaled


def make_affine(W, b):
    def affine(x):
        return np.tanh(W @ x + b)
    return affine


triple_sin = make_scaler(3.0)
affine_2x3 = make_affine(np.array([[0.5, -1.0, 0.25], [1.5, 0.3, -0.7]]), np.array([0.1, -0.2]))


def factory_closure_s(x):
    return triple_sin(x) * x


def factory_closure_a(x):
    return np.sum(affine_2x3(x) ** 2) + np.sum(triple_sin(x))


# -- recursion -------------------------------------------------------------------
def power(x, n):
    if n == 0:
        return 1.0
    return x * power(x, n - 1)


def recursion_power_s(x):
    return power(x, 4)


def recursion_power_a(x):
    return np.sum(power(x, 3))


def recursion_deep_s(x):
    return power(x, 12)


def sum_squares_from(xs, i):
    if i == len(xs):
        return 0.0
    return xs[i] * xs[i] + sum_squares_from(xs, i + 1)


def recursion_over_list_a(a):
    return sum_squares_from([a[0], a[1] * 2.0, a[2]], 0)


def even_power(x, n):
    if n == 0:
        return 1.0
    return x * odd_power(x, n - 1)


def odd_power(x, n):
    return x * even_power(x, n - 1)


def recursion_mutual_s(x):
    return even_power(x, 4)


# -- callees returning tuples, lists and dicts --------------------------------
def two_values(x, y):
    return x * y, x + np.sin(y)


def nested_values(x):
    return (x * x, (np.exp(x), 2.0 * x)), x


def value_and_count(x):
    return np.sum(x * x), x.shape[0]


def tuple_out_unpack_s(x, y):
    p, s = two_values(x, y)
    return p * s


def tuple_out_unpack_a(x, y):
    p, s = two_values(x, y)
    return np.sum(p * s)


def tuple_out_index_s(x, y):
    t = two_values(x, y)
    return t[0] * t[1] + t[1]


def tuple_out_nested_s(x):
    (sq, (ex, tw)), same = nested_values(x)
    return sq * ex + tw * same


def tuple_out_nested_a(x):
    (sq, (ex, tw)), same = nested_values(x)
    return np.sum(sq * ex + tw * same)


def tuple_out_int_a(x):
    total, n = value_and_count(x)
    return total / n


def tuple_out_only_second_s(x, y):
    _, s = two_values(x, y)
    return s * s


def as_list(x):
    return [x, x * x]


def as_dict(x):
    return {"sq": x * x, "sin": np.sin(x)}


def list_out_s(x):
    v = as_list(x)
    return v[0] * v[1]


def dict_out_a(x):
    d = as_dict(x)
    return np.sum(d["sq"] * d["sin"])


def returns_tuple(x, y):
    """For vjp: the output itself is a tuple coming from a helper."""
    return two_values(x, y)


# -- callees taking containers ---------------------------------------------------
def dense(p, name, x):
    return np.tanh(p["W" + name] @ x + p["b" + name])


def two_layers(p, x):
    return np.sum(dense(p, "2", dense(p, "1", x)) ** 2)


def first_of(t):
    return t[0] * t[1]


def pass_tuple_s(x, y):
    return first_of((x, y)) + first_of([y, x * x])


# =============================================================================
# Tuples
# =============================================================================
def tuple_pack_index_s(x, y):
    t = (x, y, x * y)
    return t[0] * t[2] + t[1] - t[-1]


def tuple_pack_index_a(x, y):
    t = (x, y, x * y)
    return np.sum(t[0] * t[2] + t[1] - t[-1])


def tuple_unpack_s(x, y):
    t = (x * y, x + y)
    a, b = t
    return a * b


def tuple_unpack_a(x, y):
    a, b = (x * y, x + y)
    return np.sum(a * b)


def tuple_nested_targets_s(x, y):
    (a, b), c = (x, y * y), x * y
    return a * b + c * a


def tuple_nested_targets_a(x, y):
    (a, b), c = (x, y * y), x * y
    return np.sum(a * b + c * a)


def tuple_swap_s(x, y):
    a, b = x, y * 2.0
    a, b = b, a
    return a * a * b


def tuple_loop_state_s(x, w):
    state = (x, 0.0)
    for _ in range(3):
        h, acc = state
        h = np.tanh(w * h)
        state = (h, acc + h * h)
    return state[1] + state[0]


def tuple_loop_state_a(x, w):
    state = (x, 0.0)
    for _ in range(3):
        h, acc = state
        h = np.tanh(w @ h)
        state = (h, acc + np.sum(h * h))
    return state[1] + np.sum(state[0])


def tuple_with_int_s(x):
    t = (x, 3, "label")
    return t[0] * t[1] + len(t[2])


def tuple_iterate_a(x, y):
    total = 0.0
    for v in (x, y, x * y):
        total = total + np.sum(v * v)
    return total


def tuple_concat_s(x):
    t = (x,) + (x * x,)
    return t[0] * t[1]


# =============================================================================
# Lists
# =============================================================================
def list_literal_index_s(x, y):
    xs = [x, y, x * y]
    return xs[0] * xs[2] + xs[1] + xs[-1]


def list_literal_index_a(x, y):
    xs = [x, y, x * y]
    return np.sum(xs[0] * xs[2] + xs[1] + xs[-1])


def list_append_s(x):
    xs = []
    xs.append(x)
    xs.append(x * x)
    xs.append(np.sin(x))
    return xs[0] + xs[1] * xs[2]


def list_append_a(x):
    xs = [x]
    xs.append(x * x)
    xs.append(np.sin(x))
    return np.sum(xs[0] + xs[1] * xs[2])


def list_iterate_s(x, y):
    total = 0.0
    for v in [x, y, x * y]:
        total = total + v * v
    return total


def list_iterate_a(x, y):
    total = 0.0
    for v in [x, y, x * y]:
        total = total + np.sum(v * v)
    return total


def list_len_s(x):
    xs = [x, x * x, 2.0]
    return x * len(xs) + xs[1]


def list_sum_s(x, y):
    xs = [x, y * y, x * y]
    return sum(xs) * x


def list_sum_a(x, y):
    xs = [x, y * y, x * y]
    return np.sum(sum(xs) * x)


def np_array_of_list_s(x, y):
    v = np.array([x, y, x * y])
    return np.sum(v * v) + v[2]


def np_array_of_list_a(x):
    m = np.array([x, x * x, np.sin(x)])
    return np.sum(m * m) + np.sum(m[1])


def np_stack_list_a(x, y):
    m = np.stack([x, y, x * y])
    return np.sum(np.tanh(m) * m)


def np_stack_axis_a(x, y):
    m = np.stack([x, y * 2.0], axis=1)
    return np.sum(m[0] * m[1]) + np.sum(m ** 2)


def np_concatenate_list_a(x, y):
    v = np.concatenate([x, y, x * x])
    return np.sum(v * np.sin(v))


def list_built_in_loop_sum_s(x):
    hs = []
    h = 0.0
    for t in range(4):
        h = np.tanh(h * x + t * 0.5)
        hs.append(h)
    return sum(hs) + hs[-1] * hs[0]


def list_built_in_loop_stack_a(x, W):
    hs = []
    h = x
    for _ in range(3):
        h = np.tanh(W @ h)
        hs.append(h)
    return np.sum(np.stack(hs) ** 2) + np.sum(hs[1])


def list_built_in_loop_concat_a(x):
    parts = []
    for i in range(3):
        parts.append(x[i:] * (i + 1.0))
    return np.sum(np.concatenate(parts) ** 2)


def list_built_in_loop_reduce_loop_s(x):
    xs = []
    for k in range(4):
        xs.append(x ** (k + 1))
    total = 0.0
    for v in xs:
        total = total + v * total + v
    return total


def list_comprehension_a(x):
    ys = [np.sin(x * k) for k in range(3)]
    return np.sum(np.stack(ys) * x)


def list_setitem_s(x):
    xs = [x, x, x]
    xs[1] = x * x
    return xs[0] * xs[1] + xs[2]


def list_slice_a(a):
    xs = [a[0], a[1] * 2.0, a[2], a[3]]
    ys = xs[1:3]
    return ys[0] * ys[1] + xs[3]


def list_unused_element_a(a):
    xs = [a[0], a[1], a[2]]
    return xs[0] * 2.0


def list_append_loop_long(x):
    parts = []
    for i in range(x.shape[0]):
        parts.append(x[i] * x[i] + np.sin(x[i]))
    return sum(parts)


def list_extend_s(x):
    xs = [x]
    xs.extend([x * x, 3.0 * x])
    return xs[1] + xs[2] * xs[0]


def list_concat_s(x):
    xs = [x, 2.0 * x]
    ys = xs + [x * x]
    return ys[2] + ys[1] * ys[0]


# =============================================================================
# Dicts
# =============================================================================
def dict_literal_s(x, y):
    d = {"a": x, "b": y * y}
    return d["a"] * d["b"] + d["a"]


def dict_literal_a(x, y):
    d = {"a": x, "b": y * y}
    return np.sum(d["a"] * d["b"] + d["a"])


def dict_call_s(x, y):
    d = dict(a=x, b=x * y)
    return d["a"] * d["b"]


def dict_call_a(x, y):
    d = dict(a=x, b=x * y)
    return np.sum(d["a"] * d["b"])


def dict_variable_key_s(x, y):
    d = {"a": x, "b": y}
    total = 0.0
    for k in ["a", "b", "a"]:
        total = total + d[k] * d["b"]
    key = "a"
    return total + d[key] * x


def dict_variable_key_a(x, y):
    d = {"a": x, "b": y}
    total = 0.0
    for k in ["a", "b", "a"]:
        total = total + np.sum(d[k] * d["b"])
    return total


def dict_nested_s(x, y):
    d = {"outer": {"inner": x * y, "other": y}, "flat": x}
    return d["outer"]["inner"] * d["flat"] + d["outer"]["other"]


def dict_nested_a(x, y):
    d = {"outer": {"inner": x * y, "other": y}, "flat": x}
    inner = d["outer"]
    return np.sum(inner["inner"] * d["flat"] + inner["other"])


def dict_items_s(x, y):
    d = {"a": x, "b": y * 2.0, "c": x * y}
    total = 0.0
    for k, v in d.items():
        total = total + v * v
    return total


def dict_items_a(x, y):
    d = {"a": x, "b": y * 2.0}
    total = 0.0
    for name, v in d.items():
        total = total + np.sum(np.sin(v))
    return total


def dict_keys_a(d):
    total = 0.0
    for k in d.keys():
        total = total + np.sum(d[k] ** 2)
    return total


def dict_iterate_a(d):
    total = 0.0
    for k in d:
        total = total + np.sum(d[k] ** 2)
    return total * len(d)


def dict_values_a(d):
    total = 0.0
    for v in d.values():
        total = total + np.sum(v ** 2)
    return total


def dict_setitem_s(x):
    d = {}
    d["a"] = x
    d["b"] = x * x
    return d["a"] * d["b"]


def dict_param_items_a(p, x):
    h = x
    for name, W in p.items():
        h = np.tanh(W @ h)
    return np.sum(h)


# =============================================================================
# Objects and methods
# =============================================================================
class Params:
    def __init__(self, W, b):
        self.W = W
        self.b = b


@dataclasses.dataclass
class DParams:
    W: np.ndarray
    b: np.ndarray


class Model:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def forward(self, x):
        return np.tanh(self.W @ x + self.b)

    def scaled(self, x, k=2.0):
        return k * self.forward(x)


@dataclasses.dataclass
class Linear:
    W: np.ndarray
    b: np.ndarray

    def forward(self, x):
        return self.W @ x + self.b

    def loss(self, x):
        return np.sum(np.tanh(self.forward(x)) ** 2)


@dataclasses.dataclass
class Scalars:
    a: float
    b: float

    def combine(self, x):
        return self.a * x + self.b * x * x


@dataclasses.dataclass
class Net:
    layers: list

    def forward(self, x):
        h = x
        for layer in self.layers:
            h = np.tanh(layer.W @ h + layer.b)
        return h


@dataclasses.dataclass
class Wrapped:
    inner: DParams
    scale: float


def net_loss_a(net, x):
    return np.sum(net.forward(x) ** 2)


def wrapped_loss_a(w, x):
    return w.scale * np.sum(np.tanh(w.inner.W @ x + w.inner.b))


def attr_read_a(p, x):
    return np.sum(np.tanh(p.W @ x + p.b))


def attr_read_s(p, x):
    return p.a * x + np.sin(p.b * x)


def method_forward_a(model, x):
    return np.sum(model.forward(x) ** 2)


def method_calls_method_a(model, x):
    return np.sum(model.scaled(x)) + np.sum(model.scaled(x, k=0.5) ** 2) * \
        np.sum(model.scaled(x, 3.0) * x[:2])


def method_loss_a(lin, x):
    return lin.loss(x) + np.sum(lin.forward(x))


def method_scalar_s(s, x):
    return s.combine(x) * s.a


def ndarray_sum_a(x):
    return x.sum() * x.sum()


def ndarray_mean_axis_a(x):
    return np.sum(x.mean(axis=0) ** 2) + x.mean()


def ndarray_T_a(x, y):
    return np.sum(x.T @ y)


def ndarray_reshape_a(x):
    return np.sum(x.reshape(3, 2) @ x[:2]) + np.sum(x.reshape((2, 3)).reshape(-1) ** 2)


def ndarray_dot_a(x, y):
    return np.sum(x.dot(y) ** 2) + x[0].dot(x[1])


def shape_len_ndim_a(x):
    n = x.shape[0]
    m = x.shape[1]
    rows = len(x)
    return np.sum(x * x) * n + rows * x.ndim * np.sum(x) / m


def size_in_helper_a(x):
    return np.sum(x) / count_of(x)


def count_of(v):
    return v.size


# =============================================================================
# Non-differentiable values: ints, bools, strings
# =============================================================================
def ints_flow_a(x, n):
    k = n * 2
    idx = n - 1
    return np.sum(x[:k]) * k + x[idx]


def bool_flag_s(x, flag):
    if flag:
        return x * x
    return x


def string_arg_s(x, mode):
    if mode == "square":
        return x * x * len(mode)
    return x


def ints_in_containers_s(x):
    t = (x, 3, True, "abc")
    d = {"n": 4, "x": x * x, "name": "w"}
    return t[0] * t[1] + t[2] * d["x"] * d["n"] + len(t[3]) + len(d["name"])


def int_from_helper_s(x):
    n = pick_count(x)
    return x * n


def pick_count(x):
    return 3


def ints_in_loop_a(x):
    total = 0.0
    count = 0
    for i in range(x.shape[0]):
        count = count + i
        total = total + x[i] * count
    return total


# =============================================================================
# In-place writes into local arrays
# =============================================================================
def write_index_a(a):
    out = np.zeros(3)
    out[0] = a[0] * a[1]
    out[2] = np.sin(a[2])
    return np.sum(out * out) + out[0]


def write_row_a(a):
    out = np.zeros((3, 2))
    out[0, :] = a[0] * a[1:]
    out[2, :] = np.cos(a[1:])
    return np.sum(out * out)


def write_column_a(a):
    out = np.ones((2, 3))
    out[:, 1] = a[:2] * a[2]
    return np.sum(np.tanh(out))


def write_mask_a(a, b):
    out = a * 1.0
    mask = a > 0
    out[mask] = b[mask] * 3.0
    return np.sum(out * out)


def write_augmented_a(a):
    out = np.zeros(3)
    out[1] += a[2] * a[0]
    out[1] += a[1]
    out[0] += np.sin(a[0])
    return np.sum(out * out)


def write_augmented_s(x):
    out = np.zeros(2)
    out[0] += x * x
    out[0] += x
    out[1] -= 3.0 * x
    return out[0] * out[1]


def write_overwrite_a(a):
    out = np.zeros(2)
    out[0] = a[0] * 5.0
    out[0] = a[1] * a[1]          # the first write's value is gone
    return np.sum(out) * a[2]


def write_reads_itself_a(a):
    out = np.zeros(3)
    out[0] = a[0]
    out[1] = out[0] * a[1]
    out[2] = out[1] * out[0] + a[2]
    return np.sum(out ** 2)


def write_in_loop_a(a):
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = a[i] * a[i] + i
    return np.sum(np.sin(out))


def write_recurrence_a(a, w):
    h = np.zeros(a.shape[0] + 1)
    for t in range(a.shape[0]):
        h[t + 1] = np.tanh(w * h[t] + a[t])
    return np.sum(h * h)


def write_accumulate_loop_a(a):
    out = np.zeros(2)
    for i in range(a.shape[0]):
        out[i % 2] += a[i] * a[i]
    return out[0] * out[1]


def write_copy_of_argument_a(a, v):
    y = a.copy()
    y[0] = v * v
    y[1] += v
    return np.sum(y * a)


def rnn_preallocated(Wh, Wx, xs):
    T = xs.shape[0]
    h = np.zeros((T + 1, Wh.shape[0]))
    for t in range(T):
        h[t + 1] = np.tanh(Wh @ h[t] + Wx @ xs[t])
    return np.sum(h[T] ** 2) + 0.1 * np.sum(h)


def rnn_rebinding(Wh, Wx, xs):
    """rnn_preallocated with the state rebound instead of written in place."""
    h = np.zeros(Wh.shape[0])
    total = 0.0
    for t in range(xs.shape[0]):
        h = np.tanh(Wh @ h + Wx @ xs[t])
        total = total + np.sum(h)
    return np.sum(h ** 2) + 0.1 * total


def write_through_alias_s(x):
    a = np.zeros(3)
    b = a
    b[0] = x
    return np.sum(a) * x


def write_through_view_s(x):
    out = np.zeros((2, 3))
    row = out[0]
    row[1] = x
    return np.sum(out * out)


# =============================================================================
# Container arguments
# =============================================================================
def arg_tuple_s(p):
    a, b = p
    return a * a * b + np.sin(b)


def arg_tuple_a(p):
    W, x = p
    return np.sum(np.tanh(W * x))


def arg_list_s(p):
    return p[0] * p[1] + p[2] ** 2


def arg_list_a(p):
    total = 0.0
    for v in p:
        total = total + np.sum(v * v)
    return total


def arg_list_ragged_a(p):
    return np.sum(p[0] ** 2) + np.sum(p[1]) * p[0][0]


def arg_mixed_tuple(p):
    a, v = p
    return a * np.sum(v * v)


def arg_dict_a(p, x):
    return np.sum(np.tanh(p["W"] @ x + p["b"])) * p["scale"]


def arg_nested(p):
    return p["layers"][0]["w"] * p["layers"][1]["w"] + np.sum(p["v"][1] ** 2) * p["v"][0]


def arg_dict_with_ints(p):
    return p["scale"] * np.sum(p["w"][: p["n"]]) + len(p["name"])


def arg_dataclass_a(p, x):
    return np.sum(np.tanh(p.W @ x + p.b))


def arg_dataclass_scalars(p, x):
    return p.a * np.sin(x) + p.b * p.b


def arg_vjp_tuple(p, x):
    return np.tanh(p[0] * x + p[1])


def arg_vjp_dict(p, x):
    return np.tanh(p["W"] @ x + p["b"])


def arg_vjp_dataclass(p, x):
    return np.tanh(p.W @ x + p.b)


@dataclasses.dataclass
class Config:
    w: np.ndarray
    scale: float
    n: int
    name: str


def arg_config(c, x):
    return c.scale * np.sum(c.w[: c.n] * x[: c.n]) * len(c.name)
