"""Whether a function may hold a complex value: a cheap scan for complex seeds.

A seed is a complex literal (`1j`), a name of a complex type (`complex`, `np.complex128`,
as a call or a dtype), or a call of a function whose result is complex for real input
(the FFTs, `complex(a, b)`, `cmath.*`). Parameters are real (complex arguments are
refused at the boundary), so a function without a seed holds no complex value, unless
it reads one: a global, a closure variable or a default (`holds_complex_value`).

    z = a + 1j * b     ->  may_complex: True   (`1j`)
    y = np.sin(x) * 2  ->  may_complex: False

The shape analysis reads it: a number known to be a scalar may stand in as 0.0 for a
shape-only read only where no value can be complex (0.0 would lose a complex dtype).
"""
import cmath

import gast
import numpy as np

from runtime.complex_safety import any_complex

_COMPLEX_TYPE_NAMES = {"complex", "complex64", "complex128", "cdouble", "csingle",
                       "clongdouble", "complexfloating"}
_SEED_FUNCTIONS = {complex, np.complex128, np.complex64} | {
    getattr(np.fft, name) for name in ("fft", "ifft", "fftn", "ifftn", "fft2", "ifft2",
                                       "rfft", "rfftn", "rfft2", "ihfft", "hfft", "irfft")} | {
    fn for fn in vars(cmath).values() if callable(fn)}


def is_seed_call(fn):
    """Whether calling `fn` may make a complex value from real ones."""
    try:
        return fn in _SEED_FUNCTIONS
    except TypeError:               # an unhashable callable
        return False


def has_complex_literal(node):
    """Whether `node`'s expression holds a complex literal or names a complex type."""
    if isinstance(node, gast.Constant):          # atoms first: the shape pass asks per atom
        return isinstance(node.value, complex)
    if isinstance(node, gast.Name):
        return node.id in _COMPLEX_TYPE_NAMES
    for sub in gast.walk(node):
        if isinstance(sub, gast.Constant) and isinstance(sub.value, complex):
            return True
        if isinstance(sub, gast.Name) and sub.id in _COMPLEX_TYPE_NAMES or \
                isinstance(sub, gast.Attribute) and sub.attr in _COMPLEX_TYPE_NAMES:
            return True
    return False


def holds_complex_value(src):
    """Whether a value the function reads from outside (a global, a closure variable, an
    attribute of one, a default) is complex: a seed the statements do not show."""
    fn = src.fn
    defaults = (*(fn.__defaults__ or ()), *(fn.__kwdefaults__ or {}).values())
    return any_complex(defaults) or any_complex(src.resolved.values())
