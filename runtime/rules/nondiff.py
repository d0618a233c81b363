"""Functions whose output carries no derivative: comparisons and predicates,
integer-valued results (indices, counts, rounding), shapes, constructors from
shapes, and random draws (the sample is treated as a constant)."""
import numpy as np

from ..registry import nondiff

# Comparisons, logic and predicates
nondiff(np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal,
        np.logical_and, np.logical_or, np.logical_not, np.logical_xor,
        np.isclose, np.allclose, np.array_equal, np.array_equiv, np.any, np.all,
        np.isfinite, np.isnan, np.isinf, np.isneginf, np.isposinf, np.signbit,
        np.isreal, np.iscomplex, np.isscalar, np.iscomplexobj, np.isrealobj)
nondiff(np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.invert, np.left_shift,
        np.right_shift, np.gcd, np.lcm)

# Piecewise constant: the derivative is zero wherever it exists
nondiff(np.sign, np.floor, np.ceil, np.round, np.around, np.rint, np.fix, np.trunc,
        np.floor_divide, np.heaviside)

# Indices, counts and searches
nondiff(np.argmax, np.argmin, np.argsort, np.argpartition, np.argwhere, np.nonzero,
        np.flatnonzero, np.count_nonzero, np.searchsorted, np.digitize,
        np.unravel_index, np.ravel_multi_index, np.indices, np.diag_indices,
        np.tril_indices, np.triu_indices)

# Shapes and arrays built from shapes
nondiff(np.shape, np.size, np.ndim, np.zeros_like, np.ones_like, np.empty_like, np.full_like,
        np.zeros, np.ones, np.full, np.empty, np.eye, np.identity, np.tri, np.arange,
        np.linspace, np.logspace, np.geomspace, np.result_type, np.can_cast)

# Random draws (the legacy global RandomState functions and the Generator factory;
# Generator methods such as rng.normal are bound to an instance and not covered)
nondiff(np.random.rand, np.random.randn, np.random.normal, np.random.uniform,
        np.random.standard_normal, np.random.random, np.random.random_sample,
        np.random.randint, np.random.choice, np.random.permutation, np.random.shuffle,
        np.random.seed, np.random.default_rng, np.random.binomial, np.random.poisson,
        np.random.exponential, np.random.beta, np.random.gamma,
        np.random.multivariate_normal)
