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

from runtime.closures import expire_closure, make_closure, make_partial, template_of
from ..frontend.parse import body_starts_at
from ..ir.nodes import load, names_in, walk
from ..ir.primitives import Prim
from .closure_scope import rebound_later


def free_locals(fn, local_names):
    """The enclosing function's locals that lambda `fn` reads (sorted)."""
    own = {a.id for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs
           if isinstance(a, gast.Name)}
    own.update(a.id for a in (fn.args.vararg, fn.args.kwarg) if isinstance(a, gast.Name))
    found = {n.id for n in walk(fn.body) if isinstance(n, gast.Name)} - own
    # defaults are read where the lambda is made: `lambda t, a=a: a * t` reads the
    # enclosing `a` although its own parameter has that name
    for default in fn.args.defaults + [d for d in fn.args.kw_defaults if d is not None]:
        found.update(n.id for n in walk(default) if isinstance(n, gast.Name))
    return sorted(found & set(local_names))


def refuse_rebound_def(src, fdef):
    """A nested def is inlined where its name is called, and a closure record where it is
    read: a name bound otherwise too (`g = np.sin` after `def g`) would reach the def
    where Python reaches the new value (a silent wrong gradient): refused there."""
    for node in gast.walk(src.node):
        if isinstance(node, gast.Name) and node.id == fdef.name and \
                isinstance(node.ctx, (gast.Store, gast.Del)):
            raise src.error(f"the nested function {fdef.name}() is also bound by an "
                            "assignment (or loop, `with`, `del`)", node,
                            hint=f"give the other value a name of its own, not {fdef.name}")


