"""What a `match` class pattern tests (transform/frontend/match.py writes the call):
`case Point(x=a, y=b):` matches an instance of Point that has the attributes x and y."""
from .registry import ZERO, nondiff


def is_instance_with(value, cls, names):
    """isinstance(value, cls) and every attribute in `names` present, as Python's
    match decides a class pattern (the attributes are read afterwards)."""
    return isinstance(value, cls) and all(hasattr(value, name) for name in names)


nondiff(is_instance_with, why=ZERO)       # a test: its result is a bool
