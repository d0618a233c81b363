"""`try` statements: handlers run as written, in a function no derivative flows through.

    for t in texts:                          for t in texts:
        try:                                     v, bound, completed, jump = try_block(t)
            v = float(t)                         if bound:
        except ValueError:             ->            v = value
            continue                             if jump == 2:
        else:                                        print("next")
            total = total + v * x                    continue
        finally:                                 if completed:
            print("next")                            total = total + v * x
                                                 print("next")

The body and its handlers become one call (block_function.py): Python's own
try/except runs, so whatever the body raises midway, what ran is what the primal ran.
The call returns the names the statement binds that the function reads later, each
rebound only if the statement bound it (a name it may skip keeps its old value, as in
Python), whether the body completed, and which `break`/`continue` left it. A value
being differentiated that the statement reads is refused at the `try` (the reasons
check): the gradient cannot follow a value that may or may not have been computed. The
`else` block runs after the call when the body completed, and the `finally` block
after both and before each jump, as ordinary differentiated code (exits.py does the
same for `with`). `try`/`finally` without handlers keeps its body in place.

Refused at the user's line: return/yield/global in the body or a handler, jumps out of a
`finally` block, writes into items or attributes of values from outside, a name read
inside but bound only after the statement, a try statement in a nested def. When an
exception leaves the function, the `finally` block runs once, as Python runs it
(finally_blocks.py), unless the statement has handlers and the block reads a name the
body or a handler binds (the body runs in its own function: those values are not
known when the exception leaves it).
"""
import gast

from ..ir.nodes import assign as _assign, load as _load, located as _at, store as _store
from .block_function import BREAK, CONTINUE, block_function, packed
from .exits import exit_before_jumps
from .finally_blocks import finally_on_error, reads_bound_inside
from .generators import WRITING_METHODS, own_nodes
from .try_scope import TryScope, definitely_bound


def try_statement(src, fdef, s, new_name):
    """The statements replacing the Try `s` of `fdef` (to be desugared further)."""
    _refuse_jumps(src, s.finalbody, loops=True)
    if not s.handlers:                                  # try/finally
        opened, closed = finally_on_error(src, s, new_name)
        leave = [closed] + s.finalbody
        return [opened] + exit_before_jumps(s.body, leave, new_name) + leave
    for block in [s.body] + [h.body for h in s.handlers]:
        _refuse_jumps(src, block, loops=False)
    protected = _at(gast.Try(body=s.body, handlers=s.handlers, orelse=[], finalbody=[]), s)
    scope = TryScope(src, fdef, s, protected)
    inputs, outputs = _interface(src, scope, protected)
    _refuse_writes(src, protected, inputs)
    flag, pack, name, jump = (new_name(n) for n in ("completed", "pack", "try_block", "jump"))
    kinds = _jumps_as_returns(protected, pack)
    always = _always_bound(protected, inputs, outputs, kinds)
    protected.orelse = [_at(_assign(flag, gast.Constant(value=True, kind=None)), s)]
    conditional = [n for n in outputs if n not in always]
    fn = block_function(src, protected, inputs, (outputs, conditional), (flag, pack, name))
    opened = []
    if s.finalbody and not reads_bound_inside(s.finalbody, protected):
        opened, closed = finally_on_error(src, s, new_name)
        opened, s.finalbody = [opened], [closed] + s.finalbody
    return opened + _call(s, fn, name, inputs, outputs, always, (flag, jump), new_name) + \
        _leave(s, jump, kinds, new_name) + _after(s, flag, new_name)


def _interface(src, scope, protected):
    """(inputs, outputs): the names the call takes and returns, sorted."""
    written, loaded = scope.written(protected), scope.loaded(protected)
    available = scope.available()
    for n in sorted(loaded):
        if n not in available and n in scope.bound_outside and n not in written:
            raise src.error(f"`{n}` is read inside this try statement but assigned only "
                            "after it", scope.node,
                            hint=f"assign `{n}` before the try statement")
    outputs = sorted(n for n in written if n in scope.loaded_outside or
                     n in loaded and n in available)
    return sorted(loaded & available), outputs


def _always_bound(protected, inputs, outputs, jumps):
    """Outputs bound whenever the call returns: those it was given, and (without jumps)
    those every normal way through binds; the others are rebound only if bound."""
    always = {n for n in outputs if n in inputs}
    if not jumps:
        paths = [definitely_bound(b) for b in [protected.body] +
                 [h.body for h in protected.handlers]]
        paths = [p for p in paths if p is not None]       # (None: ends in a raise)
        always |= set(outputs) if not paths else set.intersection(*paths) & set(outputs)
    return always


