"""Python as people write it (session 30, py30b; issue 16): zip and reversed read whole
by list/tuple/sorted/dict/sum/max/min, `dict(zip(keys, values))`, copy.copy and
copy.deepcopy with stores into the copy, `xs.sort(key=...)` and `rng.shuffle(xs)` of a
list the function builds, `f(**params)` with keys known only at run time, nested defs
with keyword-only parameters, `yield from` in generator helpers. Scalar and array
variants against finite differences under every policy; what stays refused is refused."""
import collections
import copy
import random
import typing

import numpy as np

from .case import case, floats, refused
from .data_values import both


# ---- zip / reversed read whole ----------------------------------------------------------
@case(floats((3,), (3,)))
def sorted_zip_of_two_arrays(a, b):
    pairs = sorted(zip(a, b))
    return sum(p * q * (k + 1) for k, (p, q) in enumerate(pairs))


@both
def sorted_zip_with_key(x):
    vals = [x, x * 2.0, np.sin(x)]
    pairs = sorted(zip([3.0, 1.0, 2.0], vals), key=lambda kv: kv[0])
    return np.sum(pairs[0][1] * 1.0 + pairs[1][1] * 2.0 + pairs[2][1] * 3.0)


@both
def dict_of_zip(x):
    d = dict(zip(["a", "b", "c"], [x, x * 2.0, np.sin(x)]))
    return np.sum(d["a"] * 1.0 + d["b"] * 2.0 + d["c"] * 3.0)


@both
def dict_of_zip_repeated_key(x):
    d = dict(zip(["a", "b", "a"], [x, x * 2.0, np.sin(x)]))     # the last "a" wins
    return np.sum(d["a"] * 3.0 + d["b"])


@case(floats((3, 2)))
def dict_of_zip_over_matrix_rows(W):
    d = dict(zip(["a", "b", "c"], W))
    return np.sum(d["a"] * 1.0 + d["b"] * 2.0 + d["c"] ** 2)


@both
def list_of_zip_of_lists(x):
    ps = list(zip([x, x * 2.0], [np.sin(x), np.cos(x)]))
    return np.sum(ps[0][0] * ps[0][1] + 3.0 * ps[1][0] * ps[1][1])


@case(floats((2, 3), (2, 3)))
def list_of_zip_of_matrix_rows(W, V):
    ps = list(zip(W, V))
    return np.sum(ps[0][0] * ps[1][1] + ps[1][0] ** 2)


@case(floats((2, 3)))
def zip_star_of_array_rows(W):
    rows = [W[0] * 2.0, W[1]]
    cols = list(zip(*rows))             # the rows are arrays: their cotangents arrays
    return cols[0][0] * cols[1][1] + cols[2][0] ** 2 + np.sum(rows[0])


@both
def zip_shorter_list_stops(x):
    ps = list(zip([x, x * 2.0, np.sin(x)], [1.0, 2.0]))
    return np.sum(ps[0][0] * ps[0][1] + ps[1][0] * ps[1][1]) + len(ps)


@both
def max_of_zip_with_key(x):
    best = max(zip([1.0, 3.0, 2.0], [x, x * 2.0, np.sin(x)]), key=lambda p: p[0])
    return np.sum(best[1])


@both
def list_of_reversed_list(x):
    ys = list(reversed([x, x * 2.0, np.sin(x)]))
    return np.sum(ys[0] * 1.0 + ys[1] * 2.0 + ys[2] * 3.0)


@both
def sum_of_reversed_display(x):
    s = x * 3.0
    return np.sum(sum(reversed([s, x])))


@case(floats((3,)))
def sum_of_reversed_array(x):
    return np.sum(sum(reversed(x * 2.0))) + np.sum(list(reversed(x))[0] * x)


@both
def tuple_of_reversed_tuple(x):
    r = tuple(reversed((x, x * 2.0, np.cos(x))))
    return np.sum(r[0] * 3.0 + r[2])


