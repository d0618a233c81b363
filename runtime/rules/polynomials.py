"""Polynomials and selection.

np.polyval is differentiated in its coefficients (highest power first, each may be an
array broadcasting against x) and in x; np.vander in x (the slope of x ** 0 is 0,
also at x = 0); np.select in its choices and its default (each element's cotangent
goes to the first choice whose condition holds there), not in its conditions.
(np.piecewise, whose pieces are callables, is in piecewise.py.)
"""
import numpy as np

from ..registry import JOINT, LINEAR, defvjp

defvjp(np.polyval, "p, x", "polyval_coefficients_vjp(g, p, x)",
       "unbroadcast(g * polyval_slope(p, x), x)", numeric=True, complex_ok=True,
       jvp=(LINEAR, "t_x * polyval_slope(p, x)"))
defvjp(np.vander, "x, N=None, increasing=False", "vander_vjp(g, x, N, increasing)", None, None,
       numeric=True, complex_ok=True,
       jvp="np.expand_dims(t_x, -1) * vander_slopes(x, N, increasing)")
defvjp(np.select, "condlist, choicelist, default=0", None,
       "select_vjp(g, condlist, choicelist, default, 'choices')",
       "select_vjp(g, condlist, choicelist, default, 'default')", complex_ok=True, jvp=JOINT)
