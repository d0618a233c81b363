"""hvp forward over reverse: forward mode over reverse mode's generated gradient.

    H v = the tangent of grad f along v = `f_grad_tan(v, x, y)`

Reverse mode compiles f's gradient rule (grad's, for the argument signature); that rule
made one plain function `f_grad(x, y)` (transform/flat_gradient.py: the backward sweep
right after the forward one); forward mode compiles `f_grad`'s "tangent" variant,
returning the gradient's tangent alone. One forward sweep carrying tangents through
the primal and the adjoint: the Hessian is never formed. A tuple `wrt` gives the
tangent of the tuple of gradients: entry i is sum_j H_ij v_j.
"""
import ast
import inspect
import linecache
import os
import re
import threading
import types
import weakref

from runtime import registry
from runtime.checkpoint import run_checkpointed
from runtime.contexts import close_since, open_count

from .api import compiled
from .emit import tracebacks
from .errors import TransformError, at_definition, callee_words
from . import flat_calls
from .flat_custom import custom_rule
from .flat_custom_check import passed_before, refuse_jvp_sources, remember_passed
from .flat_gradient import flat_gradient
from .forward_api import DERIVATIVES, _compiled, call_jvp
from .forward_closures import is_value
from .generated_calls import forward_by_source
from .hvp_recursion import refuse_run_time_callees
from .public.boundary import materialise, refuse_inplace_args
from .public.parameters import _full_signature, _params, _unwrap

_FLAT = weakref.WeakKeyDictionary()       # a compiled rule's `rrule` -> (its flat gradient, cells)
_REFUSED = weakref.WeakKeyDictionary()    # the user's function -> {call key: generation}
_CHECKED = weakref.WeakKeyDictionary()    # tangent code -> its refusal (None: none)
_LOCK = threading.Lock()


def prepared(plain, names, primals, policy, signature):
    """The compiled tangent code `<name>_grad_tan` for this call: its compile-time
    refusals (reverse mode's, the flat gradient's, forward mode's) are TransformErrors
    raised here, before anything runs (what route "auto" falls back on)."""
    policy = _flat_policy(policy or _unwrap(plain)[1])
    rule = compiled(plain, names, policy, signature=signature)
    if rule.inplace_args:
        refuse_inplace_args(rule, _params(plain), primals, {})
    try:
        return tangent_code(rule, plain, names, signature)
    except TransformError as exc:    # forward mode's, at a line of the flat gradient
        raise _refused(exc, plain) from None


def run(tangent, names, primals, directions, likes):
    """Run the tangent code: H v's entries, each shaped and typed like its argument in
    `likes` as grad shapes a gradient (materialise: a dataclass's, a namedtuple's, a
    float's own type; a dict in the argument's key order), so both routes return the
    same structure. A refusal now (a callee's, a helper's) is raised as it is: the
    route has started (no fallback hides it)."""
    mark = open_count()
    try:
        out = tangent.rrule(*directions, *primals)
    except TransformError as exc:
        close_since(mark, exc)
        raise _refused(exc) from None
    except Exception as exc:         # a frame in generated code: say the user's line
        close_since(mark, exc)
        tracebacks.annotate(exc)
        raise
    out = (out,) if len(names) == 1 else tuple(out)
    return tuple(materialise(entry, like) for entry, like in zip(out, likes))


def chosen(plain, names, primals, policy, signature):
    """Route "auto": forward over reverse's prepared code for this call, or None where
    it refuses at compile time, or would refuse a call of a runtime helper once it ran
    (refuse_helper_calls: such a call may sit in a branch the arguments never take, so
    route "forward_over_reverse" itself leaves it to run time), or reaches recursive
    calls or a helper calling grad (transform/hvp_recursion.py: refused only as they
    run). Remembered per call signature while the rule registry is unchanged: a refusal
    is not retried per call."""
    key = (tuple(names), policy, signature)
    try:
        known = _REFUSED.get(plain)
    except TypeError:                   # cannot be weakly referenced: try each call
        known = None
    if known is not None and known.get(key) == registry.generation:
        return None
    try:
        refuse_run_time_callees(plain)
        return _checked(prepared(plain, names, primals, policy, signature))
    except TransformError:
        try:
            with _LOCK:
                _REFUSED.setdefault(plain, {})[key] = registry.generation
        except TypeError:
            pass
        return None


