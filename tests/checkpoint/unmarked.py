"""The unmarked twin of a checkpointed case, so each case is written once:

    def counted_ck(x, w, n, s):                      counted = unmarked(counted_ck)
        while checkpointed_while(k < n, snapshots=s):    def counted(x, w, n):
            ...                                              while k < n: ...

`checkpointed(xs, ...)` reads as `xs`, `checkpointed_while(c, ...)` as `c` (inner marked
loops too), the last parameter (the snapshot count) is dropped and the `_ck` suffix too.
The twin is compiled from that text (registered with linecache, as a notebook cell's is,
so thunkgrad reads its source) in the case module's namespace: the plain loop the
checkpointed gradient must equal, built without the compiler.
"""
import ast
import inspect
import linecache
import textwrap

MARKERS = ("checkpointed", "checkpointed_while")


class _Unmark(ast.NodeTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in MARKERS:
            return node.args[0]
        return node


def unmarked(fn):
    """fn's twin without markers or snapshot count (see the module text)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    fdef = tree.body[0]
    assert fdef.name.endswith("_ck"), fdef.name
    fdef.name = fdef.name[:-len("_ck")]
    fdef.args.args.pop()                       # the snapshot count
    source = ast.unparse(_Unmark().visit(tree)) + "\n"
    filename = f"<unmarked {fn.__module__}.{fdef.name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = fn.__globals__
    exec(compile(source, filename, "exec"), namespace)     # noqa: S102  (the case's text)
    return namespace[fdef.name]


def unmarked_twins(namespace):
    """unmarked(NAME_ck) for every function NAME_ck of a case module's namespace."""
    for name, fn in list(namespace.items()):
        if name.endswith("_ck") and inspect.isfunction(fn):
            unmarked(fn)
