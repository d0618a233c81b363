"""Linear algebra."""
import numpy as np

from ..registry import defvjp

defvjp(np.matmul, "x1, x2", "matmul_lhs(g, x1, x2)", "matmul_rhs(g, x1, x2)")
defvjp(np.dot, "a, b", "matmul_lhs(g, a, b) if np.ndim(a) and np.ndim(b) else unbroadcast(g * b, a)",
       "matmul_rhs(g, a, b) if np.ndim(a) and np.ndim(b) else unbroadcast(g * a, b)")
defvjp(np.outer, "a, b", "(g @ np.ravel(b)).reshape(np.shape(a))",
       "(np.ravel(a) @ g).reshape(np.shape(b))")
