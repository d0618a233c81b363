"""Stage 1a: a loop marked `checkpointed` becomes a call of the checkpointing driver.

    for t in checkpointed(range(n), snapshots=s):     ->  (u,) = run_checkpointed(
        u = u + dt * lap(u)                                  "mod.f:12:...", (u,), (dt,),
                                                             range(n), s, "file.py:12")

The body becomes a function `f_checkpointed_step(u, dt, t)` returning the loop-carried
names: those the body binds and reads before binding (or may) and those read after the
loop. The names it reads and does not bind (the invariants) are passed explicitly, so
their cotangents come back from the driver. The step is compiled like any user function
when the driver differentiates it (runtime/checkpoint_rule.py), errors at the user's
lines. Runs before desugar. Refused: return in the body (break, continue, while loops:
checkpointed_online.py, run first), a loop else, a non-name target, unsized iterables
(enumerate, zip, generators), nested defs, `del`, walrus, the loop variable read after.
"""
import ast
import copy
import hashlib

import gast
from runtime.checkpoint import checkpointed, register_step, run_checkpointed
from .checkpoint_chunk import chunk_loop, chunk_size
from .checkpointed_after import read_outside, with_last_item
from .checkpointed_random import refuse_random_draws
from .checkpointed_writes import _base, _plain_advance, _written
from .parse import SourceFunction
from .source_check import filled
from ..ir.nodes import const, load, store

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_LOOPS = (gast.For, gast.While, gast.AsyncFor)
_UNSIZED = (enumerate, zip, map, filter, reversed, iter)
_INSTEAD = "Instead: loop over checkpointed(range(len(xs)), snapshots=s) and index xs[t]"


def checkpointed_loops(src, explain=False):
    """Rewrite src.node's outermost checkpointed loops in place (inner ones are the
    step's to rewrite when it is compiled); refuse any other use of the marker.
    explain: the driver's location argument also says what the loop carries."""
    if not _may_mark(src) or \
            not any(src.resolve(c.func) is checkpointed for c in src.calls()):
        return                  # (most functions: no resolving, no guards added)
    src.node.body = _block(src, src.node.body, explain)
    for c in gast.walk(src.node):
        if isinstance(c, gast.Call) and src.resolve(c.func) is checkpointed:
            raise src.error("checkpointed(...) marks the iterable of a for loop only", c,
                            hint="write `for t in checkpointed(range(n), snapshots=s):`")
    src.refresh()


def _may_mark(src):
    """Whether the function may call the marker: its name in the source (`checkpointed`,
    `transform.checkpointed`), or the marker bound under another name it can see."""
    fn = getattr(src.fn, "__func__", src.fn)
    cells = [c.cell_contents for c in getattr(fn, "__closure__", None) or ()
             if filled(c)]
    return any("checkpointed" in line for line in src.lines) or \
        any(v is checkpointed for v in [*getattr(fn, "__globals__", {}).values(), *cells])


def _block(src, body, explain):
    out = []
    for s in body:
        if isinstance(s, gast.For) and isinstance(s.iter, gast.Call) and \
                src.resolve(s.iter.func) is checkpointed:
            out.extend(_rewrite(src, s, explain))
            continue
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, _block(src, getattr(s, field), explain))
        for h in getattr(s, "handlers", ()):
            h.body = _block(src, h.body, explain)
        out.append(s)
    return out


