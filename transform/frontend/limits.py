"""Programs larger than the compiler's recursive walks take at Python's default limit.

    return x*0 + x*1 + ... + x*1999    # the parser and every pass recurse 2,000 deep

A compilation that runs out of recursion is retried once with the recursion limit
raised (the limit is global, so it is raised while any such compilation runs and
restored after the last one); one that still fails, or runs out of memory, becomes a
TransformError at the construct that made it deep (`deepest_construct`).
"""
import ast
import contextlib
import sys
import textwrap
import threading

from ..errors import TransformError

DEEP_RECURSION_LIMIT = 100_000

_LOCK = threading.Lock()
_raised = {"count": 0, "saved": None}


@contextlib.contextmanager
def deeper_recursion(limit=None):
    """Run with sys.getrecursionlimit() at least `limit`, restored when the last
    thread inside such a block leaves it."""
    with _LOCK:
        if _raised["count"] == 0:
            _raised["saved"] = sys.getrecursionlimit()
        _raised["count"] += 1
        sys.setrecursionlimit(max(limit or DEEP_RECURSION_LIMIT, sys.getrecursionlimit()))
    try:
        yield
    finally:
        with _LOCK:
            _raised["count"] -= 1
            if _raised["count"] == 0:
                sys.setrecursionlimit(_raised["saved"])


def within_limits(fn, build):
    """build(), retried with a raised recursion limit if it recursed too deep; a
    compilation that still cannot finish is a TransformError naming the construct."""
    try:
        return build()
    except RecursionError:
        pass                          # (outside the handler: the stack is unwound)
    except MemoryError as exc:
        raise too_large(fn, exc) from None
    try:
        with deeper_recursion():
            return build()
    except (RecursionError, MemoryError) as exc:
        raise too_large(fn, exc) from None


def too_large(fn, exc):
    """The TransformError for fn being beyond the compiler's limits."""
    code = getattr(fn, "__code__", None)
    filename = getattr(code, "co_filename", None)
    found = _locate(fn)
    what = {RecursionError: "nested too deeply", MemoryError: "too large"}.get(
        type(exc), "too large")
    if found is None:
        return TransformError(f"{getattr(fn, '__qualname__', fn)} is {what} for the "
                              "compiler", filename=filename,
                              line=getattr(code, "co_firstlineno", None),
                              hint="split it into smaller functions")
    node, construct, first_line, lines, col_offset = found
    k = node.lineno - 1
    return TransformError(
        f"{construct} is {what} for the compiler ({type(exc).__name__})",
        filename=filename, line=first_line + k, col=node.col_offset + col_offset,
        source_line=lines[k].rstrip("\n") if 0 <= k < len(lines) else None,
        hint="split it: partial results in named variables (s = a + b; s = s + c), or an "
             "elif chain into a loop over a table or into helper functions")


def _locate(fn):
    """(the deepest construct's node, its description, first line, lines, indent)."""
    from .source_check import source_of
    try:
        _, lines, first_line = source_of(fn)
        text = "".join(lines)
        dedented = textwrap.dedent(text)
        tree = ast.parse(dedented)
    except Exception:                    # noqa: BLE001 - any failure: no location
        return None
    col_offset = _indent(text) - _indent(dedented)
    node, chain = deepest_construct(tree)
    if node is None:
        return None
    return node, _describe(node, chain), first_line, lines, col_offset


def deepest_construct(tree):
    """(the outermost node of the longest chain of same-kind nesting, its length): a
    sum `a + b + ... + z`, an if/elif chain, nested calls or subscripts. Iterative."""
    best, best_len = None, 0
    stack = [(tree, None, 0)]            # (node, the chain's outermost node, length)
    while stack:
        node, top, length = stack.pop()
        for child in ast.iter_child_nodes(node):
            if _same_kind(node, child):
                stack.append((child, top or node, length + 1))
            else:
                stack.append((child, None, 0))
        if top is not None and length > best_len:
            best, best_len = top, length
    return best, best_len + 1


def _same_kind(parent, child):
    if isinstance(parent, ast.If):
        return isinstance(child, ast.If) and parent.orelse == [child]
    if isinstance(parent, (ast.BinOp, ast.BoolOp)):
        return type(child) is type(parent) and type(child.op) is type(parent.op)
    return type(parent) is type(child) and not isinstance(parent, (ast.Module, ast.stmt))


def _describe(node, chain):
    if isinstance(node, ast.BinOp):
        op = {ast.Add: "sum", ast.Mult: "product", ast.Sub: "difference"}.get(
            type(node.op), f"chain of {type(node.op).__name__} operations")
        return f"this {op} of {chain + 1:,} terms"
    if isinstance(node, ast.If):
        return f"this if/elif chain of {chain:,} branches"
    if isinstance(node, ast.BoolOp):
        return f"this {'and' if isinstance(node.op, ast.And) else 'or'} chain"
    return f"this {type(node).__name__} nested {chain:,} deep"


def _indent(text):
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return len(first) - len(first.lstrip())
