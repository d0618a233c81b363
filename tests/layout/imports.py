"""The import graph of the product's packages, read from source (nothing is imported).

    graph = import_graph()        # {"transform.api": {"transform.pipeline", ...}, ...}

Every `import` and `from ... import` counts, at module level and inside functions alike:
a function-local import is the usual way a cycle hides (it only moves the failure from
import time to the first call), so it is an edge like any other. Imports of modules outside
the product's packages are left out.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("transform", "runtime")


def modules():
    """module name -> path, for every .py file of the product's packages."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def import_graph():
    """module -> the set of product modules it imports (module level and local alike)."""
    known = modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def _imports(name, path, known):
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(_known(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(name, is_package, node.level, node.module)
            targets = [f"{base}.{alias.name}" for alias in node.names]
            out.update(_known(t, known) if t in known else _known(base, known)
                       for t in targets)
    out.discard(None)
    out.discard(name)
    return out


def _absolute(name, is_package, level, module):
    if not level:
        return module
    parts = name.split(".")
    package = parts if is_package else parts[:-1]
    package = package[:len(package) - (level - 1)]
    return ".".join(package + ([module] if module else []))


def _known(name, known):
    """The longest prefix of a dotted name that is a product module, or None."""
    parts = name.split(".")
    while parts and ".".join(parts) not in known:
        parts.pop()
    return ".".join(parts) if parts else None


def cycles(graph):
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found