def _rewrite(src, loop, explain):
    """[the driver's call] (the loop variable read outside: checkpointed_after.py's)."""
    iterable, snapshots, k = _marker_arguments(src, loop.iter)
    _refuse_unsupported(src, loop, iterable)
    target = loop.target.id
    carried, invariants = _loop_names(src, loop)
    if loop.target.id in _written(src, loop.body):
        raise src.error("a checkpointed loop's body writes into its loop variable", loop.target,
                        hint="write into a copy under another name: `w = v.copy()`")
    if _base(iterable) in carried:
        raise src.error("a checkpointed loop's body changes what it iterates over",
                        iterable, hint="iterate over a copy: checkpointed(list(xs), ...)")
    over_range = isinstance(iterable, gast.Call) and src.resolve(iterable.func) is range
    stepped, last = chunk_loop(src, loop, k, over_range) if k != 1 else (loop, target)
    step = _step_function(src, stepped, carried, invariants, last)
    step.thunkgrad_plain_advance = _plain_advance(src, loop.body)   # (the driver reads
    step.thunkgrad_chunk = k                                         # these two)
    key = register_step(_step_key(src, loop) + (f":chunk{k}" if k != 1 else ""), step)
    driver = load("run_checkpointed")
    driver.runtime_helper = run_checkpointed
    call = gast.Call(func=driver, args=[
        const(key), _tuple(carried), _tuple(invariants), iterable, snapshots,
        const(_where(src, loop, carried, invariants, explain))], keywords=[])
    s = gast.Assign(targets=[gast.Tuple(elts=[store(n) for n in carried], ctx=gast.Store())],
                    value=call, type_comment=None) if carried else gast.Expr(value=call)
    for n in gast.walk(s):
        if "lineno" in n._attributes:
            gast.copy_location(n, loop)
    if read_outside(src, loop, _without(src.node.body, loop)):
        return with_last_item(src, loop, s)   # (its last item: checkpointed_after.py)
    return [s]


def _where(src, loop, carried, invariants, explain):
    """The loop's file:line (for run-time errors); with explain, what the step carries
    and the schedule (`thunkgrad dump --explain`)."""
    where = f"{src.filename}:{src.first_line + loop.lineno - 1}"
    if not explain:
        return where
    return (f"{where}: checkpointed loop, binomial (revolve) schedule, at most `snapshots` "
            f"stored carries (the loop's input one of them), snapshots placed by the forward "
            f"sweep; step {src.name}_checkpointed_step carries ({', '.join(carried)}), "
            f"reads ({', '.join(invariants)}) as invariants")


def _tuple(names):
    return gast.Tuple(elts=[load(n) for n in names], ctx=gast.Load())


def _marker_arguments(src, call):
    """(the iterable, the snapshots expression, chunk) of `checkpointed(xs, snapshots=s)`."""
    given = {kw.arg: kw.value for kw in call.keywords}
    args = list(call.args)
    if len(args) == 2 and "snapshots" not in given:
        given["snapshots"] = args.pop()
    if len(args) != 1 or "snapshots" not in given or set(given) - {"snapshots", "chunk"}:
        raise src.error("checkpointed takes the iterable, snapshots=s (and chunk=k)", call,
                        hint="write checkpointed(range(n), snapshots=s)")
    return args[0], given["snapshots"], chunk_size(src, given)


def _refuse_unsupported(src, loop, iterable, jumps=False):
    """What this version of checkpointed loops does not cover, refused at its line."""
    where = "in a checkpointed loop"
    if loop.orelse:
        raise src.error(f"a loop `else` {where} is not supported", loop,
                        hint="set a flag in the body and test it after the loop")
    if not isinstance(loop.target, gast.Name):
        raise src.error("a checkpointed loop needs one name as its loop variable", loop.target,
                        hint=_INSTEAD.removeprefix("Instead: "))
    fn = src.resolve(iterable.func) if isinstance(iterable, gast.Call) else None
    if isinstance(iterable, gast.GeneratorExp) or any(fn is u for u in _UNSIZED):
        raise src.error("checkpointed needs an iterable whose length is known when the loop "
                        "starts (a range, list, tuple or array)", iterable,
                        hint=_INSTEAD.removeprefix("Instead: "))
    for s in loop.body:
        _refuse_in(src, s, 0, jumps)
    refuse_random_draws(src, loop)


_REFUSED = {gast.Return: "`return`", gast.Yield: "`yield`", gast.YieldFrom: "`yield from`",
            gast.Global: "`global`", gast.Nonlocal: "`nonlocal`", gast.Delete: "`del`",
            gast.NamedExpr: "an assignment expression (:=)",
            gast.FunctionDef: "a nested def", gast.AsyncFunctionDef: "a nested def",
            gast.ClassDef: "a class statement"}
_HINTS = {"`return`": "`break` out of the loop and return after it",
          "`del`": "rebind the name instead", "a nested def": "define it before the loop"}


