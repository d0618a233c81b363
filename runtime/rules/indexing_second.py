"""Second order through np.r_'s and np.c_'s tangent (session 40, secorder3): a reverse
rule for index_trick_jvp(trick, items, t_items), the items' tangents placed where their
entries land. It is linear in t_items, its transpose the cotangent of the items
(index_trick_vjp, the same numbering), and reads the items for their shapes and places
only (a zero derivative), so hvp, hessian and grad of grad take np.r_ and np.c_."""
import numpy as np  # noqa: F401  (templates read np)

from ..registry import LINEAR, defvjp
from .forward_container_helpers import index_trick_jvp
from .indexing_helpers import index_trick_vjp

defvjp(index_trick_jvp, "trick, items, t_items", None, None,
       "index_trick_vjp(g, trick, items)", jvp=(None, None, LINEAR))
# and its transpose, the items' cotangents (hvp forward over reverse): linear in g
defvjp(index_trick_vjp, "slopes_g, trick, items", "index_trick_jvp(trick, items, g)", None, None,
       jvp=(LINEAR, None, None))
