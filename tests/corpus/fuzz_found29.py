"""Programs the session-29 fuzz productions (tests/fuzz/gen_idioms.py `_list_times_array`,
gen_complex.py's statistics and nested linalg ends, gen_breadth.py) found wrong,
minimised; each names the fuzz case it came from. Fixed ones stay as regression tests
(docs/testing.md, "The fuzzer")."""
import functools
import operator

import numpy as np

from .case import case, given

A = np.array([0.3, -1.2, 0.5])


# Fixed: a list display times a NumPy array (`[[s], [x]] * v`, which NumPy multiplies
# entry by entry) raised "a list (or tuple) times a NumPy array multiplies entry by entry"
# as a TypeError from the generated code: a crash, not a TransformError (fuzz idioms:1,
# idioms:16, 71 of 71 such programs). repeat_sequence's rule now tells repetition from a
# product when it runs (product_or_repeat_vjp), as a helper's `p * q` already did.
@case(given(0.7, A))
def list_of_scalars_times_an_array(x, a):
    s = np.tanh(x)
    v = a * x
    v = np.mean([[s], [x]] * v, axis=0) + 0.5 * v
    return s + np.sum(v * v)


@case(given(0.7, A))
def array_times_a_list_and_a_tuple_of_arrays(x, a):
    v = a * x
    v = v * [x, np.tanh(x), 0.5]
    return np.sum(np.sum((v, a * x) * a, axis=0) ** 2) + np.sum(np.sin([v, a] * a))


@case(given(0.7, A))
def list_repetition_beside_a_list_product(x, a):
    xs = [x, x * x] * 2                     # repetition: four entries
    ys = [a, np.sin(a)] * (a * x)           # a product: two rows
    return sum(xs) + np.sum(ys[1] * ys[0])


def _sine_then_add(p, q):
    return np.sin(p) + q


# Fixed: functools.reduce with no initial value over a list of numbers built by a
# comprehension or a generator expression crashed: "'numpy.ndarray' object has no attribute
# 'pop'" (fuzz calls:232). reduce runs as a compiled helper (runtime/reduce_source.py) whose
# pullback gives a list of numbers' cotangent as one array (list()'s rule); the backward of
# the comprehension's appends pops entries from it. A compiled helper's cotangent of a list
# now goes through list_cotangent, as a rule's already did.
@case(given(0.7, A))
def reduce_over_a_generator_of_numbers(x, a):
    return functools.reduce(_sine_then_add, (x * a[k] for k in range(2)))


@case(given(0.7, A))
def reduce_over_a_comprehension_of_numbers(x, a):
    xs = [x * t for t in a]
    return functools.reduce(lambda p, q: p * q, xs) + functools.reduce(operator.add, xs)


def _first_times_rest(xs):
    out = list(xs)
    return out[0] * sum(out[1:])


@case(given(0.7, A))
def helper_given_a_list_built_by_appends(x, a):
    xs = []
    for t in a:
        xs.append(np.tanh(t * x))
    return _first_times_rest(xs) + xs[-1]
