"""Objects the generated code built (transform/lowering/records.py object_builder) whose
class answers attributes with its own `__getattr__`: reading such an attribute gives
no field's cotangent, so its reverse rule (containers.py getattr_vjp) refuses it where
it is read; record_field refuses what reaches the construction otherwise (an object
copied by an attribute write)."""
import weakref

from .complex_safety import AttributeRefused

_BUILT = weakref.WeakValueDictionary()      # id -> an object built, of such a class


def note_built(obj):
    """Remember obj (built in the code) when its class has a `__getattr__`."""
    if getattr(type(obj), "__getattr__", None) is not None:
        try:
            _BUILT[id(obj)] = obj
        except TypeError:                 # no weak reference: record_field refuses
            pass


def refuse_answered(obj, name):
    """Refuse `obj.name` when obj was built in the code and its `__getattr__` answers
    `name` (no field of that name)."""
    if _BUILT.get(id(obj)) is obj and name not in getattr(obj, "__dict__", {}):
        raise answered_by_code(name, tuple(vars(obj)))


def answered_by_code(name, fields):
    return AttributeRefused(f"no derivative through the attribute .{name} of a record "
                            "built in the code (its class's own __getattr__ or code "
                            "answers it, not a field) Instead: read its fields "
                            f"({', '.join(fields)}) directly")