def _refused(exc, plain=None):
    """Forward mode's refusal of the flat gradient, at the user's line, saying which
    route refused it and that the other takes more programs; a name of the flat
    gradient's own (`items1`, `seq2`) is not shown (the user never wrote it)."""
    generated = exc.filename
    exc = tracebacks.at_user_line(exc)
    if plain is not None and str(exc.filename).startswith("<thunkgrad"):  # a line the
        exc = at_definition(plain, f"reverse mode's gradient code for {plain.__name__}: "
                            f"{exc.message}", exc.hint)      # compiler wrote: at the def
    exc = _lines_moved(exc, generated)
    known = _user_names(plain, exc.source_line) if plain is not None else \
        _names_around(exc.filename, exc.line) if "shared memory" in exc.message else None
    message, hint = _unnamed(exc.message, known), _unnamed(exc.hint or "", known)
    if message != exc.message:
        message = f"reverse mode's gradient code for this line: {message}"
    message = message if message.startswith("hvp") else \
        f"hvp (forward over reverse): {message}"
    hint = "" if hint != (exc.hint or "") else hint
    return TransformError(message, filename=exc.filename, line=exc.line, col=exc.col,
                          source_line=exc.source_line,
                          hint="use hvp's route=\"reverse_over_forward\", "
                               "which takes more programs" + (f"; or {hint}" if hint else ""))


_QUOTED = re.compile(r"`([^`]*)`")


def _unnamed(text, known):
    """text with each `quoted` snippet naming a name the user never wrote made
    `a value it made` (None for known: nothing to compare with)."""
    if known is None:
        return text
    return _QUOTED.sub(lambda m: m.group(0) if set(re.findall(r"[A-Za-z_]\w*", m.group(1)))
                       <= known else "a value it made", text)


def _lines_moved(exc, generated):
    """exc with each "(line N)" its message cites in the generated code it was raised
    at (the alias check's) made the user's line that code comes from, else dropped."""
    if not str(generated).startswith("<thunkgrad"):
        return exc

    def moved(match):
        where = tracebacks.user_origin(generated, int(match.group(1)))
        if where is None:
            return ""
        same = where[0] == exc.filename
        return f" (line {where[1]})" if same else f" ({os.path.basename(where[0])}:{where[1]})"
    message = re.sub(r" \(line (\d+)\)", moved, exc.message)
    return exc if message == exc.message else TransformError(
        message, filename=exc.filename, line=exc.line, col=exc.col,
        source_line=exc.source_line, hint=exc.hint)


def _names_around(filename, line):
    """Every name the user's function around `line` of `filename` uses (its nested
    functions too), or None when that file cannot be read: for a run-time alias
    refusal (a callee's gradient code holding `tape`), whose function is not known."""
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except SyntaxError:
        return None
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and line is not None and n.lineno <= line <= (n.end_lineno or n.lineno)]
    if not defs:
        return None
    inner = max(defs, key=lambda n: n.lineno)
    return {n.id for n in ast.walk(inner) if isinstance(n, ast.Name)} | \
        {a.arg for a in ast.walk(inner) if isinstance(a, ast.arg)}


def _user_names(plain, line):
    """Every name plain's code (nested functions too) and the user's line use, or None."""
    code = getattr(plain, "__code__", None)
    if code is None:
        return None
    names, todo = set(re.findall(r"[A-Za-z_]\w*", line or "")), [code]
    while todo:
        c = todo.pop()
        names.update(c.co_names + c.co_varnames + c.co_freevars + c.co_cellvars)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return names


def _flat_policy(policy):
    """The policies deferring sums as Thunks ("flat", "nested") compile as "eager": the
    flat gradient adds every cotangent at once anyway (forward mode calls no Thunk)."""
    return "eager" if policy in ("flat", "nested") else policy


def tangent_code(rule, plain, names, signature):
    """Forward mode's compiled `<name>_grad_tan` over `rule`'s flat gradient."""
    flat = _flat(rule, plain, names)
    refuse_run_time_sites(flat)
    return _compiled(flat, tuple(names), signature, variant="tangent")


def _flat(rule, plain, names):
    """rule's flat gradient, kept while its closure cells hold the same objects (they are
    copied into it: a closure's `k` rebound after an hvp gave the old k's Hessian)."""
    cells = tuple(c.cell_contents for c in rule.rrule.__closure__ or ())
    kept = _FLAT.get(rule.rrule)
    if kept is None or len(kept[1]) != len(cells) or \
            any(a is not b for a, b in zip(kept[1], cells)):
        kept = _FLAT[rule.rrule] = (flat_gradient(rule, plain, names), cells)
    return kept[0]


