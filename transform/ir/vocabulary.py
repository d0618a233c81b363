"""The compiler's own vocabulary: every name generated code uses that the user did not
write, chosen so that it cannot collide with a name the user's function uses.

    def f(x):                          def f_rrule(x):
        tape = x * 2.0        ->           tape_1 = []
        return tape * x                    tape = x * 2.0
                                           ...
                                           tape_1.append(tape)

A *role* is what the compiler means ("tape", "pop", "unbroadcast", "np", "range");
the *name* is what the generated source says. A role's name is the role itself unless
the user's function mentions that name (as a parameter, local, global it reads, name in
a nested def, ...); then it is a numbered variant (`tape_1`). One exception keeps dumps
readable: a module-level role may share the user's name when the user's name is a
global the function never binds and it denotes the very same object (`np` that is
NumPy, the builtin `range`).

Every node the compiler makes for a role comes from `ref` (and `call`, `store`), which
marks it with `node.role`; passes recognise the compiler's own statements by that mark
(see recognize.py), never by the name. Marks are plain attributes, so `copy.copy`,
`copy.deepcopy` and `templates.clone` keep them.
"""
import builtins

import gast

import runtime
from .nodes import NameGen, names_below, statements

# The compiler's own locals in the generated rrule (never shared with a user name).
LOCAL_ROLES = ("tape", "pop", "pullback", "_")
# Builtins the generated code calls for the compiler's own purposes (loop replay).
BUILTIN_ROLES = ("range", "reversed", "list", "len", "zip", "enumerate", "slice")


def vocabulary_objects():
    """role -> object for every module-level role: the runtime helpers, the template
    namespace (np, math, registered template helpers) and the builtins above."""
    objects = {name: getattr(builtins, name) for name in BUILTIN_ROLES}
    objects.update(runtime.generated_namespace())
    return objects


class Vocabulary(NameGen):
    """A NameGen that also names the compiler's roles.

    used: every name the user's function mentions; bound: those it binds anywhere
    (never shared); resolve(name): the object a free name of the function denotes.
    """

    def __init__(self, used, bound=(), resolve=lambda name: None):
        super().__init__(used)
        self.user_names = frozenset(used)
        self.bound = frozenset(bound)
        self.resolve = resolve
        self.objects = vocabulary_objects()
        self.roles = {}            # role -> chosen name
        self.bindings = {}         # chosen name -> object, for module-level roles
        self.scoped = set()        # names bound only inside template comprehensions
        self.prototypes = {}       # role -> Name node templates.expand clones

    def name(self, role):
        """The generated source's name for `role` (chosen on first use)."""
        chosen = self.roles.get(role)
        if chosen is None:
            chosen = self.roles[role] = self._choose(role)
        return chosen

    def _choose(self, role):
        if role in LOCAL_ROLES:
            return self.reserve(role)
        if role not in self.objects:
            raise KeyError(f"{role!r} is not in the compiler's vocabulary")
        obj = self.objects[role]
        if role in self.user_names and role not in self.bound \
                and self.resolve(role) is obj:
            chosen = role                       # the user's global is this very object
        else:
            chosen = self.reserve(role)
        self.bindings[chosen] = obj
        return chosen

    def shared_names(self):
        """Module-level roles named as the user's own globals (they were the same object
        at compile time: a guard on the user's global covers them)."""
        return sorted(name for name in self.bindings if name in self.user_names)

    def template_local(self, name):
        """A name a rule template binds itself (a comprehension variable)."""
        key = ("template", name)
        if key not in self.roles:
            self.roles[key] = self.reserve(name)
            self.scoped.add(self.roles[key])
        return self.roles[key]

    def is_compiler_global(self, name):
        """Whether `name` is no local of the generated function but the compiler's: a
        module-level role's name the user does not also read, or a template's own
        comprehension variable."""
        return name in self.bindings and name not in self.user_names or name in self.scoped

    def ref(self, role, ctx=gast.Load):
        """A Name node for `role`, marked as the compiler's own."""
        node = gast.Name(id=self.name(role), ctx=ctx(), annotation=None, type_comment=None)
        node.role = role
        return node

    def template_ref(self, role):
        """A shared, never mutated Name node for `role` (templates.clone copies it)."""
        node = self.prototypes.get(role)
        if node is None:
            node = self.prototypes[role] = self.ref(role)
        return node

    def store(self, role):
        return self.ref(role, gast.Store)

    def call(self, role, *args):
        """`role(*args)`: a call of a runtime helper (or a compiler local like `pop`)."""
        return gast.Call(func=self.ref(role), args=list(args), keywords=[])

    def assign(self, role, value):
        """`role = value` for one of the compiler's locals (`tape = []`)."""
        return gast.Assign(targets=[self.store(role)], value=value, type_comment=None)


def role_of(node):
    """The role a Name node was made for by `Vocabulary.ref`, else None."""
    return getattr(node, "role", None) if type(node) is gast.Name else None


def user_names(node):
    """(every name a function mentions, the names it binds), nested defs included:
    Names in any context, def/class names, import aliases, global/nonlocal."""
    used, bound = set(), set()
    for n in names_below(node):
        if getattr(n, "runtime_helper", None) is not None:
            continue            # a call the desugar stage wrote: the compiler's own role
        used.add(n.id)
        if type(n.ctx) is not gast.Load:
            bound.add(n.id)
    for s in statements(node):
        if isinstance(s, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            bound.add(s.name)
        elif isinstance(s, (gast.Import, gast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in s.names)
        elif isinstance(s, (gast.Global, gast.Nonlocal)):
            bound.update(s.names)
    return used | bound, bound


__all__ = ["Vocabulary", "role_of", "user_names", "LOCAL_ROLES", "BUILTIN_ROLES"]