class ClosureRecords:
    """A Normalizer's part: closure records for lambdas and nested defs kept as values."""

    def __init__(self, normalizer):
        self.norm, self.src, self.names = normalizer, normalizer.src, normalizer.names
        self.pending = []           # (closure argument, the block it was made in)
        self.statement_out = None   # the block of the simple statement being normalized
        self.inline_renames = []    # (nested def, its renames) for those being inlined

    def record(self, node, defaults, target=None, argument=False):
        """Emit `target = make_closure(<node's template>, (free..., defaults...))`.

        argument: a lambda written as a call's argument. Its variables may be bound
        again later (a loop's): it is then expired once the call is over (a later call
        of it, if the callee kept it, is refused when it runs)."""
        code = self.code_of(node)
        found = [self.renamed_free(v) for v in code.co_freevars]
        free = [name for name, _ in found]
        if self.check(node, free, argument, [at for _, at in found]) and argument:
            made = self.record_env(node, code, free, defaults, target)
            self.pending.append((made, self.norm.out))
            return made
        return self.record_env(node, code, free, defaults, target)

    def inlined(self, fdef, body, renames):
        """A nested def's renamed body, normalized (normalize_calls.inline_call). Its
        renamed variables are locals of the function now: a lambda in it reading one
        (`return lambda z: z ** k`, k its parameter, now `power_k`) is a closure record,
        its variables found through `renames`, so the derivative reaches `power_k`."""
        self.src.locals |= {v.id for v in renames.values() if isinstance(v, gast.Name)}
        self.inline_renames.append((fdef, renames))
        try:
            return self.norm.block(body)
        finally:
            self.inline_renames.pop()

    def renamed_free(self, name):
        """(the name a variable of the code object has in the normalized tree, where it
        was renamed: (k, its name there), k the index in inline_renames of the nested
        def it belongs to, or None). Each nested def being inlined around the closure
        renames its own variables, the outermost first."""
        at = None
        for k, (fdef, renames) in enumerate(self.inline_renames):
            value = renames.get(name)
            if isinstance(value, gast.Name):
                at, name = (k, name), value.id
        return name, at

    def rebound(self, node, free, renamed_at):
        """Those of `free` that may be bound again after the closure is made, each looked
        for in its own scope: the function's, or a nested def's being inlined (there the
        closure is the nested def inlined in it, or the closure itself)."""
        defs = [fdef for fdef, _ in self.inline_renames]
        made = defs + [node]
        outer = {v for v, at in zip(free, renamed_at) if at is None}
        found = rebound_later(self.src.node, made[0], outer & set(self.src.locals))
        for k, name in filter(None, renamed_at):
            found += rebound_later(defs[k], made[k + 1], {name})
        return found

    def record_env(self, node, code, free, defaults, target):
        helper = load("make_closure")
        helper.runtime_helper = make_closure
        self.names.objects.setdefault("make_closure", make_closure)
        env = gast.Tuple(elts=[load(v) for v in free] + list(defaults), ctx=gast.Load())
        call = gast.Call(func=helper, args=[self.template_ref(code), env], keywords=[])
        return self.norm.expr(gast.copy_location(call, node), target)

    def partial_call(self, e):
        """`partial(f, a, k=b)` -> `make_partial(f, (a,), {"k": b})` (runtime/closures.py),
        or None for one with `*xs` or `**kw` (bound only when it runs: kept as written)."""
        if not e.args or any(isinstance(a, gast.Starred) for a in e.args) or \
                any(kw.arg is None for kw in e.keywords):
            return None
        helper = load("make_partial")
        helper.runtime_helper = make_partial
        self.names.objects.setdefault("make_partial", make_partial)
        bound = gast.Tuple(elts=list(e.args[1:]), ctx=gast.Load())
        keywords = gast.Dict(keys=[gast.Constant(value=kw.arg, kind=None) for kw in e.keywords],
                             values=[kw.value for kw in e.keywords])
        call = gast.Call(func=helper, args=[e.args[0], bound, keywords], keywords=[])
        return gast.copy_location(call, e)

    def within_statement(self, normalize, returns):
        """Normalize a simple statement, expiring its closure arguments at its end (none
        after a return: nothing of this function runs after it). Those made in a block
        the statement holds (a comprehension's loop) expire there, after their call."""
        outer, self.statement_out = self.statement_out, self.norm.out
        try:
            normalize()
        finally:
            self.statement_out = outer
        if returns:
            self.pending = [(m, out) for m, out in self.pending if out is not self.norm.out]
        self.expire_pending(force=True)

    def expire_pending(self, force=False):
        """After a call: `expire_closure(c)` for each closure argument made in the block
        being emitted (at the statement's end if that block is the statement's)."""
        here = self.norm.out
        if here is self.statement_out and not force:
            return
        due = [m for m, out in self.pending if out is here]
        self.pending = [(m, out) for m, out in self.pending if out is not here]
        for made in due:
            helper = self.names.ref(self.role("expire_closure", expire_closure))
            self.norm.emit(gast.Expr(value=gast.Call(func=helper, args=[load(made)],
                                                     keywords=[])), Prim("nondiff", "expire"))

    def role(self, name, obj):
        self.names.objects.setdefault(name, obj)
        return name

    def check(self, node, free, argument=False, renamed_at=()):
        """Refuse what is not followed; True if a variable is bound again later (and
        `argument` allows it)."""
        what = "lambda" if isinstance(node, gast.Lambda) else f"function {node.name}()"
        if getattr(node, "name", None) in free:
            raise self.src.error(f"the nested {what} calls itself and is used as a value",
                                 node, hint="define it at module level")
        if not set(free) <= names_in(node):
            raise self.src.error(f"the {what} used as a value here is not supported: it "
                                 "is inside a nested function inlined where it is called",
                                 node, hint="define the outer function at module level")
        if node.args.vararg or node.args.kwarg:
            raise self.src.error(f"the {what} used as a value takes *args or **kwargs",
                                 node, hint="give it a fixed list of parameters")
        if any(d is not None for d in node.args.kw_defaults):
            raise self.src.error(f"the {what} used as a value has keyword-only defaults",
                                 node, hint="give the parameter a positional default")
        rebound = self.rebound(node, free, renamed_at or [None] * len(free))
        if rebound and not argument:
            raise self.src.error(rebound_message(what, rebound), node,
                                 hint=REBOUND_INSTEAD)
        return bool(rebound)

    def code_of(self, node):
        """The code object Python compiled `node` to (found in the function's code)."""
        node = getattr(node, "source_lambda", node)     # `f = lambda` made a def
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
    return (f"the {what} reads {listed}, bound again (or written into) after it is made: "
            "Python reads "
            "the value at the time of the call, which is not followed here")


REBOUND_INSTEAD = ("bind the value when the function is made, as a default parameter "
                   "(`lambda t, w=w: t * w`), or give the variable a new name for each "
                   "value")
