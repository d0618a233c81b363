"""Programs for the errs40 red team: code thunkgrad cannot or should not differentiate,
written the way users write it. Each takes a float64 array `x` first (unless its name
says otherwise) and returns a scalar."""
import contextlib
import math
import os

import numpy as np

COUNTER = 0
STATE = {"calls": 0}
CACHE = []
LOG = []


def try_except(x):
    try:
        y = np.sum(np.sin(x))
    except ValueError:
        y = 0.0
    return y


def try_finally(x):
    try:
        y = np.sum(x ** 2)
    finally:
        pass
    return y


def try_except_reraise(x):
    try:
        return np.sum(np.log(x))
    except FloatingPointError as e:
        raise RuntimeError("bad") from e


def with_errstate(x):
    with np.errstate(divide="ignore"):
        y = np.sum(1.0 / x)
    return y


def with_suppress(x):
    y = np.sum(x)
    with contextlib.suppress(KeyError):
        y = y * 2.0
    return y


def with_open(x):
    with open(os.devnull) as fh:
        fh.read()
    return np.sum(x ** 2)


async def async_fn(x):
    return np.sum(x)


def gen_fn(x):
    yield np.sum(x)


def yield_from_fn(x):
    yield from [np.sum(x)]


def global_write(x):
    global COUNTER
    COUNTER = COUNTER + 1
    return np.sum(x * x)


def global_array_write(x):
    global CACHE
    CACHE = x * 2
    return np.sum(CACHE)


def dict_state_write(x):
    STATE["calls"] += 1
    return np.sum(x ** 3)


def nonlocal_write(x):
    total = 0.0

    def add(v):
        nonlocal total
        total = total + v
    add(np.sum(x))
    return total


def setitem_arg(x):
    x[0] = 1.0
    return np.sum(x ** 2)


def iadd_arg(x):
    x += 1.0
    return np.sum(x ** 2)


def imul_arg_slice(x):
    x[1:] *= 2.0
    return np.sum(x ** 2)


def fill_arg(x):
    x.fill(0.5)
    return np.sum(x)


def sort_arg(x):
    x.sort()
    return x[0] * x[-1]


def out_arg(x):
    np.sin(x, out=x)
    return np.sum(x)


def del_local(x):
    y = x * 2.0
    z = np.sum(y)
    del y
    return z


def del_item(x):
    d = {"a": x, "b": x * 2}
    del d["a"]
    return np.sum(d["b"])


def walrus(x):
    if (s := np.sum(x ** 2)) > 0:
        return s * 2.0
    return s


def walrus_comp(x):
    return sum([(y := v * 2.0) * y for v in x])


def match_stmt(x):
    match x.ndim:
        case 1:
            return np.sum(x ** 2)
        case _:
            return 0.0


def fstring_arr(x):
    label = f"x={x}"
    return np.sum(x ** 2) + 0.0 * len(label)


def fstring_fmt(x):
    s = np.sum(x ** 2)
    print(f"loss {s:.3f}", end="") if False else None
    return s


def assert_arr(x):
    assert np.all(x > 0), "positive"
    return np.sum(np.log(x))


def assert_scalar(x):
    s = np.sum(x)
    assert s > 0
    return s * s


class Weird:
    def __init__(self, v):
        self.v = v

    def __getattr__(self, name):
        return self.v


def getattr_class(x):
    w = Weird(x)
    return np.sum(w.anything ** 2)


class Ufuncy:
    def __init__(self, v):
        self.v = v

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        vals = [i.v if isinstance(i, Ufuncy) else i for i in inputs]
        return Ufuncy(getattr(ufunc, method)(*vals, **kwargs))


def array_ufunc_class(x):
    u = np.sin(Ufuncy(x))
    return np.sum(u.v)


def c_ext_no_rule(x):
    return math.fsum(x ** 2)


def c_ext_gamma(x):
    return np.sum(x) + math.lgamma(x[0] + 2.0)


def np_random_normal(x):
    noise = np.random.default_rng(3).normal(size=x.shape)
    return np.sum((x + noise) ** 2)


def np_random_rng(x):
    rng = np.random.default_rng(0)
    return np.sum(x * rng.standard_normal(x.shape))


def np_random_seeded(x):
    np.random.seed(0)
    return np.sum(x * np.random.rand(*x.shape))


def vector_out(x):
    return x ** 2


def returns_none(x):
    np.sum(x)


def returns_tuple(x):
    return np.sum(x), np.sum(x ** 2)


def returns_string(x):
    return "loss"


def returns_int_const(x):
    return 3


def recursive(x, n=3):
    if n == 0:
        return np.sum(x)
    return recursive(x * 1.5, n - 1)


def deep_recursive(x, n=5000):
    if n == 0:
        return np.sum(x)
    return deep_recursive(x, n - 1)


def kwonly(x, *, scale):
    return scale * np.sum(x ** 2)


def two_args(x, y):
    return np.sum(x * y)


def varargs(*xs):
    return sum(np.sum(v ** 2) for v in xs)


def uses_eval(x):
    return eval("np.sum(x ** 2)")


def uses_exec(x):
    ns = {"x": x, "np": np}
    exec("r = np.sum(x ** 2)", ns)
    return ns["r"]


def uses_locals(x):
    y = x * 2
    return np.sum(locals()["y"])


def uses_getattr_str(x):
    fn = getattr(np, "sin")
    return np.sum(fn(x))


def int_cast(x):
    return float(int(np.sum(x)))


def item_then_math(x):
    return math.sin(np.sum(x).item())


def complex_mix(x):
    z = x * 1j
    return np.sum(np.abs(z) ** 2)


def object_array(x):
    o = np.array([x[0], "a"], dtype=object)
    return o[0] * 2.0


