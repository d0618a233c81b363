"""Programs that must be right or refused, as a user wrote them (module-level functions,
so their source is read from this file). tests/safety/test_refusal_examples.py judges them."""
import functools

import numpy as np


# 1. "No derivative" decided by name
def full_sum(s):
    return np.sum(np.full(3, s))


def full_like_fill(x, s):
    return np.sum(np.full_like(x, s) * x)


def linspace_ends(a, b):
    return np.sum(np.linspace(a, b, 5) ** 2)


def geomspace_ends(a, b):
    return np.sum(np.geomspace(a, b, 5))


def logspace_ends(a, b):
    return np.sum(np.logspace(a, b, 5))


def rng_normal(mu, sigma):
    rng = np.random.default_rng(0)
    return np.sum(rng.normal(mu, sigma, size=4))


def legacy_normal(mu, sigma):
    np.random.seed(0)
    return np.sum(np.random.normal(mu, sigma, 4))


def legacy_uniform(lo, hi):
    np.random.seed(0)
    return np.sum(np.random.uniform(lo, hi, 4))


def r_concat(x):
    return np.sum(np.r_[x, 2 * x] ** 2)


def c_concat(x):
    return np.sum(np.c_[x, 2 * x] ** 2)


def mod_const(x):
    return x % 2.0


def mod_both(x, y):
    return x % y


def fill_local(x, s):
    a = np.zeros(3)
    a.fill(s)
    return np.sum(a * a) + np.sum(x)


# 2. Aliasing
def view_before_write(a, w):
    a = a.copy()
    s = a[:1]
    a[0] = w
    return s[0]


def transpose_view(X):
    X = X.copy()
    Y = X.T
    Y += 1
    return np.sum(X * X)


def reshape_view(X):
    X = X.copy()
    Y = X.reshape(4)
    Y[0] = 0.0
    return np.sum(X * X)


def ravel_view(X):
    X = X.copy()
    Y = X.ravel()
    Y[1] = 0.0
    return np.sum(X * X)


def asarray_view(X):
    X = X * 1.0
    Y = np.asarray(X)
    Y[1] = 0.0
    return np.sum(X * X)


def list_holds(h):
    h = h * 1.0
    hist = [h]
    h[0] = 0.0
    return np.sum(hist[0])


def dict_holds(h):
    h = h * 1.0
    hist = {"a": h}
    h[0] = 0.0
    return np.sum(hist["a"])


def sort_argument(x):
    x.sort()
    return x[0] * 2.0


def fill_argument(x, v):
    x.fill(v)
    return np.sum(x)


def sort_local_copy(x):
    a = x * np.array([1.0, 2.0, 3.0])
    a.sort()
    return a[0] + 10 * a[2]


def symplectic_euler(S, dt):
    S = S.copy()
    x = S[0]
    v = S[1]
    S[1] = v - dt * x
    S[0] = x + dt * v
    return np.sum(S ** 2)


# 3. Name capture (more in test_names.py)
sq = lambda v: v * v      # noqa: E731  (a module-level lambda helper)


def lambda_helper(x):
    return sq(x) + 1.0


# 4. Stale programs
lam = 2.0


def reads_global(x):
    return lam * x * x


def doubling(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return 2 * fn(x)
    return wrapper


@doubling
def wrapped_square(x):
    return x * x


def calls_wrapped(x):
    return wrapped_square(x) + x


# 5. Loop-carried values
def temporary_used_twice(x):
    a = x
    t = 0.0
    for i in range(3):
        h = a * a
        t = t + h
        a = a + h
    return t


def prev_cur(x):
    total = 0.0
    prev = x
    for i in range(3):
        cur = 2 * x
        total = total + cur * prev
        prev = cur
    return total


def allocated_in_loop(x):
    s = 0.0
    for i in range(3):
        v = np.zeros(2)
        v[0] = x
        s = s + np.sum(v * v)
    return s


def cell(w, h, c):
    c2 = np.tanh(w * h) + c
    return np.tanh(c2), c2


def lstm_like(w, x):
    h = np.zeros(2)
    c = np.zeros(2)
    for i in range(3):
        h, c = cell(w, h + x, c)
    return np.sum(h)


def copy_write_rebind(u0):
    u = u0 * 1.0
    for i in range(3):
        un = u.copy()
        un[1:-1] = u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u ** 2)


def sum_of_appended(x):
    xs = []
    for i in range(3):
        xs.append(x * i)
    return np.sum(xs)


def mean_of_comprehension(x):
    xs = [x * i for i in range(3)]
    return np.mean(xs)


def comprehension_over_array(x):
    ys = [v * v for v in x]
    return ys[0] + ys[1]


def masked_sum(x):
    m = np.ma.masked_array(x, mask=[False, True, False])
    return np.sum(m * m)
