"""Functions for test_aliasing.py: writes the alias check must refuse, and writes it
must let through (no other name reads the written memory afterwards)."""
import numpy as np

G = np.array([1.0, 2.0])


class Box:
    def __init__(self, W):
        self.W = W


def passthrough(t):
    return t


# ---- refused: the caller's data -------------------------------------------------------
def sort_argument(x):
    x.sort()
    return x[0] * 2.0


def fill_argument(x, w):
    x.fill(w)
    return np.sum(x)


def view_of_argument_written(x, w):
    v = x[:1]
    v[0] = w
    return np.sum(v)


def transposed_argument_written(X, w):
    Y = X.T
    Y[0] = w
    return np.sum(Y)


def loop_element_of_argument_written(X, w):
    total = 0.0
    for row in X:
        row[0] = w
        total = total + np.sum(row)
    return total


def helper_result_of_argument_written(x, w):
    v = passthrough(x)
    v[0] = w
    return np.sum(v)


def dict_argument_value_written(params, w):
    W = params["W"]
    W[0] = w
    return np.sum(W)


def attribute_of_argument_written(box, w):
    W = box.W
    W[0] = w
    return np.sum(W) * w


def copyto_argument(x, w):
    np.copyto(x, w)
    return np.sum(x)


def add_at_argument(x, w):
    np.add.at(x, 0, w)
    return np.sum(x)


def out_argument(x, w):
    np.multiply(x, w, out=x)
    return np.sum(x)


def global_written(w):
    g = G
    g[0] = w
    return np.sum(g)


def nested_writes_its_parameter(x, w):
    def zero_first(v):
        v[0] = w
        return v
    a = x * 1.0
    b = zero_first(a)
    return np.sum(a * b)


# ---- refused: another live name shares the memory ------------------------------------
def symplectic_step(S, dt):
    S = S.copy()
    x = S[0]
    v = S[1]
    S[1] = v - dt * x        # v is a view of S[1] and is read below
    S[0] = x + dt * v
    return np.sum(S ** 2)


def view_then_write(a, w):
    a = a.copy()
    s = a[:1]
    a[0] = w
    return s[0]


def list_holds_then_write(h):
    h = h * 1.0
    hist = [h]
    h[0] = 0.0
    return np.sum(hist[0] * hist[0])


def view_read_in_a_later_loop_trip(w):
    a = np.zeros(3)
    s = a[:2]
    total = 0.0
    for i in range(3):
        a[i] = w * (i + 1)
        total = total + np.sum(s)
    return total


def view_taken_in_the_loop_read_next_trip(w):
    a = np.zeros(3)
    total = 0.0
    s = np.zeros(2)
    for i in range(3):
        total = total + np.sum(s)
        a[i] = w * (i + 1)
        s = a[:2]
    return total


def view_read_after_a_break(w):
    a = np.zeros(3)
    s = a[:1]
    for i in range(3):
        a[i] = w
        if i > 0:
            break
        s = np.ones(1)
    return np.sum(s)


def sort_local(x):
    a = x * np.array([1.0, 2.0, 3.0])
    a.sort()
    return a[0] + 10 * a[2]


def augmented_transpose(X):
    X = X.copy()
    Y = X.T
    Y += 1
    return np.sum(X * X)


# ---- allowed: the other name is not read after the write -----------------------------
def view_read_only_before_the_write(x, w):
    a = x * 1.0
    row = a[0]
    s = np.sum(row * row)
    a[0] = w * a[1]
    return s + np.sum(a * a)


def view_rebound_to_a_copy(x, w):
    a = x * 1.0
    v = a[:1]
    v = v.copy()
    a[0] = w
    return np.sum(v * a)


def base_rebound_to_a_copy(x, w):
    a = x * 1.0
    v = a[1:]
    a = a.copy()
    a[1] = w
    return np.sum(v) * np.sum(a)


def symplectic_step_with_copies(S, dt):
    S = S.copy()
    x = S[0].copy()
    v = S[1].copy()
    S[1] = v - dt * x
    S[0] = x + dt * v
    return np.sum(S ** 2)


def row_read_in_the_written_statement(S, dt):
    S = S.copy()
    x = S[0]
    S[0] = x * dt + x * x      # x is read before the write, never after
    return np.sum(S ** 2)


def rnn_reads_previous_row(W, xs):
    h = np.zeros((xs.shape[0] + 1, W.shape[0]))
    for t in range(xs.shape[0]):
        prev = h[t]
        h[t + 1] = np.tanh(W @ prev + xs[t])
    return np.sum(h * h)


def list_of_copies_then_write(x):
    h = x * 1.0
    hist = [h.copy()]
    h[0] = 0.0
    return np.sum(hist[0] * h)


def alias_dead_after_write(x, w):
    a = x * 1.0
    b = a
    total = np.sum(b)
    a[0] = w
    return total + np.sum(a)


def positional_out_argument(x, w):
    np.multiply(x, w, x)
    return np.sum(x)


def positional_out_local(x, w):
    a = x * 1.0
    v = a[1:]
    np.tanh(a, a)
    return np.sum(v) * w


def loop_element_of_a_fresh_list_written(x):
    s = 0.0
    for v in [x * 1.0, x * 2.0]:
        v[0] = v[1] * v[0]         # the backward sweep restores v from the list
        s = s + np.sum(v * v)
    return s


def loop_element_copied_then_written(x):
    s = 0.0
    for v in [x * 1.0, x * 2.0]:
        v = v.copy()
        v[0] = v[1] * v[0]
        s = s + np.sum(v * v)
    return s


def nested_writes_its_own_copy(x, w):
    def bumped(v):
        v = v.copy()
        v[0] = w * v[0]
        return v
    a = x * 1.0
    return np.sum(bumped(a) * a)


def generator_kept_for_later(x):
    a = x * 1.0
    g = (a[0] * t for t in range(2))     # Python runs it after the write below
    a[0] = 5.0
    return sum(g)


def generator_consumed_at_once(x):
    a = x * 1.0
    s = sum(a[k] * a[k] for k in range(2))
    a[0] = 5.0
    return s + np.sum(a * x)


def concatenated_list_holds_then_write(x):
    h = x * 1.0
    hs = [x] + [h]
    h[0] = 0.0
    return np.sum(hs[1] * hs[1])


def list_extended_in_place_through_alias(x):
    xs = [x * 1.0]
    ys = xs
    ys += [x * x]
    return np.sum(xs[-1])


def layer(W, x):
    return np.tanh(W @ x)


def first_row(A):
    return A[0]


def pair_of(a, b):
    return [a, b * 2.0]


def fresh_helper_result_written(W, x):
    h = layer(W, x)
    h[0] = 0.0                 # a new array: nothing else shares it
    return np.sum(h * h) + np.sum(W * x)


def helper_view_of_local_written(x):
    A = np.outer(x, x)
    r = first_row(A)
    r[0] = 0.0                 # a view of A, which is read below
    return np.sum(A)


def helper_list_holding_local(x):
    a = x * 1.0
    both = pair_of(a, x)
    a[0] = 0.0                 # both[0] is a
    return np.sum(both[0])
