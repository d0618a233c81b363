"""Issue 16, data: `f(*xs)` and `f(**params)` where a derivative flows, and list/dict
methods that change their receiver (pop, insert, reverse, clear, setdefault, update), each
with a scalar and an array input; adversarial cases (the same array in two slots, a list
read before and after a pop, a popped item used later, a stack in a loop) against finite
differences, and what must stay refused (a second name, a container, a loop or a closure
that sees the list; a view kept). Since session 29 `f(*xs)` whose length the source does
not fix (grown by append, a second name, a parameter) is spread when the code runs
(runtime/spread.py; more in spread16.py)."""
import numpy as np

from .case import REGISTRY, Case, case, floats, refused


def both(fn):
    """Register fn twice: with a python float and with an array of 3."""
    module = fn.__module__.rsplit(".", 1)[-1]
    for suffix, shape in (("scalar", ()), ("array", (3,))):
        REGISTRY.append(Case(f"{module}.{fn.__name__}_{suffix}", fn, floats(shape)))
    return fn


def pair(a, b):
    return a * b + a


def triple(a, b, c=1.0):
    return a * b - c


# ---- `*xs` and `**params` at a call -----------------------------------------------------
@both
def star_tuple_to_helper(x):
    xs = (x, x * 2.0)
    return np.sum(pair(*xs))


@both
def star_list_to_helper(x):
    xs = [np.sin(x), x]
    return np.sum(pair(*xs))


@both
def star_after_positional(x):
    xs = [np.sin(x), 2.0]
    return np.sum(triple(x, *xs))


@both
def star_to_numpy(x):
    xs = (x, np.sin(x) * 2.0)
    return np.sum(np.add(*xs)) + np.sum(np.maximum(*xs))


@both
def star_in_loop(x):
    total = 0.0
    for i in range(3):
        args = (x * i, np.cos(x))
        total = total + np.sum(pair(*args))
    return total


@both
def star_same_array_twice(x):
    xs = (x, x)
    return np.sum(pair(*xs))


@both
def star_item_rewritten(x):
    xs = [x, x]
    xs[1] = np.sin(x)                  # read after the write: sin(x), not x
    return np.sum(pair(*xs))


@both
def star_read_otherwise(x):
    xs = (x, np.cos(x))
    return np.sum(pair(*xs)) * len(xs) + np.sum(xs[0])


@both
def double_star_to_helper(x):
    params = {"a": x, "b": x * 3.0}
    return np.sum(pair(**params))


@both
def star_and_double_star(x):
    xs = (x,)
    kw = {"b": x * 3.0, "c": np.sin(x)}
    return np.sum(triple(*xs, **kw))


@both   # session 29: spread when the code runs (runtime/spread.py)
def star_after_append(x):
    xs = [x]
    xs.append(x * 2.0)
    return np.sum(pair(*xs))


@both   # session 29: spread when the code runs (runtime/spread.py)
def star_through_alias(x):
    xs = (x, x * 2.0)
    ys = xs
    return np.sum(pair(*ys))


@both   # session 29: spread when the code runs (runtime/spread.py)
def star_two_bindings(x):
    if np.sum(x) > 0:
        xs = (x, x)
    else:
        xs = (x, 2.0 * x)
    return np.sum(pair(*xs))


@case(floats((3,)))   # refused until session 30 (py30b): `**kw` whose keys the source does
def double_star_key_added(x):       # not fix is spread when the code runs (spread_keywords)
    kw = {"a": x}
    kw["b"] = x * 2.0
    return np.sum(pair(**kw))


def spread_parameter(args):
    return pair(*args)


@both   # session 29: spread when the code runs (runtime/spread.py)
def star_of_a_parameter(x):
    return np.sum(spread_parameter((x, x * 2.0)))


# ---- list methods ------------------------------------------------------------------------
@both
def pop_last(x):
    xs = [x, x * 2.0, np.sin(x)]
    last = xs.pop()
    return np.sum(last * xs[0] + xs[-1])


@both
def pop_same_array_twice(x):
    xs = [x, x * 2.0, x]
    v = xs.pop()
    w = xs.pop(0)
    return np.sum(v * w * xs[0])