def _refuse_in(src, node, depth, jumps=False):
    """Refuse jumps out of the body (break/continue not in an inner loop) unless `jumps`."""
    kind = _REFUSED.get(type(node))
    if kind is not None:
        raise src.error(f"{kind} in a checkpointed loop's body is not supported yet", node,
                        hint=_HINTS.get(kind, "write the loop without checkpointed"))
    if isinstance(node, (gast.Break, gast.Continue)) and depth == 0 and not jumps:
        word = "break" if isinstance(node, gast.Break) else "continue"
        raise src.error(f"`{word}` in a checkpointed loop is not supported yet", node,
                        hint="loop over the whole range and guard the body with `if`")
    if isinstance(node, (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp,
                         gast.GeneratorExp)):
        return
    inner = depth + isinstance(node, _LOOPS)
    for child in gast.iter_child_nodes(node):
        if isinstance(node, _LOOPS) and child is getattr(node, "iter", None):
            _refuse_in(src, child, depth, jumps)
        else:
            _refuse_in(src, child, inner, jumps)


def _names(nodes, ctx, skip_scopes):
    """Names in context `ctx` below `nodes`, in order of first appearance."""
    found, stack = {}, list(reversed(nodes))
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Name) and isinstance(n.ctx, ctx):
            found.setdefault(n.id, None)
        if skip_scopes and isinstance(n, _SCOPES):
            continue
        stack.extend(reversed(list(gast.iter_child_nodes(n))))
    return list(found)


def _free_loads(nodes, bound=frozenset()):
    """Names read below `nodes` that no comprehension or lambda there binds, in order."""
    found = {}
    for node in nodes:
        own = bound
        if isinstance(node, (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)):
            own = bound | set(_names([g.target for g in node.generators], gast.Store, False))
        elif isinstance(node, gast.Lambda):
            own = bound | {a.id for a in node.args.args}
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) and \
                node.id not in own:
            found.setdefault(node.id, None)
        found.update(dict.fromkeys(_free_loads(list(gast.iter_child_nodes(node)), own)))
    return list(found)


def _bound_first(name, body):
    """Whether the body's first statement mentioning `name` binds it without reading it
    (`name = expr`, unconditionally): its value on entry is then never read."""
    for s in body:
        if name not in _names([s], (gast.Load, gast.Store), False):
            continue
        if not isinstance(s, gast.Assign):
            return False
        stored = _names(s.targets, gast.Store, False)
        simple = all(isinstance(t, gast.Name) or isinstance(t, (gast.Tuple, gast.List)) and
                     all(isinstance(e, gast.Name) for e in t.elts) for t in s.targets)
        return simple and name in stored and name not in _names([s.value], gast.Load, False)
    return False


def _loop_names(src, loop):
    """(carried names, invariant names) of a checkpointed loop."""
    body, target = loop.body, loop.target.id
    outside = [s for s in _without(src.node.body, loop)]
    read_outside = set(_names(outside, gast.Load, False))
    stored = list(dict.fromkeys(_names(body, gast.Store, True) + _written(src, body)))
    carried = [n for n in stored if n != target and
               (not _bound_first(n, body) or n in read_outside)]
    params = set(src.params) | {a.id for a in src.node.args.kwonlyargs}
    before = params | set(_names([s for s in outside if _first_line(s) < loop.lineno],
                                 gast.Store, True)) | set(src.fn.__code__.co_freevars)
    for n in carried:           # a module's name (`np` in x.astype(np.float32)): not carried
        if n not in before and n in src.locals and n in read_outside | set(_names(body, gast.Load, False)) \
                and not _inner_loop_variable(n, body):
            raise src.error(f"{n!r} is carried by the checkpointed loop but may be unbound "
                            "when it starts", loop,
                            hint=f"bind {n} before the loop (for example {n} = 0.0)")
    carried = [n for n in carried if n in before]
    _refuse_local_definitions(src, loop)
    local = set(src.locals) | set(src.fn.__code__.co_freevars)
    invariants = [n for n in _free_loads(body)
                  if n in local and n not in stored and n != target]
    return carried, invariants


