"""stop_gradient(x): the identity whose derivative is zero.

Declared once, as a ZERO entry of runtime/rules/nondiff.py (`nondiff(stop_gradient,
why=ZERO, fresh=True)`): every mode reads that declaration, so the cotangent reverse mode
gives its argument is a true zero and the tangent a forward mode gives its result is
zero too. Called from plain Python it is the identity on values.

Its result is a fresh copy: arrays are copied and tuples, lists and dicts rebuilt (a
namedtuple stays one), so a write into the result never reaches the argument (the
compiler's alias analysis reads `fresh`). Numbers, strings and None come back as they are.
"""
import numbers

import numpy as np


def stop_gradient(x):
    """x, with no derivative: `y + stop_gradient(q(y) - y)` has y's derivative and q's value."""
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, tuple):
        parts = [stop_gradient(v) for v in x]
        return type(x)(*parts) if hasattr(x, "_fields") else type(x)(parts)
    if isinstance(x, list):
        return type(x)(stop_gradient(v) for v in x)
    if isinstance(x, dict):
        return type(x)((k, stop_gradient(v)) for k, v in x.items())
    if x is None or isinstance(x, (numbers.Number, np.generic, str, bytes)):
        return x
    raise TypeError(f"stop_gradient takes arrays, numbers and tuples, lists or dicts of "
                    f"them, not {type(x).__name__}; apply it to the arrays the object holds")
