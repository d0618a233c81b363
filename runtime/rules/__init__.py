"""Derivative rules by family; importing this package registers them all."""
from . import operators, elementwise, reductions, linalg, shape  # noqa: F401
