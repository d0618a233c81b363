"""The class of a method call's receiver, where the source shows it: random
generators, whose methods (rng.normal, rs.uniform) have rules of their own.

    rng = np.random.default_rng(0)        rng.normal(mu, s)  ->  Generator.normal(rng, mu, s)
    np.random.RandomState(1).gamma(k)     ->  RandomState.gamma(<receiver>, k)

A receiver the source does not pin down (an argument, an attribute) is
dispatched on its type at run time (transform/dispatch.py).
"""
import gast
import numpy as np

from runtime.rules.indexing import index_object, index_trick

FACTORIES = {np.random.default_rng: np.random.Generator,
             np.random.Generator: np.random.Generator,
             np.random.RandomState: np.random.RandomState}
SOURCES = (np.random.Generator, np.random.RandomState)


def random_method(src, receiver, name):
    """The unbound method `Generator.name` / `RandomState.name` if `receiver` is one, else None."""
    cls = _class_of(src, receiver)
    return getattr(cls, name, None) if cls is not None else None


def bound_to_generator(fn):
    """Whether `fn` is a method bound to a generator held in a global (`RNG.normal`),
    other than the legacy np.random functions, which have rules of their own."""
    import runtime
    return isinstance(getattr(fn, "__self__", None), SOURCES) and runtime.lookup(fn) is None


def _class_of(src, node):
    if isinstance(node, gast.Call):
        return _made_by(src, node)
    if not isinstance(node, gast.Name):
        return None
    if node.id not in src.locals:
        value = src.resolve(node)
        return type(value) if isinstance(value, SOURCES) else None
    assigned = _single_assignment(src.node, node.id)
    return _made_by(src, assigned) if isinstance(assigned, gast.Call) else None


def _made_by(src, call):
    try:
        return FACTORIES.get(src.resolve(call.func))
    except TypeError:                    # an unhashable callable: not a factory
        return None


def _single_assignment(fdef, name):
    """The value of `name = value` if that is the only place `name` is bound, else None."""
    stores = [n for n in gast.walk(fdef) if isinstance(n, gast.Name) and n.id == name
              and isinstance(n.ctx, (gast.Store, gast.Param, gast.Del))]
    if len(stores) != 1:
        return None
    for node in gast.walk(fdef):
        if isinstance(node, gast.Assign) and len(node.targets) == 1 \
                and node.targets[0] is stores[0]:
            return node.value
    return None


def index_rule(obj):
    """The function recorded for `obj[...]` when obj is a module-level object: index_trick
    for np.r_ / np.c_, index_object for anything that is not an array or a container
    (np.s_, np.mgrid, a user class), None for those (and for local values)."""
    if obj is None or isinstance(obj, (np.ndarray, list, tuple, dict, str, bytes)):
        return None
    if obj is np.r_ or obj is np.c_:
        return index_trick
    return index_object


def label_of(node):
    """`np.r_` for the node of a dotted name."""
    if isinstance(node, gast.Attribute):
        return f"{label_of(node.value)}.{node.attr}"
    return node.id if isinstance(node, gast.Name) else "index"
