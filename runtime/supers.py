"""`super().name(args)` in a method, as the compiler rewrites it (transform/frontend/
super_calls.py): `super_function(__class__, self, 'name')(self, args)`. The function is
found as Python's `super()` finds it, and called with the object itself, so the object's
derivative flows through the call like any argument's (a `super` proxy carries none)."""
import inspect


def super_function(cls, obj, name):
    """The function `super(cls, obj).name` calls, to be called with obj first: a method
    defined with def in a class after cls in type(obj)'s method order (a class method's
    function, called with the class: `obj` is then that class)."""
    found = getattr(super(cls, obj), name)
    if inspect.ismethod(found) and found.__self__ is obj:
        return found.__func__
    raise TypeError(f"super().{name}(...) is differentiated only as a method call: "
                    f"{type(found).__name__} found (call the base class's function with "
                    f"the object: `Base.{name}(self, ...)`)")
