"""Programs for test_alias_redteam.py: the red team's silent wrong gradients (tuple
assignment of views, loops over the array they write, helpers writing into the
caller's buffer, a method error without a line) and their right-written neighbours."""
import numpy as np

LOG = np.zeros(1)


# ---- B1: a tuple of views assigned into the same array --------------------------------
def swap_rows(A):
    B = A.copy()
    B[0], B[1] = B[1], B[0]
    return np.sum(B[1])


def rotate_rows(S):
    S = S.copy()
    S[0], S[1], S[2] = S[1], S[2], S[0]
    return S[2, 0]


def swap_columns(S):
    S = S.copy()
    S[:, 0], S[:, 1] = S[:, 1], S[:, 0]
    return S[0, 0] + 10 * S[0, 1]


def swap_halves(x):
    y = x * 1.0
    y[:2], y[2:] = y[2:], y[:2]
    return y[0] + 3 * y[2]


def swap_scalars(x):
    y = x.copy()
    y[0], y[1] = y[1], y[0]
    return y[0] + 3 * y[1]


def swap_through_a_name(A):
    B = A.copy()
    r = B[1]
    B[0], B[1] = r, B[0]
    return np.sum(B[1])


def pair(r0, r1):
    return r1, r0


def swap_unpacking_a_name(A):
    B = A.copy()
    r = (B[1], B[0])
    B[0], B[1] = r
    return np.sum(B[1]) + 2 * np.sum(B[0])


def swap_unpacking_a_helper(A):
    B = A.copy()
    B[0], B[1] = pair(B[0], B[1])
    return np.sum(B[1]) + 2 * np.sum(B[0])


def swap_unpacking_reversed_view(A):
    B = A.copy()
    B[0], B[1] = B[::-1]
    return np.sum(B[1]) + 2 * np.sum(B[0])


def swap_unpacking_fancy_copy(A):
    B = A.copy()
    B[0], B[1] = B[[1, 0]]
    return np.sum(B[1]) + 2 * np.sum(B[0])


def swap_rows_fancy(A):
    B = A.copy()
    B[[0, 1]] = B[[1, 0]]
    return np.sum(B[1]) + 2 * np.sum(B[0])


def swap_rows_copied(A):
    B = A.copy()
    B[0], B[1] = B[1].copy(), B[0].copy()
    return np.sum(B[1]) + 2 * np.sum(B[0])


def fresh_values_into_rows(A):
    B = np.zeros_like(A)
    B[0], B[1] = A[1] * 2.0, np.sin(A[0])
    return np.sum(B[1]) + 3 * np.sum(B[0])


def first_item_reads_the_array(A):
    B = A.copy()
    B[0], c = B[1], 2.0
    return np.sum(B[0]) * c + np.sum(B[1])


# ---- B2: a loop over the array it writes -----------------------------------------------
def shift_by_enumerate(x):
    y = x.copy()
    for i, v in enumerate(y[:-1]):
        y[i + 1] = v
    return y[2]


def accumulate_rows(S):
    S = S.copy()
    for i, row in enumerate(S[:-1]):
        S[i + 1] = S[i + 1] + row
    return S[2, 0]


def loop_over_rows_writes_base(S):
    S = S.copy()
    for row in S:
        S[0] = S[0] + row
    return np.sum(S)


def loop_over_zip_writes(x):
    y = x.copy()
    for i, (a, b) in enumerate(zip(y[:-1], y[1:])):
        y[i + 1] = a * b
    return y[-1]


def square_current_item(x):
    y = x * 2.0
    for i, v in enumerate(y):
        y[i] = v * v
    return np.sum(y)


def list_items_updated(x):
    xs = [x * 1.0, x * 2.0]
    for i, v in enumerate(xs):
        xs[i] = v * 3.0
    return np.sum(xs[0]) + np.sum(xs[1] * xs[1])


def dict_values_updated(x):
    d = {"a": x * 1.0, "b": x * 2.0}
    for k in d:
        d[k] = np.sin(d[k])
    for k, v in d.items():
        d[k] = v * 3.0
    return np.sum(d["a"]) + np.sum(d["b"] * d["b"])


def shift_by_index(x):
    y = x.copy()
    for i in range(len(y) - 1):
        y[i + 1] = y[i]
    return y[2]


def shift_over_a_copy(x):
    y = x.copy()
    for i, v in enumerate(y[:-1].copy()):
        y[i + 1] = v * 2.0
    return y[2] + y[1]


def loop_over_other_array(x):
    y = np.zeros_like(x)
    for i, v in enumerate(x):
        y[i] = v * v
    return np.sum(y)


# ---- B5: a helper writing into the caller's local buffer -------------------------------
def put(buf, v):
    buf[0] = v


def put_returned(buf, v):
    buf[0] = v
    return buf


def put_through(buf, v):
    put(buf, v)
    return 1.0


def log_value(v):
    LOG[0] = v


def helper_writes_buffer(x):
    b = np.zeros(1)
    put(b, x * 3.0)
    return b[0] * x


def helper_result_unused(x):
    b = np.zeros(1)
    c = put_returned(b, x * 3.0)
    return b[0] * x


def helper_writes_through_another(x):
    b = np.zeros(1)
    put_through(b, x * 3.0)
    return b[0] * x


def helper_writes_global(x):
    log_value(x * 2.0)
    return x * x


def copy_and_put(buf, v):
    out = buf.copy()
    out[0] = v
    return out


def note(v):
    return None


def helper_writes_its_copy(x):
    b = np.zeros(2)
    b = copy_and_put(b, x * 3.0)
    note(b)
    return b[0] * x + b[1]


# ---- B12: a method with no rule, refused at the user's line ----------------------------
def zip_items(p):
    tot = 0.0
    for (k, v), s in zip(p.items(), [1.0, 2.0]):
        tot = tot + s * v
    return tot


def bytes_of(x):
    return np.sum(x.byteswap())      # (ndarray.compress has a rule since session 38)
