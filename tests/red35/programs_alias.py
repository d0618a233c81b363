"""Session 35 red team (red35) programs, batch 3: aliasing and writes the way users do
them (two names for one array, helpers normalising in place, zero buffers added into,
repeated indices), recursion, type checks, conversions and odd output structures."""
import numpy as np


def alias_iadd(x):
    a = x * 1.0
    b = a
    b += np.sin(x)
    return a * x


def alias_setitem(x):
    a = x * 2.0
    b = a
    b[0] = x[1] ** 2
    return a + b


def two_zero_buffers(x):
    a = np.zeros(3)
    b = np.zeros(3)
    a += x
    b += 2 * x ** 2
    return a * b + a


def zero_buffer_item(w, x):
    buf = np.zeros(3)
    buf[1] += w
    buf[2] = w * x[0]
    return np.sum(buf * x) ** 2


def repeated_index_iadd(x):
    y = np.zeros(3)
    y[[0, 0, 2]] += x
    return y


def add_at(x):
    y = np.zeros(3)
    np.add.at(y, [0, 0, 2], x)
    return y * y


def _normalize_(v):
    v /= np.linalg.norm(v)


def helper_inplace(x):
    y = x.copy()
    _normalize_(y)
    return y * np.arange(1.0, len(x) + 1)


def _set_first(v, val):
    v[0] = val


def helper_setitem(x):
    y = np.ones(3)
    _set_first(y, x[1] * x[2])
    return y * x


def _push(lst, v):
    lst.append(v)


def helper_append(x):
    out = []
    for i in range(3):
        _push(out, x[i] ** (i + 1))
    return sum(out)


def transpose_view_write(x):
    M = np.zeros((2, 2))
    Mt = M.T
    Mt[0, 1] = x[0]
    return M * x[1]


def row_view_loop(X):
    total = 0.0
    for row in X:
        total = total + np.prod(row) + row @ row
    return total


def asarray_copy(x):
    y = np.asarray(x)
    z = np.array(x)
    z = z * 2
    return np.sum(y * z) + np.sum(list(x))


def astype_roundtrip(x):
    y = x.astype(np.float64) * np.float32(2.0)
    return np.sum(np.exp(x) * y) + np.float64(np.sum(x)) ** 2


def _powrec(x, n):
    if n == 0:
        return 1.0
    return x * _powrec(x, n - 1)


def recursive_power(x):
    return _powrec(x, 3) + np.sin(_powrec(x, 2))


def _even(x, n):
    return x if n == 0 else _odd(np.sin(x), n - 1)


def _odd(x, n):
    return x if n == 0 else _even(x * x, n - 1)


def mutual_recursion(x):
    return np.sum(_even(x, 3))


def type_checks(a):
    if isinstance(a, float):
        s = a * 2
    else:
        s = a * 3
    if np.isscalar(a) and np.ndim(a) == 0:
        s = s + a ** 2
    return s


def dtype_branch(x):
    if x.dtype == np.float32:
        return np.sum(x)
    return np.sum(x ** 2) * x.shape[0] / len(x)


def dict_output(x):
    return {"sq": x ** 2, "sin": np.sin(x[:2])}


def tuple_output(x, y):
    return x * y, np.sum(x) * y


def early_return(x):
    for i in range(len(x)):
        if x[i] > 1.0:
            return x[i] ** 2 * np.sum(x)
    return np.sum(x ** 3)


def _kw_helper(x, W, b=0.0, act=None):
    z = W @ x + b
    return z if act is None else act(z)


def keyword_order(x, W):
    h = _kw_helper(W=W, x=x, act=np.tanh)
    return np.sum(_kw_helper(h, b=0.5, W=W.T @ W) ** 2)


def _make_dict(x):
    return {"a": x[0] * x[1], "b": np.exp(x)}


def helper_dict(x):
    d = _make_dict(x)
    d["c"] = d["a"] ** 2
    return d["c"] + np.sum(d["b"]) * d["a"]


def printing(x):
    s = 0.0
    for i, v in enumerate(x):
        s = s + v ** 2
        if i == 0:
            print(f"x0 = {v:.3f}, s = {s}")
    assert np.all(np.isfinite(x))
    return s


def keepdims_sum(x):
    X = x.reshape(2, 3)
    return X / X.sum(axis=1, keepdims=True) + np.sum(X, keepdims=True)


def where_scalar_tangent(w, x):
    return np.where(x > 0, w, 0.0) * x + np.where(x > 0, 1.0, w ** 2)


def loop_tuple_swap(x):
    a, b = x[0], x[1]
    for _ in range(3):
        a, b = b, a * b + 0.1
    return a + 2 * b


def ones_like_scale(x):
    c = np.full_like(x, 2.0)
    d = np.ones(len(x))
    c[1] = x[0]
    return np.sum(c * x * d)


def cumulative_lists(x):
    xs = list(x)
    acc = [xs[0]]
    for v in xs[1:]:
        acc.append(acc[-1] * 0.5 + v)
    return np.array(acc)


def kw_scaled(x, scale=2.0):
    return np.sum(np.sin(x) * scale) ** 2


def kw_only(x, *, scale=2.0):
    return np.sum(np.sin(x) * scale) ** 2


def max_shifted(T):
    z = np.array([1.0, -0.5, 2.0]) / T
    return np.sum(np.exp(z - np.max(z)))


def out_none(x):
    return np.sum(x ** 2 * np.exp(x), out=None) + np.max(x, out=None) ** 2
