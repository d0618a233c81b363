"""Generator functions consumed where they are called run as functions returning a list.

    def steps(x):                      def steps(x):
        for k in range(3):        ->       items = []
            yield x * k                    for k in range(3):
                                               items.append(x * k)
                                           return items

A caller may use a generator function only where its items are all consumed at once:
as an argument of a call (`sum(steps(x))`, `list(...)`, `np.stack(...)`) or as the
iterable of a `for` loop that never leaves early (no `break` or `return` in its body),
directly or through `enumerate(...)`, or through `zip(...)` when it surely ends and
prints nothing (the items past zip's stop are then computed but change nothing).
Then the list has the same items, computed in the same order, as the lazy generator
would give; anywhere else (kept for later, a loop that may stop early on a generator
that might not end) the caller is refused at the call.
"""
import ast
import inspect
import textwrap

import gast

from .effects import function_may_print, may_print_nodes
from ..ir.nodes import assign as _assign, builtin_ref, call_method as _method, \
    load as _load, located as _at, walk


def as_list_function(src, new_name):
    """Rewrite `src.node`, a generator function, to build and return the list of the
    items it yields; no change for other functions."""
    fdef = src.node
    yields = [n for n in own_nodes(fdef.body) if isinstance(n, (gast.Yield, gast.YieldFrom))]
    if not yields:
        return
    items = new_name("items")
    fdef.body = [_at(_assign(items, gast.List(elts=[], ctx=gast.Load())), fdef.body[0])] + \
        _appending(src, fdef.body, items) + [_at(gast.Return(value=_load(items)), fdef)]


def _appending(src, stmts, items):
    out = []
    for s in stmts:
        if isinstance(s, gast.Expr) and isinstance(s.value, (gast.Yield, gast.YieldFrom)):
            method = "append" if isinstance(s.value, gast.Yield) else "extend"
            value = s.value.value or gast.Constant(value=None, kind=None)
            if method == "extend":           # read whole here: `yield from gen(x)` too
                value = _at(gast.Call(func=builtin_ref("list"), args=[value], keywords=[]),
                            value)
            out.append(_at(gast.Expr(value=_method(items, method, [value])), s))
            continue
        if isinstance(s, gast.Return):                # ends the generator: its items
            out.append(_at(gast.Return(value=_load(items)), s))
            continue
        if not isinstance(s, gast.FunctionDef):
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, _appending(src, getattr(s, field), items))
        for node in walk(s):
            if isinstance(node, (gast.Yield, gast.YieldFrom)) and not isinstance(s, gast.FunctionDef):
                raise src.error("a `yield` whose value is used (`v = yield x`) is not "
                                "supported", node, hint="yield as a statement of its own")
        out.append(s)
    return out


def check_generator_calls(src):
    """Refuse a call of a generator function whose items are not all consumed at once."""
    consumed = set()
    for node in walk(src.node):
        if isinstance(node, gast.Call) and _exhausts(src, node.func):
            consumed.update(id(a) for a in node.args)
        elif isinstance(node, (gast.For, gast.comprehension)) and runs_to_the_end(node):
            consumed.add(id(node.iter))
            consumed.update(id(a) for a in _read_to_the_end(src, node.iter))
            _refuse_interleaved_prints(src, node)
        elif isinstance(node, _COMPREHENSIONS):
            _refuse_interleaved_comprehension(src, node)
    for node in walk(src.node):
        if isinstance(node, gast.Call) and id(node) not in consumed and \
                inspect.isgeneratorfunction(src.resolve(node.func)):
            raise src.error(
                f"{getattr(node.func, 'id', 'this generator')}() is a generator kept for "
                "later, passed where it may be read in part (zip, enumerate), or walked by "
                "a loop that may stop early or writes into arrays: the generated code "
                "builds all its items at the call", node,
                hint="consume it where you call it (`sum(gen(x))`, `list(gen(x))`, or a "
                     "`for` loop without break, return or writes into arrays, also "
                     "through `enumerate(gen(x))`); for zip, make the list first: "
                     "`zip(list(gen(x)), ys)`")


def _read_to_the_end(src, iterable):
    """The argument of `enumerate(gen(x))` walked to the end: every item of it is read.
    zip stops at its shortest argument, so a longer generator would be read in part,
    and one that never ends would hang the list the generated code builds: a generator
    given to zip counts only when building all its items shows nothing Python would not
    (`_finite_and_quiet`)."""
    if not isinstance(iterable, gast.Call) or not iterable.args:
        return []
    fn = src.resolve(iterable.func)
    if fn is enumerate:
        return iterable.args[:1]
    if fn is zip:
        return [a for a in iterable.args if isinstance(a, gast.Call) and
                _finite_and_quiet(src.resolve(a.func))]
    return []


