"""Stage 2, check: reject unsupported syntax before any transformation.

Every construct the compiler does not handle gets a TransformError naming the
file, line and column, with a sentence on what to write instead.
"""
import gast

# node type -> (what it is, what to do instead)
UNSUPPORTED = {
    gast.Try: ("`try` statements", "move error handling outside the differentiated function"),
    gast.With: ("`with` statements", "enter the context outside the differentiated function"),
    gast.AsyncWith: ("`async with`", "differentiate synchronous code only"),
    gast.AsyncFor: ("`async for`", "differentiate synchronous code only"),
    gast.AsyncFunctionDef: ("`async def`", "differentiate synchronous code only"),
    gast.Await: ("`await`", "differentiate synchronous code only"),
    gast.Yield: ("`yield` (generators)", "build and return a list instead"),
    gast.YieldFrom: ("`yield from`", "build and return a list instead"),
    gast.Global: ("`global` declarations", "pass the value in as an argument and return "
                  "the new value"),
    gast.Nonlocal: ("`nonlocal` declarations", "pass the value in as an argument and return "
                    "the new value"),
    gast.Delete: ("`del` statements", "let the name go out of scope, or rebind it"),
    gast.ClassDef: ("class definitions inside the function", "define the class at module level"),
    gast.Import: ("`import` inside the function", "import at module level"),
    gast.ImportFrom: ("`import` inside the function", "import at module level"),
    gast.Lambda: ("`lambda` expressions", "define a function with def at module level and "
                  "call it"),
    gast.NamedExpr: ("assignment expressions (`:=`)", "assign on a separate line"),
    gast.SetComp: ("set comprehensions", "use a list comprehension"),
    gast.DictComp: ("dict comprehensions", "build the dict with a for loop"),
    gast.Set: ("set literals", "use a list or tuple"),
    gast.AnnAssign: ("annotated assignments", "drop the annotation"),
}
if hasattr(gast, "Match"):
    UNSUPPORTED[gast.Match] = ("`match` statements", "use if/elif/else")


def check_function(src):
    """Raise TransformError for the first unsupported construct in `src`."""
    fdef = src.node
    args = fdef.args
    if args.vararg or args.kwarg:
        raise src.error("`*args`/`**kwargs` parameters are not supported in a differentiated "
                        "function", fdef, hint="name each parameter")
    for stmt in fdef.body:
        for node in gast.walk(stmt):
            _check_node(src, node)
    check_writes(src)


def _check_node(src, node):
    kind = type(node)
    if kind in UNSUPPORTED:
        what, hint = UNSUPPORTED[kind]
        raise src.error(f"{what} are not supported", node, hint=hint)
    if isinstance(node, gast.FunctionDef) and (node.decorator_list or node.args.vararg
                                                or node.args.kwarg or node.args.kwonlyargs):
        raise src.error("nested functions with decorators, *args, **kwargs or keyword-only "
                        "parameters are not supported", node,
                        hint="define the helper at module level")
    if isinstance(node, (gast.ListComp, gast.GeneratorExp)) and len(node.generators) != 1:
        raise src.error("comprehensions with several `for` clauses are not supported", node,
                        hint="write nested for loops")
    if isinstance(node, (gast.For, gast.While)) and node.orelse:
        raise src.error("`else` on a loop is not supported", node,
                        hint="use a flag variable set before `break`")
    if isinstance(node, gast.AugAssign) and not isinstance(node.target, (gast.Name,
                                                                          gast.Subscript)):
        raise src.error("augmented assignment to this target is not supported", node,
                        hint="assign to a local name")
    if isinstance(node, gast.Assign):
        for target in node.targets:
            _check_target(src, target)
    if isinstance(node, gast.For):
        _check_target(src, node.target)


def _check_target(src, target):
    if isinstance(target, gast.Name):
        return
    if isinstance(target, (gast.Tuple, gast.List)):
        for elt in target.elts:
            _check_target(src, elt)
        return
    if isinstance(target, gast.Subscript):
        return
    if isinstance(target, gast.Starred):
        raise src.error("starred assignment targets are not supported", target,
                        hint="index the sequence explicitly")
    if isinstance(target, gast.Attribute):
        raise src.error("assigning to an attribute is not supported", target,
                        hint="keep the value in a local variable and return it")
    raise src.error("this assignment target is not supported", target,
                    hint="assign to a local name")


_VIEW_METHODS = {"reshape", "ravel", "transpose", "T", "swapaxes", "squeeze", "view"}


class _WriteChecker:
    """Writes into containers that may share memory with another name are refused.

    The tape restores values by name, so a write through a second name for the
    same array (`b = out; b[0] = v`), into an argument, into a loop element or
    into an object's attribute would give a silently wrong gradient.
    """

    def __init__(self, src):
        self.src = src
        self.shared = {p: "it is an argument" for p in src.params}

    def block(self, stmts):
        for s in stmts:
            self.statement(s)

    def statement(self, s):
        if isinstance(s, gast.AugAssign) and isinstance(s.target, gast.Name) \
                and s.target.id in self.shared:
            self.src.shared_augassign.add(id(s))      # checked at run time: arrays only
        if isinstance(s, (gast.Assign, gast.AugAssign)):
            targets = s.targets if isinstance(s, gast.Assign) else [s.target]
            for t in targets:
                if isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name):
                    self.check_write(t.value.id, t)
            if isinstance(s, gast.Assign):
                for t in targets:
                    self.bind(t, s.value)
        elif isinstance(s, gast.Expr) and isinstance(s.value, gast.Call):
            func = s.value.func
            if isinstance(func, gast.Attribute) and func.attr in ("append", "extend", "fill") \
                    and isinstance(func.value, gast.Name):
                self.check_write(func.value.id, s)
        elif isinstance(s, gast.For):
            for n in gast.walk(s.target):
                if isinstance(n, gast.Name):
                    self.shared[n.id] = "it is an element of the sequence being iterated"
            self.block(s.body)
        elif isinstance(s, (gast.If, gast.While)):
            self.block(s.body)
            self.block(s.orelse)

    def bind(self, target, value):
        if not isinstance(target, gast.Name):
            return
        name = target.id
        if isinstance(value, gast.Name) and value.id not in ("None",):
            why = f"it is another name for `{value.id}`"
            self.shared[name] = why
            self.shared.setdefault(value.id, f"`{name}` is another name for it")
        elif isinstance(value, gast.Attribute) and value.attr not in _VIEW_METHODS:
            self.shared[name] = "it is an attribute of an object"
        elif isinstance(value, gast.Subscript):
            base = value.value.id if isinstance(value.value, gast.Name) else "a container"
            self.shared[name] = f"it may be a view into `{base}` (or an object it holds)"
        else:
            self.shared.pop(name, None)

    def check_write(self, name, node):
        if self.shared.get(name) == "it is an argument":
            raise self.src.error(f"writing into the argument `{name}` is not supported: it "
                                 "would change the caller's data", node,
                                 hint=f"copy it first: `{name} = {name}.copy()`")
        if name in self.shared:
            raise self.src.error(f"writing into `{name}` is not supported here: "
                                 f"{self.shared[name]}, and the gradient cannot follow writes "
                                 "through shared data", node,
                                 hint=f"copy first (`{name} = {name}.copy()` or "
                                      f"`list({name})`), so each container has one name")


def check_writes(src):
    """Raise TransformError for a write the tape could not undo correctly."""
    src.shared_augassign = set()
    _WriteChecker(src).block(src.node.body)
