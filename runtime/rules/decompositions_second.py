"""np.linalg.solve's and cholesky's cotangents differentiated: solve_vjp's and
cholesky_vjp's own rules (hvp forward over reverse differentiates the flat gradient
calling them; helpers in decompositions_second_helpers.py).
Its parameters are named here as `slopes, answer` (g and ans are the templates' own)."""
from ..registry import LINEAR, defvjp
from .decompositions_helpers import cholesky_vjp, solve_vjp

_OWN = "slopes, answer, a, b, operand, lower"
defvjp(solve_vjp, _OWN + "=None",
       f"solve_vjp_vjp(g, {_OWN}, 'g')", f"solve_vjp_vjp(g, {_OWN}, 'answer')",
       f"solve_vjp_vjp(g, {_OWN}, 'a')", None, None, None,
       jvp=(LINEAR, f"solve_vjp_jvp(t_answer, {_OWN}, 'answer')",
            f"solve_vjp_jvp(t_a, {_OWN}, 'a')", None, None, None))

_CHOL = "slopes, answer, upper"
defvjp(cholesky_vjp, _CHOL, f"cholesky_vjp_vjp(g, {_CHOL}, 'g')",
       f"cholesky_vjp_vjp(g, {_CHOL}, 'answer')", None,
       jvp=(LINEAR, f"cholesky_vjp_jvp(t_answer, {_CHOL}, 'answer')", None))
