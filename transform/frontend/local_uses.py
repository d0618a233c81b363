"""Stage 1b, desugar (data): where each local name is bound and read, with each
occurrence's parent, so a rewrite can show that a list, tuple or dict is private to the
function before it changes how it is built or read.

    xs = [a, b]          # binding: Assign, value a display
    f(*xs)               # read: parent Starred, grandparent Call
    n = len(xs)          # read: parent Call to len

A name qualifies for a rewrite only when every occurrence is of a kind the rewrite's
module lists; anything else (`ys = xs`, `[xs]`, `helper(xs)`, a nested def reading it)
leaves the code as written, and the later stages judge (or refuse) it as before.
"""
import gast

from ..ir.nodes import walk


class LocalUses:
    """Every Name node of a function with its parent and whether it is in a nested
    function or lambda; the function's parameters and global/nonlocal names."""

    def __init__(self, src):
        self.src, fdef = src, src.node
        self.parent, self.nested = {}, set()
        self.occurrences = {}
        self._visit(fdef, in_nested=False)
        args = fdef.args
        self.params = {a.id for a in args.args + args.kwonlyargs + args.posonlyargs
                       if isinstance(a, gast.Name)}
        self.params.update(a.id for a in (args.vararg, args.kwarg) if a is not None)
        self.declared = {n for s in walk(fdef) if isinstance(s, (gast.Global, gast.Nonlocal))
                         for n in s.names}

    def _visit(self, root, in_nested):
        stack = [(root, in_nested)]
        while stack:
            node, nested = stack.pop()
            if isinstance(node, gast.Name):
                self.occurrences.setdefault(node.id, []).append(node)
                if nested:
                    self.nested.add(id(node))
            inner = nested or (node is not root and
                               isinstance(node, (gast.FunctionDef, gast.Lambda)))
            for child in gast.iter_child_nodes(node):
                self.parent[id(child)] = node
                stack.append((child, inner))

    def up(self, node):
        return self.parent.get(id(node))

    def candidate(self, name):
        """A local the function binds itself (not a parameter, global or nonlocal) and
        no nested function or lambda mentions."""
        nodes = self.occurrences.get(name, ())
        return bool(nodes) and name not in self.params and name not in self.declared \
            and not any(id(n) in self.nested for n in nodes)

    def bindings(self, name):
        return [n for n in self.occurrences.get(name, ()) if not isinstance(n.ctx, gast.Load)]

    def reads(self, name):
        return [n for n in self.occurrences.get(name, ()) if isinstance(n.ctx, gast.Load)]

    def plain_assignment(self, binding):
        """The Assign statement `name = value` that `binding` is the only target of."""
        parent = self.up(binding)
        if isinstance(parent, gast.Assign) and parent.targets == [binding]:
            return parent
        return None

    def is_builtin_call(self, call, *fns):
        return isinstance(call, gast.Call) and isinstance(call.func, gast.Name) and \
            self.src.resolve(call.func) in fns

    def is_numpy_call(self, call):
        """A call to a function of NumPy's own (which never keeps a list it is given)."""
        if not isinstance(call, gast.Call):
            return False
        fn = self.src.resolve(call.func)
        module = getattr(fn, "__module__", None) or ""
        return callable(fn) and not isinstance(fn, type) and \
            (module == "numpy" or module.startswith("numpy."))

    # ---- a container only this function can see ----------------------------------------
    def private_container(self, name, own_methods, changing):
        """"list" or "dict" when every binding of `name` makes a new one of that kind and
        every read is by index, by one of its own_methods, by a consuming builtin or
        NumPy, by a loop that does not change it, by `in`, as a test, or returned; the
        methods in `changing` change it."""
        if not self.candidate(name):
            return None
        kinds = {self.made_kind(self.plain_assignment(b)) for b in self.bindings(name)}
        if len(kinds) != 1 or None in kinds:
            return None
        changing = changing | {"append", "extend", "setdefault", "update"}
        reads_ok = all(self._private_read(n, own_methods, changing) for n in self.reads(name))
        return kinds.pop() if reads_ok else None

    def made_kind(self, stmt, seen=()):
        """"list"/"dict" if the assignment's value is a new list or dict, else None."""
        value = getattr(stmt, "value", None)
        if isinstance(value, (gast.List, gast.ListComp)):
            return "list"
        if isinstance(value, (gast.Dict, gast.DictComp)):
            return "dict"
        if isinstance(value, gast.BinOp):
            return self._list_arithmetic(value, seen)
        if self.is_builtin_call(value, list, sorted):
            return "list"
        if self.is_builtin_call(value, dict):
            return "dict"
        return self._copy_kind(value, seen)

    def _list_arithmetic(self, value, seen):
        """"list" for `xs + ys` of two lists and `[v] * 3`; an array operand would make
        an array (`a + [1.0]`), so each side must show it is a list (or an int)."""
        def is_list(side):
            if isinstance(side, (gast.List, gast.ListComp)):
                return True
            if isinstance(side, gast.Name) and side.id not in seen and \
                    self.candidate(side.id):
                kinds = {self.made_kind(self.plain_assignment(b), seen + (side.id,))
                         for b in self.bindings(side.id)}
                return kinds == {"list"}
            return False
        left, right = value.left, value.right
        if isinstance(value.op, gast.Add) and is_list(left) and is_list(right):
            return "list"
        count = (right if is_list(left) else left if is_list(right) else None)
        if isinstance(value.op, gast.Mult) and isinstance(count, gast.Constant) and \
                type(count.value) is int:
            return "list"
        return None

    def _copy_kind(self, value, seen):
        """`ys = xs.copy()` with xs bound only to new lists (or dicts): that kind."""
        if not (isinstance(value, gast.Call) and not value.args and
                isinstance(value.func, gast.Attribute) and value.func.attr == "copy" and
                isinstance(value.func.value, gast.Name)):
            return None
        source = value.func.value.id
        if source in seen or not self.candidate(source):
            return None
        kinds = {self.made_kind(self.plain_assignment(b), seen + (source,))
                 for b in self.bindings(source)}
        return kinds.pop() if len(kinds) == 1 else None

    def _private_read(self, name, own_methods, changing):
        parent = self.up(name)
        if isinstance(parent, gast.Subscript) and parent.value is name:
            return not isinstance(parent.ctx, gast.Del)
        if isinstance(parent, gast.Attribute) and parent.value is name:
            call = self.up(parent)
            if not (isinstance(call, gast.Call) and call.func is parent):
                return False
            if parent.attr in own_methods:
                return True
            return parent.attr in ("keys", "values", "items") and \
                self._consumed(call, name.id, changing)
        if isinstance(parent, (gast.If, gast.While, gast.IfExp)) and parent.test is name:
            return True
        if isinstance(parent, gast.UnaryOp) and isinstance(parent.op, gast.Not):
            return True
        if isinstance(parent, gast.Compare) and name in parent.comparators:
            k = parent.comparators.index(name)
            return isinstance(parent.ops[k], (gast.In, gast.NotIn))
        if isinstance(parent, gast.Return) or isinstance(parent, gast.Tuple) and \
                isinstance(self.up(parent), gast.Return):
            return True
        return self._consumed(name, name.id, changing) or self._shuffled(name)

    def _shuffled(self, name):
        """`rng.shuffle(name)` as a statement (container_methods.py rebinds it)."""
        call = self.up(name)
        return isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and \
            call.func.attr == "shuffle" and call.args == [name] and not call.keywords and \
            isinstance(self.up(call), gast.Expr)

    def _consumed(self, node, name, changing):
        """`node` is read whole where it stands: an argument of a consuming builtin or
        NumPy, or the iterable of a loop (maybe through enumerate/zip/reversed) that
        does not change `name`."""
        parent = self.up(node)
        if isinstance(parent, gast.Call) and node in parent.args:
            if self.is_builtin_call(parent, *CONSUMING_BUILTINS) or self.is_numpy_call(parent):
                return True
            return self.is_builtin_call(parent, *LAZY_BUILTINS) and \
                self._consumed(parent, name, changing)
        if isinstance(parent, (gast.For, gast.comprehension)) and parent.iter is node:
            loop = parent if isinstance(parent, gast.For) else self.up(parent)
            return not self._changes(loop, name, changing)
        return False

    def _changes(self, loop, name, changing):
        """Whether `loop` rebinds `name` or calls one of its changing methods."""
        for n in walk(loop):
            if isinstance(n, gast.Name) and n.id == name and not isinstance(n.ctx, gast.Load):
                return True
            if isinstance(n, gast.Attribute) and n.attr in changing and \
                    isinstance(n.value, gast.Name) and n.value.id == name:
                return True
            if isinstance(n, gast.Name) and n.id == name and self._shuffled(n):
                return True
        return False


# builtins that read a list at once and keep no reference to it
CONSUMING_BUILTINS = (len, sum, max, min, sorted, list, tuple, any, all)
# builtins that read it lazily, as the iterable of a loop
LAZY_BUILTINS = (enumerate, zip, reversed)
