"""Stage 5, analyze (continued): a complex value that certainly reaches a rule not
declared complex_ok (runtime/complex_safety.py) is refused at compile time, at its line.

    z = np.fft.fft(x)              z: complex (a seed)
    w = z * 2.0                    w: complex (arithmetic keeps a complex operand's dtype)
    u, s, vh = np.linalg.svd(w)    svd's rule is for real values  ->  TransformError here

Only what the statements show for certain: a name all of whose definitions make a
complex value from a seed, a complex literal or a name already known complex, through
the functions below that keep a complex operand's dtype. Everything else is left to
the run-time guards in front of those rules' templates (transform/ir/templates.py).
Run only in a function with a complex seed (complex_seeds.py), so real programs pay
nothing.
"""
import cmath
import operator

import gast
import numpy as np

from runtime.complex_safety import refusal

from .activity import defined, walk
from ..ir import statements as ir
from .reasons import _site

_FFT = np.fft
# calls whose result is complex whatever (real) arguments they get
_SEEDS = {_FFT.fft, _FFT.ifft, _FFT.fftn, _FFT.ifftn, _FFT.fft2, _FFT.ifft2, _FFT.rfft,
          _FFT.rfftn, _FFT.rfft2, _FFT.ihfft, complex, np.complex128, np.complex64,
          cmath.exp, cmath.log, cmath.sqrt, cmath.sin, cmath.cos, cmath.tan, cmath.sinh,
          cmath.cosh, cmath.tanh, cmath.rect}
# calls whose result is complex when an operand is
_KEEP = {operator.add, operator.sub, operator.mul, operator.truediv, operator.neg,
         operator.pos, operator.pow, operator.getitem, np.add, np.subtract, np.multiply,
         np.divide, np.negative, np.conjugate, np.exp, np.log, np.sqrt, np.sin, np.cos,
         np.tan, np.sinh, np.cosh, np.tanh, np.square, np.sum, np.mean, np.cumsum,
         np.prod, np.transpose, np.reshape, np.ravel, np.roll, np.flip, np.diff, np.outer,
         np.dot, np.matmul, operator.matmul, _FFT.fftshift, _FFT.ifftshift}


def check_complex_reach(ctx, body):
    """Raise TransformError where a certainly complex, differentiated value is an
    argument of a rule not declared complex_ok."""
    known = certainly_complex(body)
    act = ctx.activity
    for s, _ in walk(body):
        if not isinstance(s, ir.RuleCall) or s.rule is None or s.rule.complex_ok or \
                s.target not in act.useful:
            continue
        for param, name in act.active_inputs(s.prim):
            if name in known and param in s.rule.templates:
                raise _refusal(ctx, s.node, s.prim, name)


def certainly_complex(body):
    """Names every definition of which is certainly a complex value."""
    defs = {}
    for s, _ in walk(body):
        names, prim = defined(s) if not isinstance(s, ir.Append) else ([], None)
        for name in names:
            defs.setdefault(name, []).append(prim if len(names) == 1 else None)
    known = set()
    for _ in range(len(defs) + 1):           # each pass may add names defined from others
        new = {n for n, prims in defs.items() if n not in known and
               all(_makes_complex(p, known) for p in prims)}
        if not new:
            return known
        known |= new
    return known


def _makes_complex(prim, known):
    if prim is None or prim.kind != "rule":
        return False
    try:
        if prim.fn in _SEEDS:
            return True
        keeps = prim.fn in _KEEP
    except TypeError:                        # an unhashable callable
        return False
    return keeps and any(_complex_atom(a, known) for a in prim.inputs.values())


def _complex_atom(atom, known):
    if isinstance(atom, gast.Constant):
        return isinstance(atom.value, complex)
    return isinstance(atom, gast.Name) and atom.id in known


def _refusal(ctx, s, prim, name):
    message, _, hint = str(refusal(prim.rule.name)).partition(" Instead: ")
    what = "a complex value" if name in ctx.names.temporaries else f"`{name}`, a complex value,"
    return ctx.src.error(message.replace("a complex value", what, 1), _site(s, prim),
                         hint=hint or None)
