"""A `with` body left by return, break or continue: `__exit__` runs before the jump.

    with ctx() as c:                  context = ctx()
        if done(c):                   c = context.__enter__()
            return x * 2       ->     if done(c):
        y = f(c)                          value = x * 2
                                          context.__exit__(None, None, None)
                                          return value
                                      y = f(c)
                                      context.__exit__(None, None, None)

As in Python, a returned value is computed before `__exit__` runs, and `__exit__` runs
once on every way out; nested `with` blocks exit innermost first (the inner block was
rewritten first, so its exit comes before the outer one's). A `break`/`continue` of a
loop inside the body belongs to that loop and leaves no `with`.

A context manager whose `__exit__` may return true (`contextlib.suppress`) would swallow
an exception the body raises and go on after the block; the generated code cannot catch
it, so such a context manager is refused (`suppressing_exit`).
"""
import ast
import copy
import inspect
import textwrap

import gast

from ..ir.nodes import assign as _assign, load as _load, located as _at


def exit_before_jumps(body, leave, new_name):
    """`body` (a statement list, rewritten in place) with copies of the statements
    `leave` run before each return (anywhere) and each break/continue (not of a loop
    inside it) that leaves it."""
    return _block(body, leave, new_name, in_loop=False)


def _block(stmts, leave, new_name, in_loop):
    out = []
    for s in stmts:
        if isinstance(s, gast.Return):
            out.extend(_before_return(s, leave, new_name))
            continue
        if isinstance(s, (gast.Break, gast.Continue)) and not in_loop:
            out.extend(_at(copy.deepcopy(stmt), s) for stmt in leave)
        elif not isinstance(s, (gast.FunctionDef, gast.ClassDef)):
            loop = in_loop or isinstance(s, (gast.For, gast.While))
            for field in ("body", "orelse", "finalbody"):
                block = getattr(s, field, None)
                if isinstance(block, list):
                    # a loop's else runs after the loop: its break is the outer loop's
                    inner = loop and not (field == "orelse" and not in_loop)
                    setattr(s, field, _block(block, leave, new_name, inner))
            for handler in getattr(s, "handlers", ()):
                handler.body = _block(handler.body, leave, new_name, in_loop)
        out.append(s)
    return out


def _before_return(ret, leave, new_name):
    exits = [_at(copy.deepcopy(stmt), ret) for stmt in leave]
    rebound = {n.id for stmt in leave for n in gast.walk(stmt)
               if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    if ret.value is None or isinstance(ret.value, gast.Constant) or \
            isinstance(ret.value, gast.Name) and ret.value.id not in rebound:
        return exits + [ret]                  # nothing to evaluate before the exits
    # (`return y` with `y = y * 3` in the finally block: Python returns y's value
    # from before the block, so it is taken first like any other expression)
    value = new_name("value")
    first = _at(_assign(value, ret.value), ret)
    ret.value = _load(value)
    return [first] + exits + [_at(ret, first)]


def refuse_suppressing(src, with_node):
    """TransformError at the first context manager of `with_node` that may suppress."""
    for item in with_node.items:
        if suppressing_exit(src, item.context_expr):
            raise src.error(
                "a `with` block whose context manager's `__exit__` may return true "
                "(suppressing an exception) is not supported: the generated code cannot "
                "catch what the body raises, so it would stop where the primal goes on",
                item.context_expr, hint="catch the exception outside the differentiated "
                "function, or test for the failing case with `if`")


def suppressing_exit(src, context_expr):
    """Whether the context manager `context_expr` makes (a call of a class, or an object
    the function reads from outside) has an `__exit__` that may return a true value."""
    if isinstance(context_expr, gast.Call):
        made = src.resolve(context_expr.func)
        kind = made if isinstance(made, type) else None
        if kind is None and inspect.isgeneratorfunction(getattr(made, "__wrapped__", None)):
            return _generator_suppresses(made.__wrapped__)      # @contextmanager
    else:
        obj = src.resolve(context_expr)
        kind = None if obj is None else type(obj)
    exit_ = getattr(kind, "__exit__", None) if kind is not None else None
    if exit_ is None:
        return False
    if getattr(kind, "__module__", "") == "contextlib" and kind.__name__ == "suppress":
        return True
    return _may_return_true(exit_)


def _may_return_true(fn):
    """Whether a Python-written `__exit__` has a `return` of something other than
    None/False (a C-written one, like np.errstate's, does not suppress)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return not _builtin_code(fn)
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value in (None, False)):
            return True
    return False


def _generator_suppresses(gen_fn):
    """A @contextmanager generator swallows what it catches around its `yield`."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(gen_fn)))
    except (OSError, TypeError, SyntaxError):
        return True
    return any(isinstance(n, ast.Try) and n.handlers for n in ast.walk(tree))


def _builtin_code(fn):
    return getattr(fn, "__code__", None) is None
