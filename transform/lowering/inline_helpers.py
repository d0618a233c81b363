"""Stage 3, normalize: a small module-level helper called in a loop body is inlined.

    def rhs(y, W):                       for _ in range(steps):
        return np.tanh(W @ y)                rhs_y = y + t2      # an expression: bound
                                  ->         k2 = np.tanh(W @ rhs_y)     # W: read as is
    for _ in range(steps):
        k2 = rhs(y + t2, W)

Called as its own rule, the helper's outputs have shapes the caller cannot see (shape
stand-ins on the tape, `unbroadcast` calls), and each call pays a rule's forward and
pullback frames; inlined, the loop pass treats its body as the caller's (issue 19: RK4
with an `rhs` helper). Only what inlining cannot change the meaning of is inlined: a
plain function of the caller's own module (same globals, no closure, no registered rule,
no wrapper) whose body is at most a docstring, assignments to names and one final
`return` of one value, over names, constants, arithmetic, calls of global functions,
attributes, subscripts and list or tuple displays, that writes into nothing
(alias.tables.may_write: the caller's write checks ran before inlining), called with
exactly its positional parameters; none of its free names may be a local or closure
variable of the caller (it would read that instead) or a name the compiler has already
taken (a global an earlier inlining read is not taken: a helper called twice in a loop
body is inlined twice). A helper returning a tuple is inlined too: an LSTM `cell`
returning `(h, c)` called as its rule ran an outer product and a full-size weight
update per call, which the caller's loop pass batches once inlined. Anything else is
called as its rule, as before.
"""
import types

import gast

import runtime
from ..alias.tables import may_write
from ..errors import TransformError
from ..frontend.parse import _dotted, parse_function
from ..ir.nodes import load

MAX_STATEMENTS = 12
_NODES = (gast.Name, gast.Constant, gast.BinOp, gast.UnaryOp, gast.Call, gast.keyword,
          gast.Attribute, gast.Subscript, gast.Slice, gast.Tuple, gast.List, gast.Load, gast.Store,
          gast.operator, gast.unaryop, gast.Assign, gast.Return, gast.Expr)


def inlinable_call(fn, call, inlining, caller, names):
    """inlinable_helper for `fn(...)` called by a plain name not being inlined already."""
    if fn is None or not isinstance(call.func, gast.Name) or call.func.id in inlining:
        return None
    return inlinable_helper(fn, call, caller, names)


def passed_names(fdef, values, caller_locals):
    """{parameter: the caller's local passed to it} for the parameters a module-level
    helper never rebinds: its body reads that local itself (no alias on the tape), which
    nothing between the call and its return rebinds, the helper's names being renamed."""
    rebound = {n.id for s in fdef.body for n in gast.walk(s)
               if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    return {p: v.id for p, v in values.items() if isinstance(v, gast.Name) and
            p not in rebound and v.id in caller_locals}


def bound_arguments(fdef, params, e, src):
    """{parameter: the argument expression} of an inlined call (defaults where left out)."""
    defaults = dict(zip(params[len(params) - len(fdef.args.defaults):], fdef.args.defaults))
    values = dict(zip(params, e.args))
    values.update({kw.arg: kw.value for kw in e.keywords})
    missing = [p for p in params if p not in values and p not in defaults]
    if missing or len(e.args) > len(params):
        raise src.error(f"bad arguments for the nested function {fdef.name}()", e)
    return {p: values.get(p, defaults.get(p)) for p in params}


def helper_renames(fdef, stored, values, caller, names):
    """(name -> Name node, the passed_names) for an inlined module helper's names; the
    renamed ones become the caller's locals (never read as globals)."""
    passed = passed_names(fdef, values, caller.locals)
    renames = {n: load(passed.get(n) or names.reserve(f"{fdef.name}_{n}")) for n in stored}
    caller.locals.update(r.id for r in renames.values())
    return renames, passed


def inlinable_helper(fn, call, caller, names):
    """fn's def node, copied and located at `call`, if a call of fn may be inlined."""
    if not _plain_function(fn, caller.fn) or call.keywords or any(
            isinstance(n, (gast.Starred, gast.Lambda)) for a in call.args for n in gast.walk(a)):
        return None             # a lambda bound to a parameter would be a kept closure
    try:
        helper = parse_function(fn)
    except (OSError, TypeError, ValueError, TransformError):     # no source: a rule call
        return None
    if may_write(helper):       # its writes are checked where it is compiled on its own
        return None
    fdef = helper.node
    args = fdef.args
    if args.vararg or args.kwarg or args.kwonlyargs or getattr(args, "posonlyargs", None) \
            or len(args.args) != len(call.args) or not _simple_body(fdef):
        return None
    free = _free_names(fdef)
    caller_cells = set(caller.fn.__code__.co_freevars)
    inlined = getattr(names, "inlined_free", frozenset())    # globals an inlining read
    if free & (caller.locals | caller_cells) or any(
            n in names.used and n not in names.user_names and n not in inlined for n in free):
        return None
    names.used.update(free)                 # no name the compiler picks later shadows them
    names.inlined_free = inlined | free     # the same globals: a second inlining may read
    args.defaults = []                      # every parameter is passed
    for node in gast.walk(fdef):
        if hasattr(node, "lineno"):
            gast.copy_location(node, call)  # errors and line comments: the call's line
    return fdef


def _plain_function(fn, caller_fn):
    return type(fn) is types.FunctionType and fn is not caller_fn and \
        fn.__name__.isidentifier() and \
        fn.__closure__ is None and fn.__globals__ is caller_fn.__globals__ and \
        not hasattr(fn, "__wrapped__") and getattr(fn, "thunkgrad_policy", None) is None \
        and getattr(fn, "thunkgrad_constructor", None) is None and runtime.lookup(fn) is None


def _simple_body(fdef):
    body = fdef.body
    if body and isinstance(body[0], gast.Expr) and isinstance(body[0].value, gast.Constant):
        body = fdef.body = body[1:]                               # the docstring
    if not body or len(body) > MAX_STATEMENTS or not isinstance(body[-1], gast.Return) or \
            body[-1].value is None:
        return False
    if not all(isinstance(s, gast.Assign) and len(s.targets) == 1 and
               _names_only(s.targets[0]) for s in body[:-1]):
        return False
    local = _bound_names(fdef)
    for node in gast.walk(gast.Module(body=body, type_ignores=[])):
        if not isinstance(node, _NODES + (gast.Module,)):
            return False
        if isinstance(node, gast.Call):
            path = _dotted(node.func)
            if path is None or path[0] in local or any(k.arg is None for k in node.keywords):
                return False
    return True


def _names_only(target):
    if isinstance(target, gast.Name):
        return True
    return isinstance(target, gast.Tuple) and all(isinstance(t, gast.Name) for t in target.elts)


def _bound_names(fdef):
    names = {a.id for a in fdef.args.args}
    names.update(n.id for s in fdef.body for n in gast.walk(s)
                 if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store))
    return names


def _free_names(fdef):
    local = _bound_names(fdef)
    return {n.id for s in fdef.body for n in gast.walk(s)
            if isinstance(n, gast.Name) and n.id not in local}


__all__ = ["bound_arguments", "helper_renames", "inlinable_call", "inlinable_helper",
           "passed_names", "MAX_STATEMENTS"]
