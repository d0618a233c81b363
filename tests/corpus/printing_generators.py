"""Generators that print, walked by loops or comprehensions whose bodies print only
indirectly (a lambda, a callable object, a context manager, a helper), or that use a
printing context manager themselves: Python interleaves the lines, so the generated code
must too (the generator written into the loop) or refuse (test_print_order.py)."""
import numpy as np


def counted(x):
    for i in range(3):
        print("gen", i)
        yield x[i] * 2.0


def report(v):
    print("report")
    return v


class Announced:
    def __enter__(self):
        print("in")
        return self

    def __exit__(self, *exc):
        print("out")
        return False


class Layer:
    def __call__(self, v):
        print("layer")
        return v * 3.0


def loop_calls_a_callable_object(x):
    layer = Layer()
    total = 0.0
    for v in counted(x):
        total = total + layer(v)
    return total


def loop_calls_a_local_lambda(x):
    f = lambda v: report(v) * 2.0  # noqa: E731
    total = 0.0
    for v in counted(x):
        total = total + f(v)
    return total


def loop_body_in_a_with_block(x):
    total = 0.0
    for v in counted(x):
        with Announced():
            total = total + v ** 2
    return total


def sum_of_a_generator_expression(x):
    return sum(report(v) for v in counted(x))


def managed(x):
    for i in range(3):
        with Announced():
            yield x[i]


def generator_uses_a_printing_manager(x):
    total = 0.0
    for v in managed(x):
        print("loop")
        total = total + v * v
    return total


PROGRAMS = [loop_calls_a_callable_object, loop_calls_a_local_lambda,
            loop_body_in_a_with_block, sum_of_a_generator_expression,
            generator_uses_a_printing_manager]
X = np.array([0.5, -1.0, 2.0])
