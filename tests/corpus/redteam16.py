"""Programs a red team wrote against this round's constructs (builtins over sequences,
copies of lists, zip(*...), generators, helpers that keep values, lambdas kept in lists):
each was a wrong gradient, a NaN or a crash inside generated code, and is now right or
refused at the user's line."""
import contextlib

import numpy as np

from .case import case, floats, given, refused

STORE = []


@case(floats((3,)))
def list_copy_with_an_unused_entry(x):
    # (an unread entry's None cotangent became NaN, or None + float)
    a = list(x)
    c = a.copy()
    pair = [x[0], x[1] * 2.0]
    return c[0] * 3.0 + c[1] + pair.copy()[0]


@case(floats((4,)))
def list_of_dict_values(x):
    d = {"a": x[0], "b": x[1] * x[2], "c": np.sin(x[3])}
    vals = list(d.values())
    return vals[0] * 2.0 + vals[2]


@case(floats((4,)))
def max_of_tuples_and_lists(x):
    # (the tie split divided a tuple's cotangent)
    pairs = [(x[0], 1.0), (x[1], 2.0), (x[2], 3.0)]
    best = max(pairs, key=lambda p: p[0] * p[1])
    return best[0] * 3.0 + max([x[0], x[1]], [x[2], x[3]])[0]


@case(floats((3,)))
def sorted_dict_items(x):
    # (the value pairing could not make an array of (str, value) tuples)
    d = {"a": x[0], "b": x[1] ** 2, "c": x[2] * 2.0}
    ranked = sorted(d.items(), key=lambda kv: kv[1])
    return ranked[0][1] + 2.0 * ranked[-1][1]


@case(floats((4,)))
def list_feeding_max_and_dot(x):
    # (max's per-entry cotangent list met np.dot's array in a plain `+`)
    b = x.tolist()
    c = x.tolist()
    return max(b) + np.dot(b, b) + np.dot(c, c) + min(c)


@case(floats((4,)))
def unzipped_pairs_into_dot_and_max(x):
    pairs = []
    for i in range(len(x) - 1):
        pairs.append((x[i], x[i + 1]))
    a, b = zip(*pairs)
    return np.dot(a, b) + max(b)


@case(floats((3, 2)))
def columns_of_an_array_by_zip(W):
    # (rows zip never reached got NaN)
    cols = list(zip(*W))
    return cols[0][0] * cols[1][0] + cols[0][1] * cols[1][1]


@contextlib.contextmanager
def scaled_context():
    yield 3.0


@case(floats(()))
def contextmanager_from_a_generator(x):
    # (an internal compiler error: the decorator's wrapper was compiled)
    with scaled_context() as c:
        t = c * x
    return t


def keep(v):
    STORE.append(v)


@refused(floats(()), "a helper that stores its argument, its result unused")
def helper_keeping_a_value(x):
    keep(x * 2.0)
    return STORE[-1]


class Accumulator:
    def __init__(self):
        self.total = 0.0

    def add(self, v):
        self.total = self.total + v


@case(floats((3,)))    # (was refused; session 30: a method setting self on a local object)
def method_keeping_a_value(x):
    acc = Accumulator()
    for v in x:
        acc.add(v * v)
    return acc.total


@case(floats(()))        # (was refused; a closure record since issue 16 closures)
def lambda_appended(x):
    fs = []
    fs.append(lambda t: t * x)
    return fs[0](2.0)


def apply(f, v):
    return f(v)


@case(floats(()))        # (was refused; a closure record since issue 16 closures)
def nested_def_passed_along(x):
    def inner(t):
        return t * x
    return apply(inner, 2.0)


def items_of(a, n):
    for i in range(n):
        yield a[i]


@refused(floats((3,)), "a loop over a generator that writes into what it reads")
def generator_loop_writing_its_source(x):
    a = x * 1.0
    t = 0.0
    for v in items_of(a, 3):
        a[2] = a[2] + v
        t = t + v
    return t + a[2]


@case(floats((3,)))   # session 29: it surely ends and prints nothing (zip_generators16.py)
def generator_in_zip(x):
    s = 0.0
    for p, q in zip([1.0, 2.0], items_of(x, 3)):
        s = s + p * q
    return s


@case(floats((4,)))
def list_feeding_sorted_list_and_dot(x):
    # (sorted's and list's per-entry cotangents met np.dot's array in a plain `+`)
    b = x.tolist()
    return np.dot(b, b) + sorted(b, reverse=True)[0] * 3.0 + list(b)[3] * 5.0


def squares_of(x):
    for v in x:
        yield v * v


@case(floats((4,)))
def generator_list_into_numpy_and_builtins(x):
    # (a helper's returned list got one array as its cotangent: `.pop` of an array)
    b = list(squares_of(x))
    return np.sum(b) + tuple(b)[0] * 7.0 + min(b) + np.sum(np.array(b) ** 3)


@case(floats((4,)))
def two_lists_made_in_one_assignment(x):
    # (was refused: the tuple's parts were each taken for either list, so `B` held `A`)
    A, B = [], []
    for i in range(2):
        A.append(x[i])
        B.append(x[i + 2])
    return A[0] * B[1]


@refused(floats((3,)), "a, b = x, x: both names are the same array")
def one_array_two_names_written(x):
    y = x * 1.0
    a, b = y, y
    a[0] = 5.0
    return np.sum(b)


class Recorder:
    def __init__(self):
        self.values = []

    def record(self, v):
        self.values.append(v)


RECORDER = Recorder()


def record_through_a_method(v):
    RECORDER.record(v)


@refused(floats(()), "a helper whose method call may store the value, its result unused")
def helper_storing_through_a_method(x):
    # (the helper's own source stores nothing, its method call does: a zero gradient)
    record_through_a_method(x * 2.0)
    return RECORDER.values[-1]


def report(v):
    print(f"value {float(np.sum(v)):.3f}", abs(-1.0))


@case(floats((3,)))
def helper_that_only_prints(x):
    report(x * 2.0)
    return np.sum(x ** 2)
