"""Programs whose loop bodies call small module-level helpers (inlined: see
transform/lowering/inline_helpers.py) and helpers the compiler must not inline."""
import numpy as np

from tests.loop_pass import helpers_in_loops as elsewhere

GAIN = 0.7
tape = 1.3                 # a global named like the compiler's own `tape`


def rhs(y, W):
    """The right-hand side."""
    return np.tanh(W @ y)


def rk4(y, W):
    h = 0.1
    for _ in range(5):
        k1 = rhs(y, W)
        k2 = rhs(y + 0.5 * h * k1, W)
        k3 = rhs(y + 0.5 * h * k2, W)
        k4 = rhs(y + h * k3, W)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return np.sum(y ** 2)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def cell(x, h, c, W):
    n = h.shape[0]
    z = W @ np.concatenate([x, h])
    c = sigmoid(z[:n]) * c + sigmoid(z[n:2 * n]) * np.tanh(z[2 * n:])
    return np.tanh(c) * sigmoid(z[:n]), c


def lstm(W, xs, h, c):
    for x in xs:
        h, c = cell(x, h, c, W)
    return np.sum(h ** 2) + np.sum(c)


def lstm_two_layers(W1, W2, xs, h, c):
    """The same tuple-returning helper twice per step: both calls inlined."""
    h2, c2 = h * 0.5, c * 0.5
    for x in xs:
        h, c = cell(x, h, c, W1)
        h2, c2 = cell(h, h2, c2, W2)
    return np.sum(h2 ** 2) + np.sum(c)


def swapped(W, y):
    """Parameters named like the caller's arguments, passed crosswise."""
    W = W * GAIN                            # rebinds a parameter
    return W * y


def crosswise(y, W):
    for _ in range(3):
        y = swapped(y, W) + np.sin(W)
    return np.sum(y ** 2)


def gained(x):
    return GAIN * x


def shadowing(x, a):
    """The caller's local GAIN is not the global the helper reads."""
    GAIN = 3.0 * a
    for _ in range(3):
        x = gained(x) + GAIN * x
    return np.sum(x ** 2)


def taped(x):
    return tape * np.sin(x)


def reads_tape(x):
    for _ in range(3):
        x = taped(x)
    return np.sum(x)


def branchy(x):
    if np.sum(x) > 0:
        return x * 2.0
    return x * 3.0


def with_branch(x):
    for _ in range(3):
        x = branchy(x) - 1.0
    return np.sum(x ** 2)


def writes_local(x):
    z = np.zeros_like(x)
    np.copyto(z, x)
    return z * x


def copying(x):
    for _ in range(2):
        x = writes_local(x)
    return np.sum(x)


def from_elsewhere(y, p):
    for _ in range(3):
        y = elsewhere.rhs(y, p)
    return np.sum(y ** 2)


def once(y, W):
    return np.sum(rhs(y, W))


def keep(f):
    return f


def uses_a_kept_lambda(x):
    f = lambda t: t * 2.0                   # noqa: E731
    s = 0.0
    for _ in range(3):
        s = s + np.sum(keep(f)(x)) + np.sum(keep(lambda t: t * x)(x))
    return s


def plus_product(a, b):
    return a * b + a


def one_local_twice(x):
    s = 0.0
    for _ in range(3):
        x = plus_product(x, x)
        s = s + np.sum(x)
    return s


def halve_or_recurse(x, n):
    return x * 0.5 if n <= 0 else sine_of(x, n - 1)


def sine_of(x, n):
    return np.sin(halve_or_recurse(x, n))


def mutually_recursive(x):
    s = 0.0
    for n in range(3):
        s = s + np.sum(sine_of(x, n))
    return s