@both
def pop_read_before_and_after(x):
    xs = [x, np.sin(x), x * 3.0]
    before = xs[-1]
    xs.pop()
    after = xs[-1]
    return np.sum(before * after) + len(xs)


@both
def popped_item_used_later(x):
    xs = [np.sin(x), x * 2.0]
    v = xs.pop(0)
    xs.append(v * v)
    return np.sum(xs[0] * xs[1] + v)


@both
def stack_in_loops(x):
    stack = [x]
    out = 0.0
    for i in range(4):
        top = stack.pop()
        stack.append(np.tanh(top))
        stack.append(top * 0.5)
    while stack:
        out = out + np.sum(stack.pop() * x)
    return out


@both
def pop_negative_and_variable(x):
    xs = [x, x * 2.0, np.sin(x), np.cos(x)]
    a = xs.pop(-2)
    i = 1
    b = xs.pop(i)
    return np.sum(a * b + xs[0] * xs[-1])


@both
def insert_everywhere(x):
    xs = [x, x * 2.0]
    xs.insert(-1, np.sin(x))
    xs.insert(100, x * x)
    xs.insert(-100, np.cos(x))
    xs.insert(0, 3.0)
    return np.sum(xs[0] * xs[1] + xs[2] * xs[3] - xs[4] * xs[5])


@both
def reverse_after_a_read(x):
    xs = [x, x * 2.0, np.sin(x)]
    first = xs[0]
    xs.reverse()
    return np.sum(xs[0] * first + xs[2]) + np.sum(np.stack(xs) * x)


@both
def copy_then_pop(x):
    xs = [x, x * 2.0]
    ys = xs.copy()
    ys.pop()
    ys.append(np.sin(x))
    return np.sum(xs[1] * ys[1]) + len(ys)


@both
def clear_then_append(x):
    xs = [x * 2.0]
    v = xs[0]
    xs.clear()
    xs.append(v * x)
    return np.sum(xs[0]) + len(xs)


@refused(floats((3,)), "a second name sees the pop")
def pop_with_second_name(x):
    xs = [x, x * 2.0]
    ys = xs
    xs.pop()
    return np.sum(ys[-1])


@refused(floats((3,)), "a list holding the list sees the pop")
def pop_of_held_list(x):
    xs = [x, x * 2.0]
    zs = [xs]
    xs.pop()
    return np.sum(zs[0][-1])


@refused(floats((3,)), "a loop over the list it pops")
def pop_while_iterating(x):
    xs = [x, x * 2.0, x * 3.0]
    total = 0.0
    for v in xs:
        total = total + np.sum(v)
        xs.pop()
    return total


@refused(floats((3,)), "a nested function reads the list")
def pop_seen_by_closure(x):
    xs = [x, x * 2.0]

    def last():
        return xs[-1]
    xs.pop()
    return np.sum(last())


@refused(floats((3,)), "the pop is after a call in the same expression")
def pop_after_a_call(x):
    xs = [x, x * 2.0]
    return np.sum(x) * np.sum(xs.pop())


# ---- dict methods ------------------------------------------------------------------------
@both
def dict_pop_with_defaults(x):
    d = {"a": x, "b": x * 2.0}
    a = d.pop("a", np.sin(x))
    c = d.pop("c", np.cos(x))
    return np.sum(a * c * d["b"]) + len(d)


@both
def dict_pop_in_loop(x):
    d = {"a": x, "b": x * 2.0, "c": np.sin(x)}
    total = 0.0
    for k in ["a", "c"]:
        total = total + np.sum(d.pop(k) * x)
    return total + np.sum(d["b"]) * len(d)


@both
def setdefault_present_and_missing(x):
    d = {"a": x * 2.0}
    a = d.setdefault("a", np.sin(x))
    b = d.setdefault("b", np.cos(x))
    return np.sum(a * b + d["a"])


@both
def update_swaps(x):
    d = {"a": x, "b": np.sin(x)}
    d.update(a=d["b"], b=d["a"] * 2.0)
    return np.sum(d["a"] * 3.0 + d["b"])


@both
def update_from_display(x):
    d = {"a": x}
    d.update({"a": np.sin(x), "b": x * x})
    return np.sum(d["a"] * d["b"])


