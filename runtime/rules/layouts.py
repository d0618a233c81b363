"""Axis moves, grids and the parts of floating-point numbers.

np.rollaxis moves g back; np.row_stack (where NumPy has it) is np.vstack; np.meshgrid
(any indexing, sparse or not) sums each output's cotangent over the axes its input
does not vary along. np.frexp's mantissa has slope 2 ** -e and np.modf's fraction
slope 1 (both step where the integer part changes); np.ldexp is differentiated in
its mantissa. np.real_if_close (slope 1) takes real input only: complex input is
refused. (np.angle, which takes complex input too, is in complex_parts.py.)
"""
import numpy as np

from ..registry import JOINT, LINEAR, declare, defvjp, rrule
from .layouts_helpers import meshgrid_rule

defvjp(np.rollaxis, "a, axis, start=0", "rollaxis_vjp(g, a, axis, start)", None, None, view=True,
       complex_ok=True, jvp=LINEAR)
if hasattr(np, "row_stack") and np.row_stack is not np.vstack:    # deprecated in 2.0
    defvjp(np.row_stack, "tup, *, dtype=None, casting='same_kind'", "vstack_vjp(g, tup)",
           complex_ok=True, jvp=LINEAR)
rrule(np.meshgrid, jvp=JOINT,
           complex_ok=True)(meshgrid_rule)            # its inputs are varargs: a custom rule
declare(np.meshgrid, parts_view=True)           # copy=False returns broadcast views

defvjp(np.frexp, "x", "frexp_vjp(g, ans, x)", numeric=True, jvp="(np.ldexp(t_x, -ans[1]), None)")
defvjp(np.modf, "x", "modf_vjp(g, ans, x)", numeric=True, jvp="(t_x, None)")
defvjp(np.ldexp, "x1, x2", "unbroadcast(np.ldexp(g, x2), x1)", None, elementwise=True)
defvjp(np.real_if_close, "a, tol=100", "real_input_vjp(g, a, 'np.real_if_close', 1)", None,
       numeric=True, view=True, jvp=LINEAR)                 # real input: returns `a` itself
