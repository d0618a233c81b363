"""Programs calling closure records and functools.partials (issue 20, session 35):
tests/forward/test_closure_calls.py runs them through jvp, jacfwd and hvp."""
import functools

import numpy as np


def apply(f, z):
    return f(z)


def twice(f, z):
    return f(f(z))


def make_loss(data, scale):
    def loss(w):
        return np.sum((data @ w) ** 2) * scale
    return loss


def weighted(a, z, scale=1.0):
    return np.sin(a * z) * scale


# -- closures defined in the function -------------------------------------------------------

X = np.array([[1.0, 0.5, -0.3], [0.2, -1.0, 0.7]])
Y = np.array([0.4, -0.2])


def per_example_closures(w):
    """Closures made in each pass of a loop, reading the pass's row and a value being
    differentiated: a def called by name, a lambda passed to a helper."""
    bias = np.tanh(w[0])
    total = 0.0
    for i in range(2):
        x_i = X[i]

        def loss_i(v):
            return (v @ x_i - Y[i] + bias) ** 2
        total = total + loss_i(w) + apply(lambda v: np.sum(v * x_i) * bias, w)
    return total


def closure_kept_in_a_list(w):
    s = np.exp(0.3 * w)
    fs = [lambda t: np.sum(t * s), np.sum]
    return fs[0](w * w) + fs[1](w) * fs[0](np.cos(w))


def closure_with_a_default(w):
    s = np.sin(w)

    def f(z, k=s):
        return np.sum(z * k) + np.sum(s * s)
    return f(w) * apply(f, w * 0.5)


# -- closures returned by helpers, lambdas passed to helpers -----------------------------

def made_loss(w):
    loss = make_loss(np.outer(np.cos(w), w), np.exp(w[1]))
    return loss(w) + loss(w * 0.5)


def lambdas_passed(w):
    a = np.sum(apply(lambda t: t ** 2, w))
    b = np.sum(twice(lambda t: t * w, np.sin(w)))
    return a + b


# -- functools.partial ---------------------------------------------------------------------

def partial_bound(w):
    f = functools.partial(weighted, np.cos(w))
    return np.sum(f(w))


def partial_of_a_differentiated_keyword(w):
    f = functools.partial(weighted, scale=w * 2.0)
    return np.sum(f(w, w))


def partial_of_a_closure_passed_on(w):
    s = w * w
    g = lambda t, u: t * s + u            # noqa: E731
    h = functools.partial(g, u=np.sin(w))
    k = functools.partial(functools.partial(weighted, w), scale=np.exp(w))
    return np.sum(apply(h, w) * k(w))


def partial_keyword_given_again(w):
    """The call's keyword wins over the partial's: the partial's value gets no
    derivative from that call (reverse mode gave it the call's: a wrong gradient)."""
    f = functools.partial(weighted, scale=w * 2.0)
    return np.sum(f(w, w, scale=0.7) * f(w, w))


def partial_of_a_partial_replacing_a_default(w):
    """The outer partial's keyword replaces the nested def's default (reverse mode lost
    its cotangent: the inner partial's parameters were read from inspect.signature,
    which sees a closure record as `(*args, **kwargs)`)."""
    a = np.exp(w)

    def f(x, y, k=a):
        return x * y * k
    p = functools.partial(functools.partial(f, w), k=np.sin(w))
    return np.sum(p(w))


SCALAR_OUTPUT = [per_example_closures, closure_kept_in_a_list, closure_with_a_default,
                 made_loss, lambdas_passed, partial_bound,
                 partial_of_a_differentiated_keyword, partial_of_a_closure_passed_on,
                 partial_keyword_given_again, partial_of_a_partial_replacing_a_default]


def vector_output(w):
    s = np.tanh(w)
    f = functools.partial(weighted, s)
    g = make_loss(np.eye(3) * w, 1.0)
    return f(w) * g(s) + apply(lambda t: t * s, w)


# -- refused: Python would read a value the record does not hold -------------------------

def rebound_after_made(w):
    s = w * 2.0
    f = lambda t: t * s                   # noqa: E731
    s = w * 3.0
    return np.sum(f(w))


def written_by_nonlocal(w):
    total = w * 0.0

    def add(t):
        nonlocal total
        total = total + t
        return total
    add(w)
    return np.sum(apply(add, w * w))


def kept_and_called_late(w):
    fs = []
    for k in range(2):
        s = w * (k + 1.0)
        fs.append(keep(lambda t: t * s))
    return np.sum(fs[0](w))


def keep(f):
    return f


def def_in_a_loop_passed_on(w):
    """The def's record would be called by the helper after `x_i` is bound again for
    the next pass only if the helper kept it: refused in both modes (lambda arguments
    are expired after their call instead)."""
    total = 0.0
    for i in range(2):
        x_i = X[i] * w

        def loss_i(v):
            return np.sum(v * x_i) ** 2
        total = total + apply(loss_i, w)
    return total


def scaled_by(t, *, s):
    return np.sin(t) * s


def partial_binding_a_keyword_only_parameter(w):
    """The bound value's cotangent comes back by name (forward_reverse.keyword_rule)."""
    f = functools.partial(scaled_by, s=np.exp(w))
    return np.sum(f(w))