@both
def zip_with_a_reversed_row(x):
    a = [x, x * 2.0, np.sin(x)]
    ps = list(zip(a, reversed(a)))
    return np.sum(ps[0][0] * ps[0][1] + ps[1][0] * ps[2][1])


@both
def list_reversed_by_slice(x):
    ys = [x, x * 2.0, np.sin(x)][::-1]
    return np.sum(ys[0] * 1.0 + ys[1] * 2.0 + ys[2] * 3.0)


# ---- copies ------------------------------------------------------------------------------
@both
def store_into_shallow_copy(x):
    d = {"a": x, "b": x * 2.0}
    e = copy.copy(d)
    e["a"] = np.sin(x)
    return np.sum(d["a"] * 2.0 + e["a"] * 3.0 + e["b"])


@both
def store_into_deep_copy(x):
    p = {"w": x, "b": [x * 2.0, x]}
    q = copy.deepcopy(p)
    q["w"] = q["w"] * 3.0
    return np.sum(p["w"] + q["w"] + q["b"][0] * q["b"][1])


@case(lambda rng: [{"w": rng.standard_normal(3), "b": rng.standard_normal(3)}])
def deep_copy_of_parameters_updated(params):
    new = copy.deepcopy(params)
    for k in ["w", "b"]:
        new[k] = new[k] - 0.1 * params[k] ** 2
    return np.sum(new["w"] * new["b"])


@case(floats((3,)))
def write_into_copied_array(x):
    c = copy.copy(x)
    c[0] = np.sin(x[1])
    return np.sum(c * x)


@both
def append_to_copied_list(x):
    xs = [x, x * 2.0]
    ys = copy.copy(xs)
    ys.append(np.sin(x))
    return np.sum(ys[2] * xs[1] + len(xs))


@refused(floats((3,)), "a shallow copy shares its arrays: writing into one changes both")
def write_into_array_of_shallow_copy(x):
    p = {"a": x * 1.0, "b": x * 2.0}
    q = copy.copy(p)
    q["a"][0] = 5.0
    return np.sum(q["a"] * p["a"])


# ---- sort and shuffle in place -----------------------------------------------------------
@both
def sort_list_of_pairs_by_key(x):
    xs = [(3.0, x), (1.0, x * 2.0), (2.0, np.sin(x))]
    xs.sort(key=lambda kv: kv[0])
    return np.sum(xs[0][1] * 1.0 + xs[1][1] * 2.0 + xs[2][1] * 3.0)


@case(floats(()))
def sort_list_of_numbers_reversed(x):
    xs = [x * 3.0, x, x * 2.0, np.sin(x)]
    xs.sort(reverse=True)
    return xs[0] * 1.0 + xs[1] * 2.0 + xs[2] * 3.0


@both
def shuffle_list_with_generator(x):
    rng = np.random.default_rng(0)
    xs = [x, x * 2.0, np.sin(x), x ** 2]
    rng.shuffle(xs)
    return np.sum(xs[0] * 1.0 + xs[1] * 2.0 + xs[2] * 3.0)


@both
def shuffle_list_every_epoch(x):
    rs = np.random.RandomState(1)
    xs = [x, x * 2.0, np.sin(x)]
    t = 0.0
    for epoch in range(3):
        rs.shuffle(xs)
        t = t + xs[0] * (epoch + 1.0)
    return np.sum(t)


@both
def shuffle_list_with_python_random(x):
    r = random.Random(4)
    xs = [x, x * 2.0, np.sin(x), x ** 2]
    r.shuffle(xs)
    return np.sum(xs[0] * 1.0 + xs[3] * 2.0)


@refused(floats((3,)), "an array shuffled in place: write y = rng.permutation(y)")
def shuffle_array_in_place(x):
    rng = np.random.default_rng(0)
    y = x * 2.0
    rng.shuffle(y)
    return np.sum(y * np.arange(3.0))


@refused(floats((3,)), "another name sees the list the shuffle changes")
def shuffle_list_another_name_sees(x):
    rng = np.random.default_rng(0)
    xs = [x, x * 2.0, np.sin(x)]
    ys = xs
    rng.shuffle(xs)
    return np.sum(ys[0] * 3.0 + xs[1])


