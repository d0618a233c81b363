"""Forward mode over complex values (JAX's convention, docs/forward.md): the tangent of a
complex value is complex, and a statement's tangent is J t for the real-linear J of the
statement, d/dh f(z + h t) at h = 0 for real h.

Where complex values may appear (complex arguments or tangents, or a complex seed in
the body: forward_pipeline.py sets `fwd.complex`), a rule's term is taken only if it is
right for them:
- LINEAR and JOINT terms (the function applied to the tangent: right for any
  real-linear function, and every linear rule is real-linear on complex values);
- a rule declaring `complex_jvp` (the FFTs, np.real, np.imag, np.conj, np.sign, the
  complex constructors, cmath);
- DIAGONAL terms of the holomorphic functions below: their VJP template is g f'(z)
  without a conjugate (docs/complex.md), so the term t f'(z) is the complex derivative;
- the templates that are linear or structural: np.sum's and sum's (the sum of the
  tangents), getattr's, dict's, dict.items' and dict.get's (the entry of the tangent),
  make_closure's (the environment's tangent).
Every other rule is refused at its line (np.abs, np.angle, max, the decompositions, ...),
also when the value reaching it happens to be real: the analysis does not follow which
values are complex."""
import operator

import numpy as np

from runtime.jvp import DIAGONAL, JOINT, LINEAR

from .refusals import refuse

HOLOMORPHIC = {operator.add, operator.sub, operator.mul, operator.truediv, operator.neg,
               operator.pos, operator.pow, np.add, np.subtract, np.multiply, np.divide,
               np.negative, np.positive, np.power, np.exp, np.log, np.sin, np.cos, np.tan,
               np.sinh, np.cosh, np.tanh, np.sqrt, np.square, np.reciprocal, np.expm1,
               np.log1p}
LINEAR_TEMPLATES = {"numpy.sum", "builtins.sum", "builtins.getattr", "builtins.dict",
                    "dict.items", "dict.get", "runtime.closures.make_closure"}


def check_complex_terms(fwd, prim, params):
    """Refuse `prim`'s statement unless each term in `params` is right for complex values."""
    rule = prim.rule
    if not fwd.complex or rule.traits.get("complex_jvp"):
        return
    for param in params:
        if not _right(rule, rule.jvps.get(param)):
            refuse(fwd, prim, f"a tangent through `{prim.label}` where values may be complex "
                   "(its forward term is written for real values)",
                   "differentiate the real and imaginary parts as real functions, use "
                   "vjp, or write it from holomorphic functions, np.real, np.imag and np.conj")


def check_complex_custom(fwd, prim, term):
    """A custom rule's declared JVP (LINEAR, JOINT or a function) where values may be
    complex: a function is taken only from a rule declaring complex_jvp."""
    if fwd.complex and term not in (LINEAR, JOINT) and \
            not prim.rule.traits.get("complex_jvp"):
        refuse(fwd, prim, f"a tangent through `{prim.label}`, a custom rule, where values "
               "may be complex", "use vjp, or real arguments")


def _right(rule, term):
    if term in (LINEAR, JOINT):
        return True
    if rule.name in LINEAR_TEMPLATES:
        return True
    try:
        return term == DIAGONAL and rule.fn in HOLOMORPHIC
    except TypeError:                       # an unhashable callable
        return False