def refuse_run_time_sites(flat):
    """A call in the flat gradient whose tangents forward mode would refuse once the
    code ran (auto could not fall back then), refused now at the user's line: a loop
    marked `checkpointed` (its pullback's tangent would be reverse mode over the
    driver's JVP, runtime/checkpoint_forward.py, which does not compile), a derivative
    function (grad(f), value_and_grad(f): its rule declares no JVP; jvp(f): its JVP is
    the compiler's code; thunkgrad's grad called inside, making one), a custom rule
    whose JVP function reverse mode refuses (transform/flat_custom_check.py)."""
    driver = registry.lookup(run_checkpointed)
    found = [(name, cell.cell_contents) for name, cell in
             zip(flat.__code__.co_freevars, flat.__closure__ or ())]
    found += [(name, flat.__globals__.get(name)) for name in flat.__code__.co_names]
    if passed_before(flat, found):      # the same objects, the same rules: same verdict
        return
    for name, value in found:
        if value is driver.call_custom or value is driver.custom:
            what, hint = "a loop marked `checkpointed`", "loop without checkpointed"
        elif _derivative_rule(value) or _compiler_jvp(value):
            what = f"calling {custom_rule(value).name} inside the function"
            hint = "compute that derivative outside the function, or write it by hand"
        elif _derivative_entry(value):
            what = f"calling thunkgrad's `{value.__name__}` inside the function"
            hint = "compute that derivative outside the function, or write it by hand"
        else:
            continue
        lines = flat.thunkgrad_flat_source.splitlines()
        line = next((k for k, text in enumerate(lines, 1) if re.search(rf"\b{name}\b", text)
                     and not text.lstrip().startswith("#")), None)
        raise TransformError(f"hvp (forward over reverse): {what} is not supported by "
                             "this route", filename=flat.__code__.co_filename, line=line,
                             hint=hint)
    refuse_jvp_sources(flat)
    remember_passed(flat, found)


