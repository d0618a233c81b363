"""Stage 3, normalize (data): which lambdas may be kept as values. A lambda that reads
only its parameters and module globals is a constant function: it is kept as it is
written and, when called (`acts[1](x)`, `apply(f, x)`), compiled at run time like any
function held in a variable:

    acts = [np.tanh, lambda z: z * sigmoid(z)]     # kept: reads z and a global
    f = lambda z: z * w                              # w local: refused as a value
                                                     # (called by name it is inlined)

One that reads a local of the enclosing function would be called with that local's
value but its derivative would not reach the local (the compiled lambda answers for its
parameters only): refused, with the hint to call it by name or pass the value.
"""
import gast

from ..ir.nodes import walk


def free_locals(fn, local_names):
    """The enclosing function's locals that lambda `fn` reads (sorted)."""
    own = {a.id for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs
           if isinstance(a, gast.Name)}
    own.update(a.id for a in (fn.args.vararg, fn.args.kwarg) if isinstance(a, gast.Name))
    found = {n.id for n in walk(fn.body) if isinstance(n, gast.Name)}
    for default in fn.args.defaults + [d for d in fn.args.kw_defaults if d is not None]:
        found.update(n.id for n in walk(default) if isinstance(n, gast.Name))
    return sorted((found - own) & set(local_names))


LAMBDA_INSTEAD = ("give it the value as a parameter (`lambda z, w: z * w`, called as "
                  "`f(x, w)`), call it by the name it is assigned to (`f = lambda t: ...; "
                  "f(x)`: inlined), or pass it to map, filter, sorted, max or min")


def lambda_message(captured):
    names = ", ".join(f"`{n}`" for n in captured)
    return (f"a lambda kept as a value that reads {names} of this function is not "
            "supported here: called later, its derivative would not reach "
            f"{'them' if len(captured) > 1 else 'it'}")