def _finite_and_quiet(fn):
    """Whether the generator function fn surely ends and its extra items, computed but
    never read when zip stops first, change nothing: no `while` loop, `yield from`,
    `raise` or `assert` in its source, a `for` loop only over `range(...)` or a value
    (not a call that may make an endless iterator), and nothing printed or logged."""
    if not inspect.isgeneratorfunction(fn):
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.While, ast.YieldFrom, ast.Raise, ast.Assert)):
            return False
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Call) \
                and not (isinstance(node.iter.func, ast.Name) and node.iter.func.id == "range"):
            return False
    return not function_may_print(fn)


def _refuse_interleaved_prints(src, loop):
    """A generator and the body of the loop walking it that both print: the list the
    generated code builds would print all the generator's lines first (effects.py)."""
    call = loop.iter
    if not isinstance(loop, gast.For) or not isinstance(call, gast.Call):
        return
    fn = src.resolve(call.func)
    if not inspect.isgeneratorfunction(fn) or not function_may_print(fn):
        return
    if may_print_nodes(own_nodes(loop.body), src.resolve):
        raise src.error(
            f"{getattr(call.func, 'id', 'this generator')}() and the body of the loop "
            "walking it both print (or log, or warn): the generated code builds the "
            "generator's items first, so its lines would all come before the loop's",
            call, hint="collect the items first (`items = list(gen(x))`) and loop over "
                       "them, or print from one side only")


_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.GeneratorExp, gast.DictComp)


def _refuse_interleaved_comprehension(src, comp):
    """`sum(report(v) for v in gen(x))` where gen and the element both print: Python
    interleaves their lines, the generated code would print the generator's first."""
    parts = [comp.key, comp.value] if isinstance(comp, gast.DictComp) else [comp.elt]
    parts += [cond for g in comp.generators for cond in g.ifs]
    for g in comp.generators:
        call = g.iter
        fn = src.resolve(call.func) if isinstance(call, gast.Call) else None
        if inspect.isgeneratorfunction(fn) and function_may_print(fn) and \
                may_print_nodes(own_nodes(parts), src.resolve):
            raise src.error(
                f"{getattr(call.func, 'id', 'this generator')}() and the comprehension "
                "reading it both print (or log, or warn): the generated code builds the "
                "generator's items first, so its lines would all come before the "
                "comprehension's", call,
                hint="write it as a `for` loop over the generator (which is written "
                     "into the loop, keeping the order), or print from one side only")


# calls that read every item of an iterable before they return
_EXHAUSTING = (sum, list, tuple, sorted, max, min, dict, set)


def _exhausts(src, func):
    fn = src.resolve(func)
    return fn in _EXHAUSTING or (getattr(fn, "__module__", None) or "").startswith("numpy")


def runs_to_the_end(loop):
    """A comprehension, or a loop without break/return whose body writes into no array
    or container (the generator may read one: Python would see the write, the list the
    generated code built would not)."""
    if isinstance(loop, gast.comprehension):
        return True
    for n in own_nodes(loop.body):
        if isinstance(n, (gast.Break, gast.Return)):
            return False
        if isinstance(n, gast.Subscript) and isinstance(n.ctx, gast.Store):
            return False
        if isinstance(n, gast.Call) and isinstance(n.func, gast.Attribute) and \
                n.func.attr in WRITING_METHODS:
            return False
    return True


# methods that change their receiver in place (arrays, lists, dicts); desugar.py's
# argument copies read this set too
WRITING_METHODS = frozenset({"sort", "fill", "put", "resize", "partition", "itemset",
                             "setfield", "append", "extend", "insert", "remove", "clear",
                             "reverse", "update", "setdefault", "pop", "popitem"})


# ndarray methods that write in place and no list or dict has: on an argument that
# is not an array, list or number when grad is called, the object's own method
ARRAY_ONLY_WRITERS = frozenset({"fill", "put", "resize", "partition", "itemset", "setfield"})


def objects_own_method(src, param, name):
    """`obj.fill(v)` on an argument grad was given as an object (not an array, list
    or number): the object's own method, not a write into the argument."""
    return name in ARRAY_ONLY_WRITERS and getattr(src, "has_signature", False) and \
        param in src.params and param not in src.param_kinds


def own_nodes(body, loops_own_jumps=False):
    """Nodes of `body` outside nested functions and lambdas (and outside nested loops'
    bodies when loops_own_jumps: a break there belongs to that loop)."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            continue
        if loops_own_jumps and isinstance(node, (gast.For, gast.While)):
            todo.extend(node.orelse)
            continue
        todo.extend(gast.iter_child_nodes(node))
