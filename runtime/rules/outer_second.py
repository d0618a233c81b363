"""Second order through ufunc.outer (session 40, secorder3): its templates and JVP terms
are the ufunc's own over operands spread to the outer shape (runtime/rules/ufunc_outer.py),
so reverse rules for the spread (outer_spread) and its transpose (outer_spread_sum) let
hvp, hessian and grad of grad take every f.outer with a rule, on every route.

Each is linear in its first argument and the other's transpose; A and B give shapes only.
"""
import numpy as np  # noqa: F401  (templates read np)

from ..registry import LINEAR, defvjp
from .ufunc_outer_helpers import outer_spread, outer_spread_sum

defvjp(outer_spread, "v, A, B, operand", "unbroadcast(outer_spread_sum(g, A, B, operand), v)",
       None, None, None, jvp=(LINEAR, None, None, None))
defvjp(outer_spread_sum, "total, A, B, operand",
       "unbroadcast(outer_spread(g, A, B, operand), total)", None, None, None,
       jvp=(LINEAR, None, None, None))
