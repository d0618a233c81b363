"""Issue 16, methods named like ndarray methods: `dist.mean()`, `model.sum(x)`,
`d.std()` on a user object go to the object's own method (a global or closure
object known at compile time; an argument or a helper's result dispatched on its
type when the code runs), while `x.mean()` on an array keeps NumPy's rule. Scalar
and array variants, every policy, against finite differences."""
from typing import NamedTuple

import numpy as np

from .case import case, floats, mixed, refused
from .data_values import both


class Gauss:
    """A user distribution whose methods are named like ndarray methods."""

    def __init__(self, mu, s):
        self.mu, self.s = mu, s

    def mean(self):
        return self.mu

    def std(self):
        return self.s

    def var(self):
        return self.s ** 2

    def sum(self, x):
        return np.sum((x - self.mu) ** 2) / self.var()


DIST = Gauss(0.5, 2.0)


@both
def global_object_mean_std(x):
    return np.sum(x * DIST.mean() + x ** 2 * DIST.std() + x * DIST.var())


@both
def global_object_method_with_argument(x):
    return DIST.sum(x * 2.0) + np.sum(x).mean()


def make_scaled(a):
    def loss(x):
        return np.sum(x * a.mean()) + a.sum(x)
    return loss


closure_object_method = make_scaled(Gauss(1.5, 3.0))
both(closure_object_method)


def _gauss_and_x(rng):
    return [Gauss(float(rng.standard_normal()), 1.5), rng.standard_normal(3)]


@case(mixed(_gauss_and_x), wrt=(1,))
def argument_object_no_arguments(d, x):
    return np.sum(x * d.mean() + x * x * d.std())


@case(mixed(_gauss_and_x), wrt=(1,))
def argument_object_with_argument(d, x):
    return d.sum(np.tanh(x)) * d.var()


def spread_of(d, x):               # a helper: nothing says what d is when it is compiled
    return d.sum(x) + d.mean() * np.sum(x) + x.sum() * x.mean()


@case(mixed(_gauss_and_x), wrt=(1,))
def helper_dispatches_on_argument(d, x):
    return spread_of(d, x) + spread_of(d, x * 2.0)


def array_helper(h, x):            # the same helper shape, called with arrays
    return h.sum() + h.mean(keepdims=False) * h.max() + x.sum() * h.prod()


@both
def helper_receivers_are_arrays(x):
    return array_helper(np.sin(x), np.exp(x)) + array_helper(np.square(x), np.cos(x))


def fit(mu, s):
    return Gauss(mu, s)


@case(mixed(_gauss_and_x), wrt=(1,))
def helper_made_object(d, x):
    g = fit(d.mu, 2.0)              # what a helper returns: dispatched when it runs
    return g.sum(x) + np.sum(x) * g.std()


@case(floats((4,)))
def local_array_methods_keep_rules(x):
    y = np.exp(x)
    z = y.reshape(2, 2)
    return z.sum(axis=0).mean() + y.std() * z.T.sum() + x.clip(-0.5, 0.5).sum()


def weighted_mean(v, w):
    return v.mean(w)                  # an array here: np.mean(v, w) would be an error


class Model:
    def __init__(self, w):
        self.w = w

    def mean(self, x):
        return np.tanh(self.w * x).mean()


@case(mixed(lambda rng: [Model(rng.standard_normal(3))], floats((3,))), wrt=(1,))
def model_mean_of_differentiated_argument(m, x):
    return weighted_mean(m, x * 2.0) + m.mean(x)


def _x_and_ddof(rng):
    return [rng.standard_normal(4), 1.0]


def ddof_helper(v, d):
    return v.std(None, None, None, d)     # ddof has no derivative: d is being differentiated


@refused(_x_and_ddof, "a differentiated value reaches .std()'s ddof in a helper (run time)")
def array_method_nondiff_position_in_helper(x, d):
    return ddof_helper(x, d)


def ddof_keyword_helper(v, d):
    return v.std(ddof=d)


@refused(_x_and_ddof, "a differentiated keyword to a method dispatched at run time")
def array_method_nondiff_keyword_in_helper(x, d):
    return ddof_keyword_helper(x, d)


class Branchy:
    def __init__(self, w, square):
        if square:
            self.w = w * w
        else:
            self.w = np.abs(w)

    def mean(self):
        return np.sum(self.w) / 2.0


@both
def object_from_dict_display(x):        # (a silent zero gradient found by red-teaming)
    models = {"a": Branchy(x, True), "b": Branchy(x * 2.0, False)}
    return models["a"].mean() + models["b"].mean()


@both
def object_from_list_in_loop(x):
    models = [Branchy(x, True), Branchy(np.sin(x), True)]
    total = 0.0
    for k in range(len(models)):
        total = total + models[k].mean() * (k + 1)
    return total


@both
def array_from_dict_display(x):
    parts = {"a": np.exp(x), "b": np.sin(x)}
    return parts["a"].mean() + parts["b"].sum()


class Pt(NamedTuple):
    """A NamedTuple (a tuple) with its own method named like an ndarray method."""
    x: object
    y: object

    def sum(self):
        return self.x * 2.0 + self.y


P0 = Pt(1.0, 2.0)


@case(mixed(lambda rng: [Pt(rng.standard_normal(3), rng.standard_normal(3))]))
def namedtuple_own_sum_argument(p):     # (np.sum(p) before: a silent wrong gradient)
    return np.sum(p.sum() ** 2)


@both
def namedtuple_own_sum_built_here(x):
    p = Pt(x, np.sin(x))
    return np.sum(p.sum() * x)


@both
def namedtuple_own_sum_global(x):
    return np.sum(P0.sum() * x)
