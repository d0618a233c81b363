"""What red40 found, each against central finite differences or as the refusal it
must be."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import TransformError, grad, hessian

X = np.array([0.5, 0.1])


def _stages_read_later(theta):
    """Runge-Kutta's habit: a loop over the stages so far, then a stage appended."""
    ks = []
    total = 0.0
    for _ in range(2):
        s = np.zeros(2)
        for kk in ks:
            s = s + kk
        total = total + np.sum(s ** 2)
        ks.append(theta * (s + 1))
    return total


def _butcher_rows(theta):
    ks = []
    for row in ([], [0.5], [0.0, 0.5]):
        s = sum([a * kk for a, kk in zip(row, ks)], np.zeros(2))
        ks.append(theta * (s + 1))
    return np.sum(ks[-1] ** 2)


def test_loop_over_a_list_appended_to_later():
    """`for kk in ks` kept the list itself (runtime.tape.iterable, no copy), so the
    backward sweep saw the list's final length: the stage cotangents shifted by one
    (_stages_read_later's gradient was [0, 0], differences [1, 0.2]: silently wrong)
    or `accumulate_into` raised IndexError (butcher_rk). A list is now copied."""
    for f in (_stages_read_later, _butcher_rows):
        want = numerical_grad(f, [X], 0)
        assert_close(grad(f)(X), want, 1e-6, 1e-8, f.__name__)
        assert_close(grad(f, lowering="plain")(X), want, 1e-6, 1e-8, f.__name__)
        g = grad(f)
        assert_close(hessian(f)(X), np.stack([numerical_grad(lambda x: g(x)[i], [X], 0)
                                              for i in range(2)]), 1e-5, 1e-6, "hessian")


def _unpack_generator(theta, X):
    Wq, Wk = (theta[2 * i:2 * i + 2] for i in range(2))
    return np.sum(np.tanh(X @ Wq) * (X @ Wk))


def test_generator_unpacked_into_names():
    """`Wq, Wk, Wv = (theta[...] for i in range(3))` was refused as "a generator
    expression kept for later": unpacking consumes it at once, a list comprehension's
    meaning (transform/frontend/check.py)."""
    theta = np.array([0.3, -0.2, 0.5, 0.1])
    Xm = np.array([[0.5, 1.0], [-0.3, 0.2], [1.1, -0.7]])
    assert_close(grad(_unpack_generator)(theta, Xm),
                 numerical_grad(_unpack_generator, [theta, Xm], 0), 1e-6, 1e-8, "grad")
    g = grad(_unpack_generator)
    want = np.stack([numerical_grad(lambda t: g(t, Xm)[i], [theta], 0) for i in range(4)])
    assert_close(hessian(_unpack_generator)(theta, Xm), want, 1e-5, 1e-6, "hessian")


def _trajectory(p):
    """the midpoint method's habit: the last state read, the next appended, the read
    state used again."""
    traj = [p]
    for _ in range(3):
        y = traj[-1]
        traj.append(y + 0.1 * np.sin(y))
        z = 2 * y
    return np.sum(np.array(traj)) + np.sum(z)


def test_entry_of_a_list_is_no_view_of_it():
    """`y = traj[-1]; traj.append(...)` with y read later was refused ("`y` may be a view
    of `traj`"): an entry read by an index from a list display or comprehension is the
    entry, never a view of the list (transform/alias: State.lists). Writes into the
    entry itself are still refused."""
    assert_close(grad(_trajectory)(X), numerical_grad(_trajectory, [X], 0), 1e-6, 1e-8, "grad")

    def scaled(x):
        xs = [x * 1.0, x * 2.0]
        y = xs[1]
        xs[1] += 1.0                # changes y too: an array's `+=` is in place
        return np.sum(y * x)
    with pytest.raises(TransformError, match="may be a view of `xs\\[1\\]`"):
        grad(scaled)(X)
