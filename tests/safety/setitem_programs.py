"""Programs for tests/safety/test_setitem_redteam.py: element stores into dicts, lists and
arrays inside loops (each iteration's value its own shape), stores through integer-array
indices with repeated positions (the last write wins), and helpers with `*args`."""
import numpy as np


# ---- B3: container element stores in a loop ------------------------------------------
def dict_scaled(p):
    q = {}
    for k in p:
        q[k] = p[k] * 2.0
    return np.sum(q["w"])


def dict_scaled_both(p):
    q = {}
    for k in p:
        q[k] = p[k] * 2.0
    return np.sum(q["w"] * 3.0) + np.sum(q["b"] ** 2)


def dict_sgd_step(params, x):
    new = {}
    for name, val in params.items():
        new[name] = val - 0.1 * val
    return np.sum(np.tanh(new["W"] @ x + new["b"]))


def dict_keys_from_list(p, keys):
    q = {"w": p["w"] * 0.0, "b": p["b"] * 0.0}
    for k in keys:
        q[k] = q[k] + p[k] * p[k]
    return np.sum(q["w"]) + 5.0 * np.sum(q["b"])


def list_scaled(xs):
    q = [0.0, 0.0]
    for i in range(2):
        q[i] = xs[i] * 2.0
    return np.sum(q[0])


def list_scaled_both(xs):
    q = [0.0, 0.0]
    for i in range(2):
        q[i] = xs[i] * 2.0
    return np.sum(q[0] * 3.0) + np.sum(q[1] ** 2)


def list_nested_loops(xs, n):
    q = [xs[0] * 0.0, xs[1] * 0.0]
    for step in range(n):
        for i in range(2):
            q[i] = q[i] * 0.5 + xs[i] * xs[i]
    return np.sum(q[0]) + 2.0 * np.sum(q[1])


def array_shrinking_slices(x):
    y = np.zeros(3)
    for i in range(3, 0, -1):
        y[:i] = x[:i] * float(i)
    return np.sum(y * np.array([1.0, 2.0, 3.0]))


def array_rows_mixed(xs):
    Y = np.zeros((2, 2))
    for i in range(2):
        Y[i] = xs[i] * 2.0
    return np.sum(Y * np.array([[1.0, 2.0], [3.0, 4.0]]))


# ---- B6: repeated integer-array indices -------------------------------------------------
def fancy_store_dup(x):
    y = np.zeros(2)
    y[[0, 0]] = x
    return y[0] * 3.0 + y[1]


def fancy_add_dup(x):
    y = np.zeros(2)
    y[np.array([0, 0])] += x
    return y[0]


def fancy_sub_dup(x):
    y = x * 1.0
    y[[1, 1, 0]] -= x * x
    return np.sum(y * np.array([2.0, 3.0, 5.0]))


def fancy_add_dup_2d(x):
    Y = np.zeros((2, 2))
    Y[[0, 0], [1, 1]] += x
    return Y[0, 1] * 3.0 + np.sum(Y)


def fancy_rows_dup(X):
    Y = np.ones((2, 3))
    Y[[1, 1], :] -= X
    return np.sum(Y * np.arange(6.0).reshape(2, 3))


def fancy_scalar_dup(s):
    y = np.zeros(3)
    y[[0, 0, 2]] = s * 2.0
    return y[0] + 10.0 * y[2]


def fancy_negative_dup(x):
    y = np.zeros(2)
    y[np.array([1, -2, -1])] = x
    return y[0] * 3.0 + y[1] * 7.0


def fancy_dup_in_loop(x, n):
    y = x * 1.0
    for i in range(n):
        y[[0, 0]] = y[[1, 0]] * 2.0
    return np.sum(y * np.array([1.0, 10.0, 100.0]))


def fancy_read_dup_in_loop(x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(x[[0, 0, 1]] * 3.0)
    return s


def mask_store(x):
    y = x * 1.0
    y[x > 0] = x[x > 0] ** 2
    return np.sum(y)


# ---- B4: helpers with *args / **kwargs --------------------------------------------------
CALLED = []


def total(*xs):
    CALLED.append("total")
    return xs[0] + xs[1]


def varargs_helper(x):
    return total(x, x * 2.0)


def named_then_varargs(a, *rest):
    CALLED.append("named_then_varargs")
    return a * rest[0]


def varargs_tail(x):
    return named_then_varargs(2.0, x)


def keywords(**ks):
    CALLED.append("keywords")
    return ks["a"] * 2.0


def kwargs_helper(x):
    return keywords(a=x)


def count(*items):
    return float(len(items))


def varargs_not_differentiated(x):
    return x * count(1, 2, 3)