def _call(s, fn, name, inputs, outputs, always, names, new_name):
    """`o1, value, bound, completed, jump = try_block(...)`, then `if bound: o2 = value`."""
    func = _load(name)
    func.runtime_helper = fn
    call = gast.Call(func=func, args=[_load(n) for n in inputs], keywords=[])
    values = {n: n if n in always else new_name("value") for n in outputs}
    bound = {n: new_name("bound") for n in outputs if n not in always}
    results = [values[n] for n in outputs] + list(bound.values()) + list(names)
    target = gast.Tuple(elts=[_store(n) for n in results], ctx=gast.Store())
    out = [_at(gast.Assign(targets=[target], value=call, type_comment=None), s)]
    for n, flag in bound.items():
        out.append(_at(gast.If(test=_load(flag), body=[_at(_assign(n, _load(values[n])), s)],
                               orelse=[]), s))
    return out


def _leave(s, jump, kinds, new_name):
    """`if jump == 1: <finally>; break` (and 2, continue) for the jumps the block made."""
    out = []
    for kind in sorted(kinds):
        test = gast.Compare(left=_load(jump), ops=[gast.Eq()],
                            comparators=[gast.Constant(value=kind, kind=None)])
        leave = gast.Break() if kind == BREAK else gast.Continue()
        out.append(_at(gast.If(test=test, body=[_at(leave, s)], orelse=[]), s))
    return exit_before_jumps(out, s.finalbody, new_name) if s.finalbody else out


def _after(s, flag, new_name):
    """`if completed: <else>` (the finally block before its jumps), then the finally."""
    out = []
    if s.orelse:
        orelse = exit_before_jumps(s.orelse, s.finalbody, new_name) if s.finalbody \
            else s.orelse
        out.append(_at(gast.If(test=_load(flag), body=orelse, orelse=[]), s))
    return out + s.finalbody


def _refuse_jumps(src, block, loops):
    """return/yield/global (and, when `loops`, break/continue) leaving `block`."""
    for node in own_nodes(block):
        if isinstance(node, (gast.Return, gast.Yield, gast.YieldFrom, gast.Global,
                             gast.Nonlocal)):
            what = type(node).__name__.lower().replace("yieldfrom", "yield from")
            raise src.error(f"`{what}` inside a try statement's body, handler or finally "
                            "block is not supported", node, hint=_JUMP_HINT)
    if not loops:
        return
    for node in own_nodes(block, loops_own_jumps=True):
        if isinstance(node, (gast.Break, gast.Continue)):
            raise src.error("`break`/`continue` in a finally block is not supported", node,
                            hint=_JUMP_HINT)


_JUMP_HINT = "set a flag inside the try statement and return, break or continue after it"


def _jumps_as_returns(node, pack):
    """Each break/continue leaving the try becomes `return pack(locals(), False, kind)`;
    the kinds made."""
    kinds = set()
    for field in ("body", "orelse", "handlers", "finalbody"):
        block = getattr(node, field, None)
        if not isinstance(block, list) or isinstance(node, (gast.For, gast.While)) and \
                field == "body":
            continue                       # a loop's own jumps stay its own
        for k, s in enumerate(block):
            if isinstance(s, (gast.Break, gast.Continue)):
                kind = BREAK if isinstance(s, gast.Break) else CONTINUE
                kinds.add(kind)
                block[k] = _at(gast.Return(value=packed(
                    pack, gast.Constant(value=False, kind=None), kind)), s)
            elif not isinstance(s, (gast.FunctionDef, gast.ClassDef)):
                kinds |= _jumps_as_returns(s, pack)
    return kinds


def _refuse_writes(src, protected, inputs):
    """Writes into items or attributes of a value the statement is given."""
    for node in own_nodes([protected]):
        base = None
        if isinstance(node, (gast.Subscript, gast.Attribute)) and \
                isinstance(node.ctx, (gast.Store, gast.Del)):
            base = _root(node)
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                node.func.attr in WRITING_METHODS:
            base = _root(node.func.value)
        if base in inputs:
            raise src.error(f"writing into `{base}` inside a try statement is not "
                            "supported: the gradient cannot follow writes that may or may "
                            "not have happened", node,
                            hint=f"write into a copy (`{base}_new = {base}.copy()`) inside "
                                 "the try statement")


def _root(node):
    while isinstance(node, (gast.Subscript, gast.Attribute)):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None
