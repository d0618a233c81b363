"""Stage 5, analyze (continued): a differentiated value handed to a call whose result
is not used must not be kept where the compiler cannot follow it.

    keep(x * 2)          # def keep(v): STORE.append(v)   ->  TransformError here
    acc.add(v * v)       # a method of an object: it may store v on it -> TransformError
    report(loss)         # def report(v): print(v)       ->  fine

The result of such a call is dead, so no derivative flows through it; if the callee
stored the value (in a global, an attribute, a container it was given) and the function
read it back later, that read would be a constant: a silent zero gradient. A helper whose
source shows no such store (one level deep; any call of another Python function counts
as one; a method of an object, or any callee other than a module's function or a
builtin, counts as one too) is fine, as is a function with a rule.
"""
import ast
import copy
import builtins
import inspect
import textwrap

import gast

from ..alias.tables import INPLACE_METHODS
from ..ir.nodes import name_ids
from ..ir.primitives import Prim
from ..lowering.sequence_kinds import sequence_names

# methods of a list or tuple that read it and keep nothing (their result: an int)
_LIST_READS = {"index", "count"}
# methods that change the container they are called on
_STORING_METHODS = {"append", "extend", "insert", "update", "setdefault", "add", "put",
                    "appendleft", "extendleft", "__setitem__", "fill", "itemset"}


def check_kept_values(ctx, statement, prim, varied):
    """Refuse `statement` (a call of `prim` whose result is unused) when a varied value
    reaches a callee that may keep it."""
    if prim.kind != "call" or not varied or getattr(ctx.fn, "thunkgrad_flat", False) or \
            getattr(ctx.fn, "thunkgrad_forward_code", False):
        return      # (reverse mode's flat gradient, forward mode's code differentiated by
        # hvp: their primal statements are the user's, checked as the user's code, where
        # a result the tangents alone need here was used: `gates.append(z.mean())`)
    method = getattr(prim, "method", None)
    if method in INPLACE_METHODS and not getattr(prim, "objects_own", False):
        return                 # x.fill(v), x.sort(): writes the alias check follows
    if method in _LIST_READS and isinstance(prim.receiver, gast.Name) and \
            prim.receiver.id in sequence_names(ctx.src):
        return                 # xs.index(v) of a list display: reads it, keeps nothing
    if getattr(prim, "decided_when_run", None):
        return _refused_when_run(ctx, statement, prim)
    if getattr(prim, "objects_own", False):
        where = f"the method call {prim.label}() (an object's own `fill`, not ndarray.fill: " \
            "the source shows the receiver is made by a class written in Python)"
    elif method == "__call__":       # `op(y, i, v)`, op a function value (np.add.at)
        where = f"{_called(prim)}, a call of a function value"
    elif method:
        where = f"the method call {prim.label}()"
    elif _may_store(prim.fn):
        where = f"{prim.label}(), which may store it (in a global, an attribute or a container)"
    else:
        return
    what = "a value being differentiated" if varied[0] in ctx.names.temporaries else \
        f"`{varied[0]}`, which is being differentiated,"
    raise ctx.src.error(
        f"{what} is passed to {where}, and the "
        "call's result is not used: a value it keeps and the function reads back would "
        "carry no derivative", prim.site or statement,
        hint="return what the call computes and use the result (`total = add(total, v)`), "
             "or keep the state in local variables" + (
                 "; call a function writing into an array (np.add.at) by its own name, "
                 "or compute the new array and assign it" if method == "__call__" else
                 "; a method setting attributes of `self` is followed on an object the "
                 "function makes itself when no other name, container, helper or closure "
                 "sees it (`r = RNN(W, U)`, then `r.step(x)`)" if method else ""))


def _called(prim):
    """`op(...)` for a call of the function value named op."""
    name = getattr(prim.receiver, "id", None)
    return f"`{name}(...)`" if name else "a function value's call"


def _refused_when_run(ctx, statement, prim):
    """`a.fill(v)`'s branch for an object that is not an array, where the source does not
    show what `a` is (normalize_tricks.py), or `r.prod(1)`'s of a dispatched method
    (normalize_calls.py dispatch_method; a list item's in reverse over forward's tangent
    code): that object's own method given a value being differentiated is refused when
    the branch runs (an array takes the other branch)."""
    statement.value = ctx.names.call("own_fill_refused", copy.deepcopy(prim.receiver),
                                     gast.Constant(value=prim.decided_when_run, kind=None),
                                     gast.Constant(value=prim.method, kind=None))
    statement.prim = Prim("nondiff", "check")


def varied_arguments(prim, act):
    """The varied names among a call's arguments."""
    atoms = [a for _, a in prim.diff_inputs()] + [a for _, a in prim.operands]
    return sorted({n for atom in atoms for n in name_ids(atom) if n in act.varied})


def _may_store(fn):
    """Whether fn's own source writes somewhere its caller could read afterwards."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return True
    local = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    local |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and
              isinstance(n.ctx, ast.Store)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return True
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, ast.Call) and _stores_or_calls(node, fn, local):
            return True
    return False


def _stores_or_calls(call, fn, local):
    """Whether a call in fn may keep a value: a storing method, a method of an object
    (it may store on it), another Python function, or a builtin that writes by name.
    Only calls into modules (`np.sum`, `math.exp`) and plain builtins are known not to."""
    func = call.func
    if isinstance(func, ast.Attribute):
        if func.attr in _STORING_METHODS:
            return True
        base = func.value
        module = fn.__globals__.get(base.id) if isinstance(base, ast.Name) and \
            base.id not in local else None
        return not inspect.ismodule(module)      # a method of an object: it may store
    if isinstance(func, ast.Name) and func.id not in local:
        if func.id in _WRITING_BUILTINS:
            return True
        target = fn.__globals__.get(func.id, getattr(builtins, func.id, None))
        return target is None or inspect.isfunction(target)   # another helper may store
    return True                                  # a computed callee: anything


_WRITING_BUILTINS = {"setattr", "delattr", "exec", "eval", "globals", "vars", "locals"}
