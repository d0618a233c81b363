"""Stage 3, normalize (data): lambdas and nested defs kept as values. A lambda that
reads only its parameters and module globals is a constant function: it is kept as it
is written and, when called (`acts[1](x)`, `apply(f, x)`), compiled at run time like any
function held in a variable. One that reads locals of the function (and a nested def
used as a value) becomes a closure record (runtime/closures.py): its code and the
values it reads, a container the derivative flows through like a tuple:

    acts = [np.tanh, lambda z: z * sigmoid(z)]     # kept: reads z and a global
    f = lambda z: z * w                            # ->  f = make_closure(T, (w,))

A closure whose variables may be bound again while it can be called is refused
(closure_scope.py): Python would read the new value, the record holds the old one.
"""
import types

import gast

from runtime.closures import make_closure, template_of
from ..frontend.parse import body_starts_at
from ..ir.nodes import load, names_in, walk
from .closure_scope import rebound_later


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


class ClosureRecords:
    """A Normalizer's part: closure records for lambdas and nested defs kept as values."""

    def __init__(self, normalizer):
        self.norm, self.src, self.names = normalizer, normalizer.src, normalizer.names

    def record(self, node, defaults, target=None):
        """Emit `target = make_closure(<node's template>, (free..., defaults...))`."""
        code = self.code_of(node)
        free = code.co_freevars
        self.check(node, free)
        helper = load("make_closure")
        helper.runtime_helper = make_closure
        self.names.objects.setdefault("make_closure", make_closure)
        env = gast.Tuple(elts=[load(v) for v in free] + list(defaults), ctx=gast.Load())
        call = gast.Call(func=helper, args=[self.template_ref(code), env], keywords=[])
        return self.norm.expr(gast.copy_location(call, node), target)

    def check(self, node, free):
        what = "lambda" if isinstance(node, gast.Lambda) else f"function {node.name}()"
        if getattr(node, "name", None) in free:
            raise self.src.error(f"the nested {what} calls itself and is used as a value",
                                 node, hint="define it at module level")
        if not set(free) <= names_in(node):
            raise self.src.error(f"the {what} used as a value here is not supported: it "
                                 "is inside a nested function inlined where it is called",
                                 node, hint="define the outer function at module level")
        if any(d is not None for d in node.args.kw_defaults):
            raise self.src.error(f"the {what} used as a value has keyword-only defaults",
                                 node, hint="give the parameter a positional default")
        rebound = rebound_later(self.src.node, node, set(free) & set(self.src.locals))
        if rebound:
            raise self.src.error(rebound_message(what, rebound), node,
                                 hint=REBOUND_INSTEAD)

    def code_of(self, node):
        """The code object Python compiled `node` to (found in the function's code)."""
        line = self.src.first_line + node.lineno - 1
        name = "<lambda>" if isinstance(node, gast.Lambda) else node.name
        found = [c for c in _codes(self.src.fn.__code__)
                 if c.co_name == name and c.co_firstlineno == line]
        if len(found) > 1 and isinstance(node, gast.Lambda):
            lo = node.body.col_offset + self.src.col_offset
            found = [c for c in found if body_starts_at(c, line, lo)]
        if len(found) != 1 or getattr(node, "decorator_list", None):
            raise self.src.error("this function cannot be kept as a value here: its code "
                                 "is not found in the function's own", node,
                                 hint="define it at module level and pass the values it "
                                      "reads as arguments")
        return found[0]

    def template_ref(self, code):
        template = template_of(code, self.src.fn.__globals__)
        base = "lambda" if code.co_name == "<lambda>" else code.co_name
        role = f"{base}_template_{code.co_firstlineno}"
        while self.names.objects.setdefault(role, template) is not template:
            role += "_"
        return self.names.ref(role)


def _codes(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _codes(const)


def rebound_message(what, names):
    listed = ", ".join(f"`{n}`" for n in names)
    return (f"the {what} reads {listed}, bound again after it is made: Python reads "
            "the value at the time of the call, which is not followed here")


REBOUND_INSTEAD = ("bind the value when the function is made, as a default parameter "
                   "(`lambda t, w=w: t * w`), or give the variable a new name for each "
                   "value")