# ---- keywords ----------------------------------------------------------------------------
def _model(w, b, scale=1.0):
    return w * b * scale


def _layer(x, *, w, b=0.0):
    return np.tanh(x * w + b)


class _Net:
    def __init__(self, k):
        self.k = k

    def forward(self, x, w, b=0.0):
        return np.sin(x * w + b) * self.k


@case(lambda rng: [rng.standard_normal(3), {"b": rng.standard_normal(3), "scale": 2.0}])
def keywords_of_a_dict_argument(x, params):
    return np.sum(_model(x, **params))


@case(lambda rng: [{"w": rng.standard_normal(3), "b": rng.standard_normal(3)}])
def all_arguments_from_a_dict(params):
    return np.sum(_model(**params))


@case(lambda rng: [rng.standard_normal(3), {"w": rng.standard_normal(3), "b": 0.3}])
def keyword_only_parameters_from_a_dict_in_a_loop(x, params):
    t = 0.0
    for k in range(3):
        t = t + np.sum(_layer(x * k, **params))
    return t


@case(lambda rng: [rng.standard_normal(3), {"w": rng.standard_normal(3)}])
def method_keywords_from_a_dict(x, params):
    return np.sum(_Net(2.0).forward(x, **params))


@case(floats((3,), (3,)))
def keywords_from_a_dict_built_by_item_writes(x, w):
    params = {}
    params["w"] = w
    params["b"] = x * 0.5
    return np.sum(_layer(x, **params))


@both
def nested_def_with_keyword_only_parameters(x):
    def inner(y, *, scale=1.0):
        return y * scale
    return np.sum(inner(x) + inner(x, scale=3.0))


@both
def nested_def_keyword_only_required_closure(x):
    w = np.sin(x)

    def inner(y, *, scale, shift=0.0):
        return y * scale * w + shift
    t = 0.0
    for k in range(3):
        t = t + inner(x, scale=k + 1.0, shift=x * 0.5)
    return np.sum(t)


@refused(floats(()), "a nested def with keyword-only parameters passed as a value")
def nested_def_keyword_only_as_a_value(x):
    def inner(y, *, scale=2.0):
        return y * scale
    return np.sum(sum(map(inner, [x, x * 2.0])))


# ---- yield from --------------------------------------------------------------------------
def _leaves(p):
    yield p
    yield p * 2.0


def _tree(ps):
    for p in ps:
        yield from _leaves(p)
    yield from [np.cos(ps[0]), 1.0]


def _deep(p):
    yield from _tree([p, np.sin(p)])


@both
def yield_from_generators_summed(x):
    return np.sum(sum(_tree([x, x ** 2])))


@both
def yield_from_walked_by_a_loop(x):
    t = 0.0
    for k, v in enumerate(_deep(x)):
        t = t + v * (k + 1.0)
    return np.sum(t)


@both
def yield_from_listed(x):
    vs = list(_deep(x))
    return np.sum(vs[1] * vs[3] + vs[-2])


# ---- NumPy functions of a NamedTuple, and what stays refused ----------------------------
class _Pair(typing.NamedTuple):
    w: object
    b: object


@both
def numpy_sum_of_a_namedtuple(x):
    return np.sum(_Pair(x, x * 2.0)) + np.sum(np.sum([_Pair(x, x), _Pair(x * 3.0, x)]))


@refused(floats(()), "iter() and next(): an iterator's position")
def next_of_an_iterator(x):
    it = iter([x, x * 2.0])
    return np.sum(next(it) * next(it))


@refused(floats(()), "vars() of an object")
def vars_of_an_object(x):
    p = _Net(x)
    return np.sum(vars(p)["k"])


@refused(floats(()), "a discarded result of a library class without a rule can still "
         "hide a dependence (side_effects.stored_in_library_object used copy.copy)")
def stored_in_a_library_container(x):
    token = collections.deque([x * 2.0])
    return x
