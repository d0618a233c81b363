"""Issue 16, session 30 (py30a): assignments people write in a loss.

Starred targets (`m, *rest = values`, `first, *mid, last = xs`) of lists, tuples and
arrays (frontend/starred_targets.py: a list and indexing, as Python builds it).
`hist["loss"].append(v)` on a list a private dict holds. `a += v` (and `-=`, `*=`) on
an array argument: the argument is copied on entry, so grad leaves the caller's array
as it was (issue 16, "Writes into an argument"). Scalar and
array inputs against finite differences under every policy."""
import numpy as np

from .case import case, floats, refused
from .data_values import both


@both
def starred_head_of_a_list(w):
    values = [np.sin(w), w * 2.0, w * w]
    m, *rest = values
    return np.sum(m * sum(rest))


@both
def starred_middle_of_a_tuple(w):
    xs = (np.sin(w), w * 2.0, w * w, np.cos(w))
    first, *mid, last = xs
    return np.sum(first * last + mid[0] * mid[1])


@case(floats((4,)))
def starred_rest_of_an_array(w):
    first, *rest = w
    return first * rest[1] + np.sum(w) * rest[-1]


@case(floats((5,)))
def starred_middle_of_an_array_expression(w):
    a, *mid, b, c = np.sin(w) * 2.0
    return a * b + c * sum(mid) + len(mid)


@case(floats((4,)))
def starred_in_a_nested_target(w):
    (a, *bs), c = [w[0], w[1], w[2]], w[3]
    return a * c + bs[0] * bs[1]


@case(floats((2,)))
def starred_empty_middle(w):
    a, *rest, b = w
    return a * b + len(rest)


@both
def starred_in_a_loop(w):
    total = 0.0
    for k in range(2):
        head, *tail = [w * (k + 1.0), np.sin(w), w]
        total = total + head * tail[0] * tail[-1]
    return np.sum(total)


@refused(floats((4,)), "a starred for-loop target: unpack in the body")
def starred_for_target(w):
    t = 0.0
    for a, *b in [w[:2], w[2:]]:
        t = t + a * b[0]
    return t


@case(floats((3,)))
def augmented_array_argument(a):
    a += np.sin(a)
    return np.sum(a * a)


@case(floats((3,), (3,)))
def augmented_argument_in_a_loop(a, b):
    for k in range(3):
        a += b * k
        a *= 0.9
    return np.sum(np.sin(a))


@both
def augmented_number_or_array_argument(a):
    b = a * 2.0
    a += b
    a *= 3.0
    return np.sum(a ** 2)


# `hist["loss"].append(v)` on a list only a private dict holds (frontend/nested_appends.py)
@both
def appended_into_a_dict_entry(w):
    hist = {"loss": []}
    for k in range(3):
        v = np.sum(w * k) + np.sum(np.sin(w))
        hist["loss"].append(v)
    return sum(hist["loss"]) + hist["loss"][-1]


@both
def appended_into_two_entries(w):
    hist = {"loss": [], "norm": []}
    for k in range(3):
        hist["loss"].append(np.sum(w * k))
        hist["norm"].append(np.sum(w ** 2) * k)
    return np.mean(hist["loss"]) + max(hist["norm"]) + len(hist["loss"])


@both
def appended_by_a_variable_key(w):
    hist = {"a": [w], "b": []}
    for key in ("a", "b"):
        hist[key].append(np.sin(w))
    return np.sum(sum(hist["a"])) + np.sum(hist["b"][0])


@refused(floats((3,)), "the appended list has another name")
def appended_into_a_named_list(w):
    losses = []
    hist = {"loss": losses}
    hist["loss"].append(np.sum(w))
    return sum(losses) + np.sum(w)
