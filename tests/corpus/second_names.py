"""A second plain name for an array (`c = a`, no copy) that the backward sweep reads,
then an element store into the array through either name while the second name is no
longer read by the program: the store must not change what the backward sweep reads
(analysis/views.py aliased_stores writes it into a copy). Found by round 27's red team:
the gradient was silently wrong before."""
import numpy as np

from .case import case, floats, mixed


@case(mixed(floats((4,)), floats(())))
def second_name_read_back_then_store(x, k):
    a = x * 1.0
    c = a
    y = np.sum(c * c)
    a[0] = 5.0 * k
    return y + np.sum(a)


@case(mixed(floats((4,)), floats(())))
def store_through_the_second_name(x, k):
    a = x * 1.0
    c = a
    y = np.sum(np.sin(a) * a)
    c[1] = k * 2.0
    return y * np.sum(c)


@case(mixed(floats((4,)), floats(())))
def second_name_in_a_loop(x, k):
    a = x * 1.0
    total = 0.0
    for i in range(3):
        c = a
        total = total + np.sum(c ** 3)
        a[i] = a[i] * k
    return total + np.sum(a)


@case(mixed(floats((4,)), floats(())))
def second_name_then_swap(x, k):
    a = x * 1.0
    b = x * 2.0
    c = a
    y = np.sum(c * c)
    a, b = b, a
    b[0] = 5.0 * k
    return y + np.sum(b)


@case(floats((), ()))
def second_name_of_a_list(x, k):
    xs = [x, x * k]
    ys = xs
    y = ys[0] * ys[1]
    xs[0] = k
    return y + xs[0] * xs[1]
