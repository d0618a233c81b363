"""What red40 found, each against central finite differences or as the refusal it
must be."""
import numpy as np

from tests.fd import assert_close, numerical_grad
from transform import grad, hessian

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
