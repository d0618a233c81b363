"""Shape changes and indexing."""
import numpy as np

from ..registry import defvjp

defvjp(np.transpose, "a, axes=None", "transpose_vjp(g, axes)")
defvjp(np.reshape, "a, shape=None, order='C'", "reshape_vjp(g, a)")