@refused(floats((3,)), "a keys() view kept across the pop")
def dict_view_kept(x):
    d = {"a": x, "b": x * 2.0}
    keys = d.keys()
    d.pop("a")
    return np.sum(d["b"]) * len(keys)


@refused(floats((3,)), "a second name sees the update")
def update_with_second_name(x):
    d = {"a": x}
    e = d
    d.update(a=x * 2.0)
    return np.sum(e["a"])


class Settings:
    """An object with an update method of its own: never taken for a dict."""

    def __init__(self):
        self.scale = 1.0

    def update(self, scale):
        self.scale = scale


@case(floats((3,)))     # session 30: a method setting self on a local object
def update_of_an_object(x):
    s = Settings()
    s.update(scale=x * 2.0)
    return np.sum(s.scale)


@both
def lists_made_by_concatenation_and_repetition(x):
    xs = [x] + [x * 2.0]
    ys = xs + [np.sin(x)]
    ys.pop(0)
    zs = [x] * 3
    zs.insert(1, np.cos(x))
    return np.sum(ys[0] * ys[1] * zs[1] + zs[0]) + len(xs)


@both
def pops_in_augmented_assignments(x):
    xs = [x, x * 2.0, np.sin(x)]
    total = x * 0.0
    total += xs.pop(0) * 3.0
    total += xs.pop()
    return np.sum(total * xs[0])


@both
def pop_assigned_into_its_list(x):
    xs = [x, x * 2.0]
    xs[0] = np.sin(xs.pop(0))          # the pop first, then the write: [sin(x)]
    return np.sum(xs[0]) * len(xs)


@both
def pop_in_a_test(x):
    xs = [x, np.sum(x) * 2.0]
    if np.sum(xs.pop()) > 0:
        return np.sum(xs[0] * x)
    return np.sum(xs[0])


@refused(floats((3,)), "`xs[0] += xs.pop(0)` reads xs[0] before the pop")
def pop_in_its_own_augmented_target(x):
    xs = [x, x * 2.0]
    xs[0] += xs.pop(0)
    return np.sum(xs[0])


@refused(floats((3,)), "a pop that `or` may skip")
def pop_in_a_short_circuit(x):
    xs = [x, x * 2.0]
    a = np.sum(x) > 100 or np.sum(xs.pop())
    return np.sum(xs[-1]) * a


@both
def double_star_read_by_items_too(x):
    params = {"b": np.sin(x), "c": x * x}
    extra = 0.0
    for k, v in params.items():
        extra = extra + np.sum(v)
    return np.sum(triple(x, **params)) + extra


@both
def list_rebuilt_from_an_empty_slice(x):
    xs = [x]
    for i in range(3):
        v = xs[-1]
        xs = list(xs[:-1])             # [] on the first trip: its cotangent is zero
        xs.append(v * 2.0)
        xs.append(np.sin(v))
    return np.sum(xs[0] * xs[-1])


@both
def setdefault_accumulate(x):
    d = {}
    for i in range(4):
        k = "even" if i % 2 == 0 else "odd"
        d.setdefault(k, x * 0.0)
        d[k] = d[k] + np.sin(x * i)
    return np.sum(d["even"] * d["odd"])


@both
def update_in_loop(x):
    d = {"a": x, "b": x * 2.0}
    for i in range(3):
        d.update(a=d["b"] * 0.5, b=np.tanh(d["a"]))
    return np.sum(d["a"] + d["b"])


@both
def pop_branchy(x):
    xs = [x, np.sin(x), x * x, np.cos(x)]
    total = 0.0
    while len(xs) > 1:
        if len(xs) % 2 == 0:
            a = xs.pop(0)
        else:
            a = xs.pop()
        total = total + np.sum(a * xs[0])
    return total + np.sum(xs[0])


@both
def insert_sorted_like(x):
    xs = []
    for i in range(3):
        xs.insert(0, x * (i + 1))
        xs.insert(len(xs), np.sin(x) * i)
    xs.reverse()
    return np.sum(xs[0] * xs[1] + xs[-1] * xs[2])


@both
def dict_pop_all(x):
    d = {"a": x, "b": x * 2.0, "c": np.sin(x)}
    total = 0.0
    for k in ["c", "a", "b"]:
        total = total * 0.5 + np.sum(d.pop(k))
    return total + len(d)
