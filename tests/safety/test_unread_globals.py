"""Module globals the function never reads, named like the compiler's temporaries
(`t1`, `cond1`, `steps1`), holding numbers: a temporary the compiler made is a local,
never the module's value. (Session 31, red31: `a, b = pair(u)` became `t1 = pair(u)`,
`a = t1[0]`, and `t1[0]` resolved `t1` to the module's number: the index of a module
object, refused as "argument 1 of [] has no derivative rule".) Every policy, against
finite differences."""
import tempfile

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng

from .names_programs import load

_SOURCE = '''import numpy as np

t1 = 2.0
t2 = 3
t3 = 4.0
t4 = 5.0
cond1 = 1.0
steps1 = 0.5


def pair(x):
    return x[:2], x[2:]


def unpack_a_call(u, k):
    a, b = pair(u)
    return np.sum(a ** 2) * k + np.sum(np.sin(b))


def unpack_svd(M, k):
    U, s, Vt = np.linalg.svd(M)
    return np.sum(s ** 2) * k + np.sum(U[:, 0] * Vt[0]) ** 2


def unpack_in_a_loop(u, k):
    for _ in range(3):
        a, b = pair(u)                    # inlined in a loop body
        c, d = a * k, np.tanh(b)
        u = np.concatenate([d, np.sin(c)])
    if k > 0:
        u = u * 2.0
    return np.sum(u ** 2 * np.arange(len(u)))
'''

_MODULE = load(_SOURCE, tempfile.mkdtemp(prefix="thunkgrad_unread_"), "unread_globals")

CASES = [
    ("unpack_a_call", lambda r: [r.normal(size=5), 0.7]),
    ("unpack_svd", lambda r: [r.normal(size=(3, 3)), 0.7]),
    ("unpack_in_a_loop", lambda r: [r.normal(size=5), 0.7]),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name,make", CASES, ids=[c[0] for c in CASES])
def test_temporaries_never_read_the_module_globals(name, make, policy):
    check_function(getattr(_MODULE, name), make(rng("unread_globals", name)), (0, 1), policy)