def _first_line(node):
    """A statement's line, or a `with` item's or `case`'s (no line of their own): their
    first node's."""
    return min((n.lineno for n in gast.walk(node) if getattr(n, "lineno", None)), default=0)


def _refuse_local_definitions(src, loop):
    """A def, class or import inside the function, read by the body: the step would
    read the module's name instead."""
    defined = set()
    for n in gast.walk(src.node):
        if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)) and \
                n is not src.node:
            defined.add(n.name)
        elif isinstance(n, (gast.Import, gast.ImportFrom)):
            defined.update((a.asname or a.name).split(".")[0] for a in n.names)
    for name in _free_loads(loop.body):
        if name in defined:
            read = next(m for m in _names_nodes(loop.body, name))
            raise src.error(f"a checkpointed loop's body reads {name!r}, defined inside the "
                            "function", read, hint=f"define {name} at module level")


def _inner_loop_variable(name, body):
    """Whether `name` is only an inner loop's variable, read inside that loop only."""
    loops = [n for n in gast.walk(gast.Module(body=body, type_ignores=[]))
             if isinstance(n, gast.For) and isinstance(n.target, gast.Name)
             and n.target.id == name]
    inside = sum(len([m for m in _names_nodes(lp.body, name)]) for lp in loops)
    return bool(loops) and inside == len(_names_nodes(body, name)) - len(loops)


def _names_nodes(nodes, name):
    return [n for s in nodes for n in gast.walk(s) if isinstance(n, gast.Name) and n.id == name]


def _without(body, loop):
    """body's statements, the loop replaced by nothing (nested blocks kept whole but the
    loop)."""
    out = []
    for s in body:
        if s is loop:
            continue
        if any(n is loop for n in gast.walk(s)):
            out.extend(_without([c for c in gast.iter_child_nodes(s)
                                 if isinstance(c, gast.stmt)], loop))
            out.extend(c for c in gast.iter_child_nodes(s) if not isinstance(c, gast.stmt))
            continue
        out.append(s)
    return out


def _step_function(src, loop, carried, invariants, target):
    """The loop body as a function of (carried..., invariants..., target) returning the
    carried names (the driver calls it)."""
    ret = gast.Return(value=_tuple(carried))
    return step_function(src, loop, copy.deepcopy(loop.body) + [ret],
                         carried + invariants + [target])


def step_function(src, loop, body, names):
    """A real function of `names` whose body is `body`, parsed as this gast node at the
    user's lines (parse.parse_function reads `thunkgrad_source`); also the online
    driver's steps (checkpointed_online.py)."""
    params = [gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None)
              for n in names]
    fdef = gast.FunctionDef(
        name=f"{src.name}_checkpointed_step", body=body,
        args=gast.arguments(args=params, posonlyargs=[], vararg=None, kwonlyargs=[],
                            kw_defaults=[], kwarg=None, defaults=[]),
        decorator_list=[], returns=None, type_comment=None, type_params=[])
    for n in gast.walk(fdef):
        if "lineno" in n._attributes and getattr(n, "lineno", None) is None:
            gast.copy_location(n, loop)
    tree = gast.gast_to_ast(gast.Module(body=[copy.deepcopy(fdef)], type_ignores=[]))
    ast.increment_lineno(tree, src.first_line - 1)
    space = {}
    exec(compile(ast.fix_missing_locations(tree), src.filename, "exec"),
         src.fn.__globals__, space)
    step = space[fdef.name]
    step.thunkgrad_source = lambda: _step_source(step, fdef, src)
    return step


def _step_source(step, fdef, src):
    made = SourceFunction(step, copy.deepcopy(fdef), src.filename, src.first_line,
                          src.col_offset, src.lines)
    made.copies_arguments = True      # `u[1:] = ...` on a carry: into a copy of it
    return made


def _step_key(src, loop):
    """The step's name for the driver: function, line, digest of the body (deterministic)."""
    text = gast.dump(gast.Module(body=loop.body, type_ignores=[]))
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    module = getattr(src.fn, "__module__", "") or ""
    return f"{module}.{src.fn.__qualname__}:{src.first_line + loop.lineno - 1}:{digest}"