def tolist_loop(x):
    return sum(v * v for v in x.tolist())


def while_true_break(x):
    s = 0.0
    i = 0
    while True:
        s = s + x[i] ** 2
        i += 1
        if i >= len(x):
            break
    return s


def for_else(x):
    s = 0.0
    for v in x:
        s = s + v
    else:
        s = s * 2.0
    return s


def lambda_inside(x):
    f = lambda v: v ** 3  # noqa: E731
    return np.sum(f(x))


def nested_def_default(x):
    def inner(v, k=x):
        return v * k
    return np.sum(inner(x))


def star_unpack(x):
    a, *rest = x
    return a * np.sum(np.array(rest))


def chained_compare(x):
    s = np.sum(x)
    return s * s if 0 < s < 100 else s


def ternary_arr(x):
    return np.sum(np.where(x > 0.5, x ** 2, x))


def set_comp(x):
    return sum({float(v) for v in x})


def string_key_dict(x):
    d = {str(i): v for i, v in enumerate(x)}
    return d["0"] * d["1"]


def global_decl_read(x):
    global COUNTER
    return np.sum(x) * (COUNTER * 0 + 1)


def raise_in_fn(x):
    if np.sum(x) < 0:
        raise ValueError("negative")
    return np.sum(x ** 2)


def stop_iteration_loop(x):
    it = iter(x)
    s = 0.0
    while True:
        try:
            s = s + next(it)
        except StopIteration:
            break
    return s


def class_in_fn(x):
    class P:
        def __init__(self, v):
            self.v = v
    return np.sum(P(x).v ** 2)


def import_in_fn(x):
    import math as m
    return np.sum(x) * m.pi


def setattr_fn_attr(x):
    setattr_fn_attr.calls = 1
    return np.sum(x ** 2)


def attr_on_array(x):
    x.flags.writeable = False
    return np.sum(x ** 2)


def array_resize(x):
    y = x.copy()
    y.resize(2 * len(x), refcheck=False)
    return np.sum(y ** 2)


def vectorize_fn(x):
    f = np.vectorize(lambda v: v ** 2)
    return np.sum(f(x))


def frompyfunc_fn(x):
    f = np.frompyfunc(lambda v: v * v, 1, 1)
    return float(np.sum(f(x)))


def apply_along(x):
    return np.sum(np.apply_along_axis(lambda r: r ** 2, 0, x))


def sorted_builtin(x):
    return sum(sorted(x)[:2])


def argmax_index(x):
    return x[np.argmax(x)] ** 2


def inplace_local_copy(x):
    y = x.copy()
    y[0] = 0.0
    return np.sum(y ** 2)


def fsum_of_array(x):
    return math.fsum(x ** 2)


def prod_of_array(x):
    return math.prod(x * 0.5 + 1.0)


def constant_vector(x):
    return np.ones(3)


def with_errstate_nested(x):
    with np.errstate(all="ignore"):
        with np.errstate(divide="ignore"):
            y = np.sum(np.log(x))
    return y


def try_else(x):
    try:
        y = np.sum(x ** 2)
    except ZeroDivisionError:
        y = 0.0
    else:
        y = y * 3.0
    return y


def nonlocal_counter(x):
    n = 0

    def step(v):
        nonlocal n
        n += 1
        return v * v
    return np.sum(step(x)) * n


def global_in_loop(x):
    global COUNTER
    s = 0.0
    for v in x:
        COUNTER += 1
        s = s + v * v
    return s


def append_to_global_list(x):
    LOG.append(x)
    return np.sum(x ** 2)


def mutate_default(x, acc=[]):  # noqa: B006
    acc.append(1)
    return np.sum(x ** 2) * len(acc)


def isub_slice_arg(x):
    x[:2] -= 0.5
    return np.sum(x ** 3)


def augassign_attr(x):
    class Box:
        pass
    b = Box()
    b.v = x
    b.v += 1.0
    return np.sum(b.v ** 2)


def fstring_in_raise(x):
    s = np.sum(x)
    if s < -100:
        raise ValueError(f"bad sum {s}")
    return s * s


def match_class_pattern(x):
    match (x[0], x[1]):
        case (a, b):
            return a * b
    return 0.0


def lambda_default_capture(x):
    fs = [lambda v, k=k: v * k for k in range(3)]
    return sum(np.sum(f(x)) for f in fs)


def walrus_in_while(x):
    i = 0
    s = 0.0
    while (i := i + 1) <= len(x):
        s = s + x[i - 1] ** 2
    return s


def del_attr(x):
    class Box:
        pass
    b = Box()
    b.v = x * 2
    b.w = x
    del b.w
    return np.sum(b.v)


def assert_isinstance(x):
    assert isinstance(x, np.ndarray)
    return np.sum(x ** 2)


def f_string_of_shape(x):
    key = f"{x.shape}"
    d = {key: x}
    return np.sum(d[key] ** 2)


def np_random_choice(x):
    idx = np.random.default_rng(1).choice(len(x), size=2, replace=False)
    return np.sum(x[idx] ** 2)


def float_of_array(x):
    return float(np.sum(x ** 2))


def int_index_from_value(x):
    k = int(x[0] * 7) % len(x)
    return x[k] ** 2


def complex_roundtrip(x):
    z = x + 1j * x
    return np.sum(np.real(z * np.conj(z)))


def bool_mask_mult(x):
    m = x > 0.5
    return np.sum(x * m)


def astype_int(x):
    return np.sum(x.astype(int) * x)


def nan_to_num_fn(x):
    return np.sum(np.nan_to_num(x / x) * x)


def prod_of_rows(x):
    A = np.stack([x, x ** 2 + 0.5])
    return np.sum(math.prod(A.T))
