"""Issue 16, objects: operators on instances of user classes run the class's methods, as
in Python (`a * b` is `type(a).__mul__(a, b)`, `3 * a` is `__rmul__`, `a += b` is
`__iadd__` if the class has one, `-a` is `__neg__`), whether the source shows the class
(`Vec(x) * 2`) or not (a helper's argument, a loop variable, an item of a list, a value
carried by a loop). Before session 29 they took NumPy's arithmetic rules: `Vec(x) @
Vec(x)` had a zero gradient, a nonlinear `__add__` a wrong one. Scalar and array inputs
against finite differences; what stays refused: an `__iadd__` writing into `self`, an
array times an object (NumPy, not the class, decides what that computes)."""
from dataclasses import dataclass

import numpy as np

from .case import case, floats, refused
from .data_values import both


class Vec:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        if isinstance(other, Vec):
            return Vec(self.v + other.v)
        return Vec(self.v + other)

    def __radd__(self, other):
        return Vec(other + self.v)

    def __sub__(self, other):
        return Vec(self.v - other.v)

    def __mul__(self, k):
        return Vec(self.v * k)

    def __rmul__(self, k):
        return Vec(k * self.v)

    def __truediv__(self, k):
        return Vec(self.v / k)

    def __neg__(self):
        return Vec(-self.v)

    def __matmul__(self, other):
        return np.sum(self.v * other.v)

    def total(self):
        return np.sum(self.v)


class Gated:
    """An `__add__` that is not addition: NumPy's sum rule gave a wrong gradient."""

    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return Gated(self.v * np.tanh(other.v))

    def __pow__(self, k):
        return Gated(np.abs(self.v) ** k)


class Acc:
    """`+=` returning a new object: `__iadd__` differentiated like `__add__`."""

    def __init__(self, v):
        self.v = v

    def __iadd__(self, other):
        return Acc(self.v + other * other)


class InPlace:
    def __init__(self, v):
        self.v = v

    def __iadd__(self, other):
        self.v = self.v + other
        return self


@dataclass
class Params:
    w: object
    b: object

    def __sub__(self, other):
        return Params(self.w - other.w, self.b - other.b)

    def __rmul__(self, k):
        return Params(k * self.w, k * self.b)


@both
def binary_operators_on_built_objects(x):
    a, b = Vec(x), Vec(np.sin(x))
    c = (a + b) * 3.0 - b / 2.0
    return c.total() + a @ b


@both
def reflected_operators(x):
    a = Vec(x * x)
    c = 2.0 * a + 1.0
    d = 1.0 + c
    return d.total()


@both
def unary_minus_of_object(x):
    a = -Vec(np.cos(x))
    return (-a).total() + (-(a * 2.0)).total()


@both
def matmul_operator_of_objects(x):
    return Vec(x) @ Vec(np.exp(x))


@both
def nonlinear_add_method(x):
    g = Gated(x * 2.0) + Gated(np.sin(x))
    return np.sum(g.v) + np.sum((g ** 3).v)


@both
def augmented_with_iadd_returning_new(x):
    a = Acc(x)
    for k in range(3):
        a += np.sin(x) * k
    return np.sum(a.v)


@both
def augmented_falls_back_to_add(x):
    a = Vec(x)
    for _ in range(2):
        a += Vec(x * x)
        a *= 0.5
    return a.total()


def inner(a, b):
    return a @ b + (a - b) @ (a - b)


@both
def objects_given_to_a_helper(x):
    return inner(Vec(x), Vec(np.cos(x)))


@both
def objects_from_a_list_in_a_loop(x):
    vs = [Vec(x), Vec(x * 2.0), -Vec(x)]
    t = 0.0
    for v in vs:
        t = t + v @ v
    return t


@both
def update_carried_by_a_loop(x):
    p = Params(w=x, b=np.sin(x))
    for step in range(3):
        g = Params(w=p.w * p.b, b=p.w * p.w)
        p = p - 0.1 * g
    return np.sum(p.w * p.b)


@refused(floats((3,)), "__iadd__ writes into self: Python changes the object in place")
def iadd_writing_into_self(x):
    a = InPlace(x)
    a += x
    return np.sum(a.v)


@refused(floats((3,)), "an array times an object: NumPy builds an array of objects")
def array_times_object(x):
    c = x * Vec(x)
    return np.sum(c)


# ---- `type(self)(...)`: the object's class as a value --------------------------------------
class Poly:
    def __init__(self, c):
        self.c = c

    def __mul__(self, k):
        return type(self)(self.c * k)

    def derivative(self):
        return type(self)(self.c[1:] * np.arange(1.0, len(self.c)))

    def at(self, t):
        return np.sum(self.c * t ** np.arange(len(self.c)))


@dataclass
class State:
    q: object
    p: object

    def step(self, dt):
        return type(self)(self.q + dt * self.p, self.p - dt * np.sin(self.q))


@case(floats((4,)))
def type_of_self_builds_the_same_class(c):
    poly = Poly(c) * 2.0
    return poly.derivative().at(0.7) + poly.at(-0.3)


@both
def type_of_self_for_a_dataclass(x):
    s = State(q=x, p=np.cos(x))
    for _ in range(3):
        s = s.step(0.1)
    return np.sum(s.q * s.p)


@both
def method_through_type_of_object(x):
    a = Vec(x)
    return type(a).__mul__(a, 3.0).total() + type(a).total(a * 2.0) * (a @ a)


# ---- decided per iteration; builtins whose rules are arithmetic ------------------------------
class Prod:
    """`+` multiplies: `sum` and `pow` of these are not NumPy's."""

    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return Prod(self.v * other.v)

    def __radd__(self, k):
        return Prod(self.v + k)

    def __pow__(self, k):
        return Prod(np.sin(self.v) ** k)

    def __abs__(self):
        return Prod(np.sqrt(self.v * self.v + 1.0))


@both
def operator_side_changes_between_iterations(x):
    t = 0.0
    for item in [Vec(x), x * 3.0, Vec(np.sin(x)), np.cos(x)]:
        scaled = item * 2.0 + 1.0
        if isinstance(scaled, Vec):
            t = t + scaled.total()
        else:
            t = t + np.sum(scaled * scaled)
    return t


@both
def builtin_sum_and_pow_of_objects(x):
    total = sum([Prod(x), Prod(np.exp(x)), Prod(x * x)])
    squares = sum(pow(Prod(x * k), 2) for k in range(1, 3))
    return np.sum(total.v) + np.sum(squares.v)


@both
def builtin_abs_of_objects_and_arrays(x):
    t = np.sum(abs(Prod(x)).v)
    for item in [Prod(np.sin(x)), x - 0.3]:
        a = abs(item)
        t = t + (np.sum(a.v) if isinstance(a, Prod) else np.sum(a))
    return t
