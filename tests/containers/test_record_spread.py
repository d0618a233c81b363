"""A NamedTuple or dataclass built from `*xs` whose length the source does not fix
(`LocalLevel(*np.exp(log_qr))`, `Params(*parts)` of a list grown by append): a call
of a value, `spread_call(C, xs)`, dispatched when it runs as a compiled function's is
(transform/lowering/spread_calls.py). It was refused before session 40 (red41: Kalman,
transformer and jump-diffusion programs). Every mode against central differences in
float64; defaults, mixed positional entries, __post_init__, frozen dataclasses; a wrong
count raises Python's TypeError."""
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import grad, hvp, jacrev, jvp


class Three(NamedTuple):
    a: float
    b: float
    c: float = 2.0


@dataclass
class Derived:
    a: float
    b: np.ndarray
    c: float = 0.5

    def __post_init__(self):
        self.s = self.a * self.c


@dataclass(frozen=True)
class Pair:
    u: float
    v: float


def all_fields(x):
    p = Three(*np.exp(x[:3]))
    return p.a * p.b + p.c ** 2


def a_default_left(x):
    p = Three(*x[:2])
    return p.a * p.b * p.c + np.sum(p[:2]) ** 2


def mixed_entries(x):
    p = Three(x[0], *x[1:3] * 2)
    return p.a * p.b * p.c


def appended_parts(x):
    parts = []
    for i in range(3):
        parts.append(np.sin(x[i]))
    p = Three(*parts)
    return p._replace(c=p.c * 3).c * p.a - p.b


def post_init(x):
    d = Derived(*[x[0], x[1:4]])
    return d.s * np.sum(d.b ** 2) + d.c


def frozen(x):
    f = Pair(*x[4:])
    return f.u ** 2 * f.v


PROGRAMS = (all_fields, a_default_left, mixed_entries, appended_parts, post_init, frozen)
X = np.array([0.7, -0.4, 1.2, 0.3, -0.9, 0.5])


@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_every_mode_against_differences(fn):
    r = rng("record spread", fn.__name__)
    g = grad(fn)
    assert_close(g(X), numerical_grad(fn, (X,), 0), 1e-6, 1e-7, "grad")
    v = r.normal(size=6)
    assert_close(jvp(fn, (X,), (v,))[1], numerical_jvp(fn, (X,), 0, v), 1e-6, 1e-7, "jvp")
    assert_close(jacrev(fn)(X), numerical_grad(fn, (X,), 0), 1e-6, 1e-7, "jacrev")
    for route in ("forward_over_reverse", "reverse_over_forward"):
        assert_close(hvp(fn, (X,), (v,), route=route), numerical_jvp(g, (X,), 0, v),
                     1e-5, 1e-6, f"hvp {route}")


def test_a_wrong_count_raises_as_python_does():
    def too_many(x):
        return Three(*x).a
    with pytest.raises(TypeError, match="positional arguments"):
        grad(too_many)(X)
