"""Behaviour the mutation run (docs/testing.md, session 29 mutA) found unpinned in
runtime/rules/operators.py: the operators and builtins declared complex_ok carry
complex values (declared without it, the value was refused): `@` of complex matrices,
a list of complex numbers repeated (`[z0, z1] * 2`), a helper's `x * n` (the compiler
cannot tell a sequence from an array there), unary operators, builtin pow, sum, abs,
max/min/sorted with key=abs, a functools.partial binding a complex value, zip(*rows)
and dict.items, the unbound copies (`list.copy(zs)`, `dict.copy(d)`, the form that
reaches their rules), against central differences in the real
and imaginary parts' real inputs, under every policy."""
import functools

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand

A, B = rand(2, 3, seed=41), rand(2, 3, seed=42)
M = rand(3, 2, seed=43) + 1j * rand(3, 2, seed=44)


def complex_matmul(a, b):
    z = a + 1j * b
    return np.sum(np.abs(z @ M) ** 2) + np.real(np.sum((z @ z.T) * (1 - 2j)))


def repeated_list(a, b):
    z = a + 1j * b
    zs = [z[0, 0], z[1, 2] * z[0, 1]] * 2
    return sum(np.abs(v) ** 2 * (k + 1) for k, v in enumerate(zs))


def _times(x, n):
    return x * n


def helper_product(a, b):
    z = a + 1j * b
    rows = _times([z[0, 0], z[1, 1]], 3)
    return np.sum(np.abs(_times(z, 2.0 - 1j)) ** 2) + np.real(sum(rows) * (0.5 + 1j))


def unary_and_builtins(a, b):
    z = a + 1j * b
    u = -z[0] + (+z[1]) - z[0] / (z[1] + 2.0)
    p = pow(z[0], 2) + z[1] ** 3
    picked = max([z[0, 0], z[1, 2], z[0, 1] * 2], key=abs) + min([z[1, 0], z[0, 2]], key=abs)
    ordered = sorted([z[0, 0], z[1, 1], z[1, 2]], key=abs)
    return (np.sum(abs(u) ** 2 + np.real(p * (1 + 1j))) + abs(sum([z[0, 0], z[1, 1]], 1j))
            + np.real(picked * (2 - 1j)) + np.imag(ordered[0] * ordered[2]))


def _scaled(w, t):
    return w * t


def partial_binding_complex(a, b):
    z = a + 1j * b
    f = functools.partial(_scaled, z[0, 1])
    return np.sum(np.abs(f(a)) ** 2) + np.real(np.sum(f(z)) * (1 - 1j))


def zipped_rows_and_items(a, b):
    z = a + 1j * b
    rows = [[z[0, 0], z[0, 1]], [z[1, 0], z[1, 2]]]
    cols = list(zip(*rows))
    pairs = list({"low": z[0, :2], "all": z[1]}.items())
    return np.abs(cols[1][0] * cols[0][1]) + np.sum(np.abs(pairs[1][1]) ** 2) + np.imag(
        np.sum(pairs[0][1]))


def unbound_copies(a, b):
    z = a + 1j * b
    zs = list.copy([z[0, 0] * (1 + 2j), z[1, 1]])
    d = dict.copy({"w": z[0], "k": z[1, 2]})
    return abs(zs[0]) + np.imag(zs[1] * d["k"]) + np.sum(np.abs(d["w"]) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [complex_matmul, repeated_list, helper_product,
                                unary_and_builtins, partial_binding_complex,
                                zipped_rows_and_items, unbound_copies],
                         ids=lambda f: f.__name__)
def test_complex_values_through_operators(fn, policy):
    check_grad(fn, [A.copy(), B.copy()], wrt=(0, 1), policy=policy)