_ENTRIES = ("grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "hvp", "hessian")


def _derivative_entry(value):
    """Whether value is one of thunkgrad's entries (grad, jvp, ...): the derivative
    function it makes at run time is called through a rule forward mode has no JVP of
    (the flat gradient holds the entry, not the function it returns)."""
    return isinstance(value, types.FunctionType) and value.__name__ in _ENTRIES and \
        _ours(value.__module__)


def _derivative_rule(value):
    """Whether value is the rule a derivative function (grad(f)) is called through."""
    rule = custom_rule(value)
    return rule is not None and not rule.has_jvp and bool(DERIVATIVES) and \
        DERIVATIVES["is_derivative"](rule.fn)


def _compiler_jvp(value):
    """Whether value is a rule whose JVP is the compiler's own code (jvp(f) called
    inside: `jvp_tangent`): its cotangents' tangent would be reverse mode over that."""
    rule = custom_rule(value)
    term = getattr(rule, "custom_jvp", None)
    return isinstance(term, types.FunctionType) and \
        (term.__module__ or "").split(".")[0] == "transform"


def _checked(tangent):
    """tangent, after refuse_helper_calls (its verdict kept per compiled code)."""
    if tangent.rrule not in _CHECKED:
        try:
            refuse_helper_calls(tangent)
        except TransformError as exc:
            _CHECKED[tangent.rrule] = exc
            raise
        _CHECKED[tangent.rrule] = None
    elif _CHECKED[tangent.rrule] is not None:
        raise _CHECKED[tangent.rrule].with_traceback(None)
    return tangent


def refuse_helper_calls(tangent, depth=0):
    """The refusal `call_jvp` would raise if the code reached the call, raised now: a
    call of a runtime or compiler function (a VJP helper of the flat gradient,
    `solve_vjp`) or rule object with arguments carrying tangents, which has no rule
    forward mode can use (forward_api._user_rule refuses it the same way). Route "auto"
    then takes reverse over forward before anything runs."""
    fn = tangent.rrule
    found = dict(zip(fn.__code__.co_freevars, [c.cell_contents for c in fn.__closure__ or ()]))
    value = lambda name: found[name] if name in found else fn.__globals__.get(name)  # noqa: E731
    for node in ast.walk(ast.parse(tangent.source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                value(node.func.id) is call_jvp and len(node.args) >= 2 and \
                isinstance(node.args[0], ast.Name) and isinstance(node.args[1], ast.Dict) \
                and node.args[1].keys and _unusable(value(node.args[0].id)) is not False:
            callee = value(node.args[0].id)
            kind = "function" if isinstance(callee, types.FunctionType) else \
                type(callee).__name__
            if _unusable(callee) is None:
                _helper_checked(callee, node, tangent, depth)
                continue
            raise tracebacks.at_user_line(TransformError(
                f"forward mode (jvp, jacfwd): calling a {kind} value "
                f"({getattr(callee, '__qualname__', '?')}) "
                "with arguments that carry a derivative is not supported yet",
                filename=tangent.filename, line=node.lineno,
                hint="call a function defined with def, or use vjp/jacrev"))


def _unusable(fn):
    """Whether call_jvp refuses fn with tangents (forward_api._user_rule): a runtime or
    compiler function without source, or an object of theirs (a callee's or method's
    compiled rule, CalleeRule and MethodRule, the flat gradient calls), with no rule;
    None for a runtime function forward mode compiles from its source when called."""
    if isinstance(fn, types.FunctionType) and _ours(fn.__module__) and \
            registry.lookup(fn) is None and forward_by_source(fn):
        return None
    if isinstance(fn, type) or is_value(fn) or inspect.ismethod(fn) or \
            DERIVATIVES and DERIVATIVES["is_derivative"](fn):
        return False
    rule = registry.lookup(fn) if callable(fn) else None
    if rule is not None and rule.kind == "template":
        return False
    if isinstance(fn, types.FunctionType):
        return not forward_by_source(fn) and _ours(fn.__module__)
    return callable(fn) and _ours(type(fn).__module__)


def _helper_checked(fn, node, tangent, depth):
    """A runtime function forward mode compiles from its source when the call runs
    (generated_calls.FORWARD_BY_SOURCE): compiled now (general), its own calls checked
    the same way, a refusal raised at the user's line (route "auto" falls back)."""
    params = list(inspect.signature(fn).parameters)
    names = tuple(params[k.value] if isinstance(k.value, int) else k.value
                  for k in node.args[1].keys if isinstance(k, ast.Constant))
    try:
        if depth >= 4:
            raise TransformError("runtime helpers nested too deep")
        refuse_helper_calls(_compiled(fn, names, None), depth + 1)
    except TransformError as exc:
        raise tracebacks.at_user_line(TransformError(
            f"forward mode (jvp, jacfwd): the tangent of {callee_words(fn)}: "
            f"{exc.message}", filename=tangent.filename, line=node.lineno,
            hint="use hvp's route=\"reverse_over_forward\"")) from None


def _ours(module):
    return (module or "").split(".")[0] in ("runtime", "transform")


def _callee_code(fn, names, args, g):
    """(f's seeded flat gradient, its signature) for callee_vjp (transform/flat_calls.py)."""
    signature = _full_signature(fn, args, {})
    rule = compiled(fn, tuple(names), "loop", signature=signature)
    flat = _SEEDED.get(rule.rrule)
    if flat is None:
        flat = _SEEDED[rule.rrule] = flat_gradient(rule, fn, tuple(names), seeded=True)
    return flat, _full_signature(flat, args, {"thunkgrad_g": g})


def _callee_vjp(fn, names, args, g):
    flat, _ = _callee_code(fn, names, args, g)
    out = flat(*args, thunkgrad_g=g)
    return (out,) if len(names) == 1 else tuple(out)


def _callee_tangent(fn, names, args, g, given):
    flat, signature = _callee_code(fn, names, args, g)
    refuse_run_time_sites(flat)        # (at run time here: a callee's flat gradient)
    tangent = _compiled(flat, tuple(names) + ("thunkgrad_g",), signature, variant="tangent")
    out = tangent.rrule(*given, *args, thunkgrad_g=g)
    return (out,) if len(names) == 1 else tuple(out)


_SEEDED = weakref.WeakKeyDictionary()     # a callee's rule's `rrule` -> its seeded flat
flat_calls.PROVIDED.update(vjp=_callee_vjp, tangent=_callee_tangent)


def source(plain, names, policy, checked=False):
    """What `thunkgrad dump --mode hvp` prints for this route: the flat gradient and
    the tangent code forward mode runs over it (both general); checked: refused as
    route "auto" refuses it (refuse_helper_calls)."""
    policy = _flat_policy(policy or _unwrap(plain)[1])
    rule = compiled(plain, tuple(names), policy)
    try:
        tangent = tangent_code(rule, plain, tuple(names), None)
        if checked:
            refuse_run_time_callees(plain)
            _checked(tangent)
    except TransformError as exc:    # forward mode's, at a line of the flat gradient
        raise _refused(exc, plain) from None
    return _FLAT[rule.rrule][0].thunkgrad_flat_source + "\n\n" + tangent.source
