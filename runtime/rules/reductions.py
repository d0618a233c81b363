"""Reductions: the cotangent spreads back over the reduced axes."""
import numpy as np

from ..registry import defvjp

defvjp(np.sum, "a, axis=None, dtype=None, out=None, keepdims=False",
       "unreduce(g, a, axis, keepdims)")
defvjp(np.mean, "a, axis=None, dtype=None, out=None, keepdims=False",
       "unreduce(g, a, axis, keepdims) / reduction_size(a, axis)")
defvjp(np.linalg.norm, "x, ord=None, axis=None, keepdims=False",
       "norm_vjp(g, ans, x, ord, axis, keepdims)")
