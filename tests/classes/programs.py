"""Classes with base classes built inside the function being differentiated: an
inherited `__init__`, `super().__init__(...)` or `Base.__init__(self, ...)` first in an
`__init__`, dataclass inheritance (frontend/base_init.py), and the ones that stay
refused (a base `__init__` doing more than set attributes, multiple inheritance)."""
import dataclasses

import numpy as np


class Quadratic:
    def __init__(self, w, scale=1.5):
        t = w * scale                   # a local the subclasses' __init__ also use
        self.w = t
        self.c = np.sin(self.w)         # reads an attribute set on an earlier line

    def energy(self, x):
        return np.sum(self.w * x ** 2) + np.sum(self.c * x)


class Doubled(Quadratic):               # inherits __init__
    def energy(self, x):
        return 2.0 * super().energy(x)


class Tripled(Doubled):                 # inherits it from two levels up
    def energy(self, x):
        return 1.5 * Doubled.energy(self, x)


class Shifted(Quadratic):
    def __init__(self, w, t):
        """super().__init__ first, its parameter bound, its local `t` renamed."""
        super().__init__(w * t, scale=2.0)
        self.b = np.cos(t) * self.w     # reads the base's attribute

    def energy(self, x):
        return super().energy(x) + np.sum(self.b * x)


class Named(Quadratic):
    def __init__(self, w, b):
        Quadratic.__init__(self, np.tanh(w))    # the default scale (a literal)
        self.b = b


class Deeper(Shifted):
    def __init__(self, w, t, s):
        super().__init__(w, t)
        self.s = s * t


class Root:
    def __init__(self, w):
        super().__init__()              # object's __init__: nothing
        self.w = w


class Aliased(Shifted):
    __init__ = Shifted.__init__         # its super() starts after Shifted, not Aliased


@dataclasses.dataclass
class Base:
    w: np.ndarray


@dataclasses.dataclass
class Child(Base):
    b: np.ndarray
    k: float = 2.0


@dataclasses.dataclass
class Computed(Base):
    b: np.ndarray

    def __post_init__(self):
        self.v = self.w * self.b


def inherited(w, x):
    return Doubled(w).energy(x)


def inherited_twice(w, x):
    return Tripled(w).energy(x) + Tripled(x, scale=0.5).energy(w)


def super_init(w, x):
    m = Shifted(w, x[0])
    return m.energy(x)


def super_init_on_x(w, x):
    return Shifted(x, w[1]).energy(w)


def named_base_init(w, x):
    m = Named(w, x)
    return m.energy(x) + np.sum(m.b * m.w)


def two_super_inits(w, x):
    m = Deeper(w, x[1], x)
    return m.energy(x) + np.sum(m.s * m.c)


def object_init(w, x):
    return np.sum(Root(w * x).w ** 2)


def aliased_init(w, x):
    return Aliased(w, x[2]).energy(x)


def dataclass_child(w, x):
    c = Child(w, np.sin(x))
    return np.sum(c.w * c.b * c.k) + np.sum(Child(x, w, 3.0).w ** 3)


def dataclass_post_init(w, x):
    c = Computed(w, x)
    return np.sum(c.v ** 2 + c.w)


# stay refused: a base __init__ doing more than set attributes of self
class Calls:
    def __init__(self, w):
        self.w = w
        self.setup()

    def setup(self):
        self.w2 = self.w ** 2


class FromCalls(Calls):
    pass


class SuperCalls(Calls):
    def __init__(self, w, b):
        super().__init__(w)
        self.b = b


class Late(Quadratic):
    def __init__(self, w, b):
        self.b = b
        super().__init__(w)             # not the first statement


class UsesSuper(Quadratic):
    def __init__(self, w, b):
        super().__init__(w)
        self.b = super().energy(b)      # another super() use


class Mixin:
    def twice(self):
        return 2.0 * self.w


class Both(Quadratic, Mixin):            # multiple inheritance
    pass


class SometimesSets:
    def __init__(self, w, flag=True):
        if flag:
            self.w = w


class FromSometimesSets(SometimesSets):
    def __init__(self, w):
        super().__init__(w)


class PassesSelf(Quadratic):
    def __init__(self, w):
        super().__init__(self)
        self.q = w


class ComputedDefault:
    def __init__(self, w, s=np.ones(3)):
        self.w = w * s


class FromComputedDefault(ComputedDefault):
    def __init__(self, w):
        super().__init__(w)


def refused_inherits_calls(w, x):
    return np.sum(FromCalls(w).w2 * x)


def refused_super_calls(w, x):
    return np.sum(SuperCalls(w, x).w2)


def refused_late(w, x):
    return Late(w, x).energy(x)


def refused_other_super(w, x):
    return np.sum(UsesSuper(w, x).b)


def refused_multiple(w, x):
    return np.sum(Both(w).twice() * x)


def refused_computed_default(w, x):
    return np.sum(FromComputedDefault(w).w * x)


def refused_sometimes_sets(w, x):
    return np.sum(FromSometimesSets(w).w * x)


def refused_passes_self(w, x):
    return np.sum(PassesSelf(w).q * x)
