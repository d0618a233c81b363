"""jacfwd and jacrev place a one-hot entry into a structure with one walk
(transform/jacobians.py `_placed`): jacrev into the output's (the other leaves None),
jacfwd into the argument's zero tangent (the other leaves kept). NamedTuples, dicts and
lists on either side, each column against central differences; and jacfwd leaves the
caller's arrays alone when the function writes into its argument."""
import collections

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import jacfwd, jacrev

Pair = collections.namedtuple("Pair", "a b")


def to_namedtuple(x):
    return Pair(np.sin(x) * x[0], np.sum(x ** 2))


def to_dict(x):
    return {"head": np.tanh(x[:2]) * x[2], "tail": x[1:] ** 3}


def to_list(x):
    return [np.cos(x), x[0] * x[1]]


def from_namedtuple(p):
    return np.sin(p[0]) * p[1][0] + p[1] ** 2     # (by index: fd.py steps plain tuples)


def from_dict(d):
    return np.tanh(d["w"] @ d["v"]) + d["v"]


def from_list(xs):
    return xs[0] * np.exp(xs[1][:2]) + xs[1][2]


def writes_into_its_argument(x):
    x *= 2.0
    return np.sin(x)


def _leaves(tree, path=()):
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(tree, (tuple, list)):
        for k, v in enumerate(tree):
            yield from _leaves(v, path + (k,))
    else:
        yield path, tree


def _at(tree, path):
    for k in path:
        tree = tree[k]
    return tree


def _hot(tree, path, index):
    """tree with zeros everywhere and 1 at `index` of the leaf at `path`."""
    if isinstance(tree, dict):
        return {k: _hot(v, path[1:], index) if path and k == path[0] else _hot(v, None, 0)
                for k, v in tree.items()}
    if isinstance(tree, (tuple, list)):
        parts = [_hot(v, path[1:], index) if path and k == path[0] else _hot(v, None, 0)
                 for k, v in enumerate(tree)]
        return type(tree)(*parts) if hasattr(tree, "_fields") else type(tree)(parts)
    out = np.zeros(np.shape(tree))
    if path is not None:
        out[index] = 1.0
    return out if np.ndim(tree) else float(out)


@pytest.mark.parametrize("fn", [to_namedtuple, to_dict, to_list])
def test_structured_outputs_in_both_modes(fn):
    x = rng("structured outputs", fn.__name__).normal(size=3)
    forward, reverse = jacfwd(fn)(x), jacrev(fn)(x)
    assert type(forward) is type(reverse) is type(fn(x))
    for path, leaf in _leaves(fn(x)):
        for k in range(3):
            hot = np.zeros(3)
            hot[k] = 1.0
            column = _at(numerical_jvp(fn, (x,), 0, hot), path)
            assert_close(_at(forward, path)[..., k], column)
            assert_close(_at(reverse, path)[..., k], column)


ARGUMENTS = {
    from_namedtuple: lambda r: Pair(r.normal(size=2), r.normal(size=2)),
    from_dict: lambda r: {"w": r.normal(size=(2, 2)), "v": r.normal(size=2)},
    from_list: lambda r: [r.normal(size=2), r.normal(size=3)],
}


@pytest.mark.parametrize("fn", list(ARGUMENTS), ids=lambda f: f.__name__)
def test_structured_arguments_in_both_modes(fn):
    arg = ARGUMENTS[fn](rng("structured arguments", fn.__name__))
    forward, reverse = jacfwd(fn)(arg), jacrev(fn)(arg)
    assert type(forward) is type(reverse) is type(arg)
    for path, leaf in _leaves(arg):
        for index in np.ndindex(np.shape(leaf)):
            column = numerical_jvp(fn, (arg,), 0, _hot(arg, path, index))
            for jac in (forward, reverse):
                assert_close(_at(jac, path)[(...,) + index], column)


def test_jacfwd_leaves_an_argument_the_function_writes_into():
    """The value came from fn(*args) on the caller's array (session 33): a function
    writing into its argument doubled it, and every column was taken at 2x."""
    x = rng("writes into its argument").normal(size=3)
    before = x.copy()
    J = jacfwd(writes_into_its_argument)(x)
    np.testing.assert_array_equal(x, before)
    assert_close(J, np.diag(2.0 * np.cos(2.0 * before)))
    assert_close(jacrev(writes_into_its_argument)(x), J)
