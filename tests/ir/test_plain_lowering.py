"""The plain lowering (transform/ir/lower_plain.py, docs/ir.md "Second lowering"): the
typed sweeps as one function with no closures, no thunks, no `del`, tapes read by
index. Its gradients against central finite differences, its source, and the
constructs outside its subset refused by name at the user's line."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import TransformError, adjoint_source, grad, value_and_grad
from transform.cli import main


def rnn(W, U, x):
    h = np.zeros(W.shape[0])
    for i in range(x.shape[0]):
        h = np.tanh(W @ h + U @ x[i])
    return np.sum(h * h)


def simulate(k, x0):
    x = x0
    v = np.zeros_like(x0)
    for i in range(20):
        a = -k * x - 0.1 * v
        v = v + 0.05 * a
        x = x + 0.05 * v
    return np.sum(x ** 2)


def branchy(x, y):
    z = np.sin(x) * y
    for i in range(4):
        if z[0] > 0:
            z = z * y + x
        else:
            z = np.exp(-z) * x
    return np.sum(z) + np.prod(y)


def bound_in_a_branch(x):
    s = 0.0
    for i in range(4):
        if x[i] > 0:
            t = np.sin(x) * x[i]
        else:
            t = np.cos(x)
        s = s + np.sum(t * t)
    return s


def _step(h, W):
    for j in range(2):                  # (a callee with a loop: called, not inlined)
        h = np.tanh(W @ h)
    return h


def with_callee(W, h):
    for i in range(3):
        h = _step(h, W)
    return np.sum(h)


def _inputs(r):
    return {rnn: (0.5 * r.normal(size=(4, 4)), r.normal(size=(4, 3)), r.normal(size=(5, 3))),
            simulate: (0.7, r.normal(size=6)),
            branchy: (r.normal(size=3), r.normal(size=3)),
            bound_in_a_branch: (r.normal(size=4),)}


@pytest.mark.parametrize("fn", [rnn, simulate, branchy, bound_in_a_branch],
                         ids=lambda f: f.__name__)
def test_gradients_match_central_differences(fn):
    args = _inputs(np.random.default_rng(7))[fn]
    wrt = tuple(range(len(args)))
    value, grads = value_and_grad(fn, wrt, lowering="plain")(*args)
    assert_close(value, fn(*args), rtol=1e-12, atol=0)
    for k, g in enumerate(grads):
        assert_close(g, numerical_grad(fn, args, k), rtol=1e-5, atol=1e-7,
                     what=f"gradient of argument {k}")


def test_source_has_no_closure_no_del_no_thunk():
    source = adjoint_source(rnn, (0, 1, 2), lowering="plain")
    assert "def rnn_plain(" in source
    for word in ("lambda", "del ", "Thunk", "pullback", "tape_reader", "pop("):
        assert word not in source, word
    assert "tape_h[k]" in source and "tape_h = [h] * n" in source
    # t5 is first bound in the loop: appended after its assignment, read one down
    assert "tape_t5 = []" in source and "tape_t5.append(" in source
    assert "if k > 0:\n            t5 = tape_t5[k - 1]" in source
    assert "[None]" not in source


def test_outer_products_are_accumulated_per_iteration_not_batched():
    """BatchProducts (a Python object holding lists, for the CPython rule) is not run for
    the plain lowering, whose loops a compiler (numba) runs; the default still batches."""
    plain = adjoint_source(rnn, (0, 1, 2), lowering="plain")
    assert "MatmulLhsSum" not in plain and "dW = accumulate_into(dW, matmul_lhs(" in plain
    assert "MatmulLhsSum" in adjoint_source(rnn, (0, 1, 2))


def test_a_name_bound_in_a_branch_is_logged_not_saved_as_none():
    source = adjoint_source(bound_in_a_branch, lowering="plain")
    assert "tape_t = [t] * n" not in source and "log_t = []" in source
    assert "at_t[k] = len(log_t)\n            t = t1 * t2\n            log_t.append(t)" in source
    assert "tape_cond1.append(cond1)" in source        # bound once, at the top


def test_dump_command(capsys):
    path = __file__ + ":simulate"
    assert main(["dump", path, "--wrt", "k,x0", "--lowering", "plain"]) == 0
    out = capsys.readouterr().out
    assert "def simulate_plain(" in out and "lambda" not in out


@pytest.mark.parametrize("options", [{"policy": "flat"}, {"policy": "nested"},
                                     {"has_aux": True}, {"lowering": "jax"}])
def test_options_it_does_not_take(options):
    options = {"lowering": "plain", **options}
    with pytest.raises(ValueError):
        grad(simulate, **options)
