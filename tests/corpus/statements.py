"""Statements real losses contain: annotations, del, loop else, the walrus, `with`
around code whose context manager has no derivative, comprehensions with several
clauses, dict comprehensions."""
import time
import warnings

import numpy as np

from .case import case, floats, refused


class Stopwatch:
    """A user's timer: a context manager written in Python."""

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc_info):
        self.seconds = time.perf_counter() - self.start
        return False


@case(floats((3,), ()))
def annotated_assignments(x, s):
    loss: float = np.sum(x ** 2) * s
    count: int
    scale: np.ndarray = np.tanh(x)
    return loss + np.sum(scale)


@case(floats((3,)))
def del_a_temporary(x):
    big = np.outer(x, x)
    total = np.sum(big * 2.0)
    del big
    return total


@case(floats((4,)))
def for_else_search(x):
    for i in range(4):
        if x[i] > 10.0:
            found = x[i]
            break
    else:
        found = np.sum(x ** 2)
    return found * x[0]


@case(floats((4,), scale=3.0))
def for_else_with_break_taken(x):
    total = 0.0
    for v in x:
        total = total + v * v
        if total > 1.0:
            break
    else:
        total = -total
    return total


@case(floats((3,)))
def while_else(x):
    k, acc = 0, 0.0
    while k < 3:
        acc = acc + np.sin(x[k]) * acc + x[k]
        k += 1
    else:
        acc = acc * 2.0
    return acc


@case(floats((3,)))
def walrus_in_a_condition(x):
    if (norm := np.sqrt(np.sum(x ** 2))) > 0.1:
        return x[0] / norm + norm
    return norm


@case(floats((3,)))
def walrus_reused_in_its_statement(x):
    y = (s := np.sum(np.tanh(x))) * s + 1.0
    return y


@case(floats((3,)))
def with_errstate_and_catch_warnings(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.log(np.abs(x) + 1.0) * x
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        z = np.sum(y ** 2)
    return z


@case(floats((3,)))
def with_a_user_timer(x):
    with Stopwatch() as watch:
        y = np.exp(x) * x
    if watch.seconds < 0.0:
        y = -y
    return np.sum(y)


@case(floats((3,)))
def comprehension_with_two_clauses(x):
    return sum(x[i] * x[j] for i in range(3) for j in range(3) if i != j)


@case(floats((4,)))
def comprehension_clause_uses_outer_variable(x):
    pairs = [x[i] * x[j] for i in range(4) if i % 2 == 0 for j in range(i + 1)]
    return np.sum(np.array(pairs) ** 2)


@case(floats((3,)))
def dict_comprehension(x):
    d = {k: v * 2.0 for k, v in zip("abc", x)}
    return d["a"] * d["c"] + d["b"]


@case(floats((3,)))
def with_left_by_return(x):
    with warnings.catch_warnings():
        return np.sum(x)


@case(floats(()))
def walrus_after_a_read(x):
    y = 1.0
    z = y + (y := x * 2.0)
    return z * y
