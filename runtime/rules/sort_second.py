"""A sort's cotangent differentiated: permutation_vjp's own rule (hvp forward over reverse
differentiates the flat gradient calling it; its helper in sort_second_helpers.py).
Its parameters are named here as `slopes, answer` (g and ans are the templates' own)."""
from ..registry import LINEAR, defvjp
from .shape_helpers import permutation_vjp

defvjp(permutation_vjp, "slopes, answer, a, axis",
       "permutation_vjp_vjp(g, slopes, answer, a, axis)", None, None, None, complex_ok=True,
       jvp=(LINEAR, None, None, None))
