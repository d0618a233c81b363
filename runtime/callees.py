"""Differentiating a user function that a rule receives as a value (odeint's `func`).

runtime never imports transform: the compiler hands its `vjp` over here when it is
imported (transform/api.py), as it hands run-time rules its compile entry point."""
_VJP = []


def provide(vjp):
    """Called once by transform.api with its vjp(fn, *args, wrt=...)."""
    _VJP[:] = [vjp]


def function_vjp(fn, *args, wrt, **kwargs):
    """(fn(*args, **kwargs), pullback) with cotangents for the positions in `wrt`
    (keyword arguments are not differentiated)."""
    if not _VJP:
        raise TypeError("differentiating a function passed to a rule needs thunkgrad's "
                        "compiler (import transform)")
    return _VJP[0](fn, *args, wrt=wrt, **kwargs)
