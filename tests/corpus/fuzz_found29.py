"""Programs the session-29 fuzz productions (tests/fuzz/gen_idioms.py `_list_times_array`,
gen_complex.py's statistics and nested linalg ends, gen_breadth.py) found wrong,
minimised; each names the fuzz case it came from. Fixed ones stay as regression tests
(docs/testing.md, "The fuzzer")."""
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
