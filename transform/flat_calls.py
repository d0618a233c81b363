"""A call of the user's own function in reverse mode's flat gradient (hvp forward over
reverse, transform/flat_gradient.py). Reverse mode's code calls the callee's rule and,
in the backward sweep, the pullback it returned (a closure forward mode cannot call);
the flat gradient calls the function itself, keeps its arguments, and asks for the
cotangents with `callee_vjp`:

    t1, t1_pullback = cube_rrule(x)          t1 = cube(x); t1_a0 = x
    t1_cots1 = t1_pullback(g)          ->    t1_cots1 = callee_vjp(cube, g, t1_a0)

callee_vjp(f, g, *args) is J_f(args)^T g, one cotangent per argument (None for one
carrying no derivative): f's own gradient rule in one sweep seeded with g, `f_vjp(args,
*, thunkgrad_g)` (an array or float output, arguments of their own cotangent kind; other
forms go through transform/flat_dispatch.py when it runs). Its tangent is forward mode
over that function, along the arguments' tangents and g's; a call inside f is written
the same way in f_vjp, one level down. Every other call of a rule object (keywords, a
method, a value called, a call in a loop, one pullback name bound twice, a custom rule)
is written as flat_dispatch's `rule_call` and `rule_cotangents` of its site.
"""
import contextlib
import inspect
import threading

import numpy as np

from runtime import registry
from runtime.complex_safety import RuleRefused
from runtime.forward import zero_tangent

from .derivatives import carries
from .flat_custom import custom_rule
from .flat_dispatch import FunctionAsRule, rule_call, rule_cotangents, rule_cotangents_jvp

PROVIDED = {}                                # hvp_forward's compiled pieces (no cycle)


def callee_vjp(fn, g, *args):
    """J_fn(args)^T g: one cotangent per argument (by fn's parameters, through
    transform/flat_dispatch.py, for an argument or output of another form)."""
    if not _flat_forms(fn, g, args) or inspect.isgeneratorfunction(fn):
        return rule_cotangents(g, (FunctionAsRule(fn), (), args))
    names, positions = _differentiated(fn, g, args)
    with _deeper(fn):
        grads = PROVIDED["vjp"](fn, names, args, g)
    return _by_position(grads, positions, len(args))


def callee_vjp_jvp(tangents, fn, g, *args):
    """The tangent of callee_vjp along `tangents` (by position: fn's, g's, the args')."""
    if not _flat_forms(fn, g, args) or inspect.isgeneratorfunction(fn):   # (a generator's
        return rule_cotangents_jvp((tangents[1], (None, None, tangents[2:])), g,   # list:
                                   (FunctionAsRule(fn), (), args))      # its rule's route)
    names, positions = _differentiated(fn, g, args)
    t_g, t_args = tangents[1], tangents[2:]
    given = tuple(_or_zero(t_args[k], args[k]) for k in positions) + (_or_zero(t_g, g),)
    with _deeper(fn):
        out = PROVIDED["tangent"](fn, names, args, g, given)
    return _by_position(out, positions, len(args))


_DEPTH = threading.local()
MAX_DEPTH = 40          # nested callee_vjp calls (each a few frames of generated code)


@contextlib.contextmanager
def _deeper(fn):
    depth = getattr(_DEPTH, "n", 0)
    if depth >= MAX_DEPTH:
        raise RuleRefused(f"hvp (forward over reverse): calls of {fn.__qualname__} nested "
                          f"deeper than {MAX_DEPTH} Instead: "
                          "use hvp's route=\"reverse_over_forward\"")
    _DEPTH.n = depth + 1
    try:
        yield
    finally:
        _DEPTH.n = depth


@registry.rrule(callee_vjp, jvp=callee_vjp_jvp)
def callee_vjp_rule(fn, g, *args):
    raise RuleRefused("reverse mode over a callee's cotangents is not supported "
                      "Instead: use hvp's route=\"reverse_over_forward\"")


def _plain(value):
    """A value whose cotangent is its own kind: a number, an array, a string, None, or a
    list or tuple of them (an object's, a record's or a dict's are not taken here)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, np.generic,
                                           np.ndarray, range)):
        return not isinstance(value, np.ndarray) or value.dtype.kind in "biuf"
    if type(value) in (list, tuple):
        return all(_plain(v) for v in value)
    return False


def _flat_forms(fn, g, args):
    """Whether callee_vjp's own route takes the call: an array or float output,
    arguments whose cotangents are of their own kind, and a callee without `*args` or
    `**kwargs` (its flat gradient would not be one plain sweep: flat_dispatch's call)."""
    flags = getattr(getattr(fn, "__code__", None), "co_flags", 0)
    collects = flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
    return isinstance(g, (float, np.floating, np.ndarray)) and not collects and \
        all(_plain(a) for a in args)


def _or_zero(tangent, value):
    return zero_tangent(value) if tangent is None else tangent


def _differentiated(fn, g, args):
    """(the parameters differentiated, their positions among the args)."""
    if g is None or not isinstance(g, (float, np.floating, np.ndarray)):
        raise RuleRefused(f"hvp (forward over reverse): a call of {fn.__qualname__} whose "
                          "output is no array or float Instead: "
                          "use hvp's route=\"reverse_over_forward\"")
    odd = [a for a in args if not _plain(a)]
    if odd:
        raise RuleRefused(f"hvp (forward over reverse): a call of {fn.__qualname__} with a "
                          f"{type(odd[0]).__name__} argument (its cotangent's form) Instead: "
                          "use hvp's route=\"reverse_over_forward\"")
    params = list(inspect.signature(fn).parameters)
    positions = tuple(k for k, a in enumerate(args) if carries(a) and k < len(params))
    return tuple(params[k] for k in positions), positions


def _by_position(values, positions, n):
    found = dict(zip(positions, values))
    return tuple(found.get(k) for k in range(n))


def calls_flattened(numbered, cells, not_flat):
    """The flat gradient's lines with each callee rule's call and pullback call written
    as the module text says; (lines, the helpers they name). `not_flat(why)`: the
    exception to raise for a pullback used otherwise."""
    out, pullbacks = [], {}
    constants = named_constants(numbered)
    dispatched = _dispatched_pullbacks(numbered, cells, constants)
    helpers = {"callee_vjp": callee_vjp, "rule_call": rule_call,
               "rule_cotangents": rule_cotangents}
    for line, k in numbered:
        code = _code_of(line)
        call = _callee_call(code, cells)
        if call is not None and call[2] not in dispatched:
            indent, value, pullback, name, args = call
            helpers[f"{name}_fn"] = cells[name].fn
            saved = [f"{pullback}_a{j}" for j in range(len(args))]
            pullbacks[pullback] = (f"{name}_fn", saved)
            out += [(f"{indent}{n} = {a}\n", k) for n, a in zip(saved, args)]   # once
            called = f"{name}_fn({', '.join(saved)})"
            if inspect.isgeneratorfunction(cells[name].fn):   # the rule's list of items
                called = f"list({called})"
            out.append((f"{indent}{value} = {called}\n", k))
            continue
        call = rule_call_parts(code, cells, constants)
        if call is not None and call[2] in dispatched:
            indent, value, pullback, name, args, keywords = call
            values = "".join(a + ", " for a in args)
            out.append((f"{indent}{pullback} = ({name}, {tuple(keywords)!r}, ({values}))\n", k))
            out.append((f"{indent}{value} = rule_call({pullback})\n", k))
            continue
        line = _backward_line(line, code, pullbacks, dispatched, not_flat)
        if line:
            out.append((line, k))
    return out, helpers


def _dispatched_pullbacks(numbered, cells, constants):
    """The pullbacks rule_call's path takes: each bound by a call callee_vjp's path does
    not take, by more than one call (`a + b` calls `__add__` or `__radd__`, by the
    same name), or moved by the tape (a call in a loop). Their value is the tuple
    (rule, keywords, the call's values), moved and restored as it is."""
    bound, taken = {}, set()
    taped = "".join(_code_of(line) for line, _ in numbered if ".append(" in line)
    for line, _ in numbered:
        code = _code_of(line)
        call = rule_call_parts(code, cells, constants)
        if call is None:
            continue
        pullback = call[2]
        bound[pullback] = bound.get(pullback, 0) + 1
        if _callee_call(code, cells) is None or f"({pullback})" in taped:
            taken.add(pullback)
    return taken | {p for p, n in bound.items() if n > 1}


def _backward_line(line, code, pullbacks, dispatched, not_flat):
    """A line of the sweeps with the pullbacks' calls written as calls of callee_vjp or
    rule_cotangents, their `del`s dropped ('' for a line left empty)."""
    if code.strip().startswith("del ") and (pullbacks or dispatched):
        kept = [n.strip() for n in code.strip()[4:].split(",")
                if n.strip() not in pullbacks and n.strip() not in dispatched]
        line = code = f"{code[:len(code) - len(code.lstrip())]}del {', '.join(kept)}\n" \
            if kept else ""
    for pullback in [*pullbacks, *dispatched]:
        if pullback not in code:
            continue
        called = _pullback_call(code, pullback)
        if called is None and pullback in dispatched:
            continue                    # the tuple of its values, moved as it is
        if called is None:
            raise not_flat(f"its backward sweep uses a callee's pullback as `{code.strip()}`")
        indent, target, g = called
        if pullback in dispatched:
            return f"{indent}{target} = rule_cotangents({g}, {pullback})\n"
        fn, saved = pullbacks[pullback]
        return f"{indent}{target} = callee_vjp({', '.join([fn, g] + saved)})\n"
    return line


def _code_of(line):
    return line if not line.lstrip().startswith("#") else ""


def _callee_call(code, cells):
    """(indent, value name, pullback name, rule name, argument texts) for
    `t1, t1_pullback = cube_rrule(x)` of a callee rule, else None."""
    import ast
    node = _pair_call(code)
    if node is None or node.value.keywords:
        return None
    rule = cells.get(node.value.func.id)
    if type(rule).__name__ != "CalleeRule" or not inspect.isfunction(rule.fn) or \
            rule.fn.__code__.co_filename.startswith("<"):
        return None       # (a class's constructor the compiler wrote: refused as before)
    value, pullback = (t.id for t in node.targets[0].elts)
    indent = code[:len(code) - len(code.lstrip())]
    return indent, value, pullback, node.value.func.id, [ast.unparse(a) for a in node.value.args]


def _pair_call(code):
    """The statement `value, pullback = name(args, k=v)` (no starred argument, no
    `**`), parsed, else None."""
    import ast
    stripped = code.strip()
    if " = " not in stripped or "_pullback" not in stripped:
        return None
    try:
        node = ast.parse(stripped).body[0]
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) and
            len(node.targets[0].elts) == 2 and isinstance(node.value, ast.Call) and
            isinstance(node.value.func, ast.Name) and
            all(isinstance(t, ast.Name) for t in node.targets[0].elts) and
            not any(isinstance(a, ast.Starred) for a in node.value.args) and
            all(k.arg is not None for k in node.value.keywords)):
        return None
    return node


def _pullback_call(code, pullback):
    """(indent, target, the cotangent's text) for `x = pullback(g)`, else None."""
    import ast
    try:
        node = ast.parse(code.strip()).body[0]
    except SyntaxError:
        return None
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
            isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call) and \
            isinstance(node.value.func, ast.Name) and node.value.func.id == pullback and \
            len(node.value.args) == 1 and not node.value.keywords:
        indent = code[:len(code) - len(code.lstrip())]
        return indent, node.targets[0].id, ast.unparse(node.value.args[0])
    return None


def rule_call_parts(code, cells, constants=None):
    """(indent, value name, pullback name, rule name, argument texts with the keywords'
    values last, the keywords) for `t1, t1_pullback = f_rrule(x, a=a)` of a callee or
    method rule dispatched when it runs (transform/flat_dispatch.py), else None.
    constants: {name: literal} of named_constants, a keyword given one kept as a literal."""
    import ast
    node = _pair_call(code)
    if node is None:
        return None
    name = node.value.func.id
    if type(cells.get(name)).__name__ not in ("CalleeRule", "MethodRule") and \
            custom_rule(cells.get(name)) is None:
        return None
    value, pullback = (t.id for t in node.targets[0].elts)
    indent = code[:len(code) - len(code.lstrip())]
    literal = {k.arg: _literal(k.value, constants or {}) for k in node.value.keywords}
    given = [k for k in node.value.keywords if literal[k.arg] is _NOT_LITERAL]
    args = [ast.unparse(a) for a in node.value.args] + [ast.unparse(k.value) for k in given]
    return indent, value, pullback, name, args, \
        [k.arg if k in given else (k.arg, literal[k.arg]) for k in node.value.keywords]


_NOT_LITERAL = object()


def _literal(node, constants):
    """A keyword's value if it is a literal number (signed too), string, bool or None, or
    a name bound once to one (constants), else _NOT_LITERAL: it carries no derivative, so
    it is kept among the site's keywords as `(name, value)` (forward mode would give it a
    zero tangent, which flat_dispatch cannot tell from a differentiated value's)."""
    import ast
    import math
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    inner = node.operand if isinstance(node, ast.UnaryOp) and \
        isinstance(node.op, (ast.USub, ast.UAdd)) else node
    if not isinstance(inner, ast.Constant) or type(inner.value) not in \
            (int, float, complex, str, bool, type(None)) or \
            inner is not node and type(inner.value) not in (int, float, complex):
        return _NOT_LITERAL
    value = ast.literal_eval(node)
    if isinstance(value, (float, complex)) and not math.isfinite(abs(value)):
        return _NOT_LITERAL             # its repr (`inf`) is no literal
    return value


def named_constants(numbered):
    """{name: literal} for each name the flat gradient's text binds exactly once, by
    `name = literal` (a number, signed too, a string, a bool or None), and never declares
    global or nonlocal: every read of it that runs sees that literal (`s = 0.7` before
    `f(w, scale=s)`)."""
    import ast
    tree = ast.parse("".join(_code_of(line) for line, _ in numbered))
    bound, declared, candidates = {}, set(), {}
    inner = {id(n) for top in tree.body for scope in ast.walk(top) if scope is not top and
             isinstance(scope, (ast.FunctionDef, ast.Lambda, ast.ClassDef))
             for n in ast.walk(scope)}            # (a nested def's `s = 0.7` is its own s)
    for node in ast.walk(tree):
        for name in _bound_names(node):
            bound[name] = bound.get(name, 0) + 1
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and id(node) not in inner:
            value = _literal(node.value, {})
            if value is not _NOT_LITERAL:
                candidates[node.targets[0].id] = value
    return {n: v for n, v in candidates.items() if bound.get(n) == 1 and n not in declared}


def _bound_names(node):
    """The names a node binds (a `del` binds none: a read after it fails, never sees
    another value); a def, class, import, parameter or `except ... as` twice over."""
    import ast
    if isinstance(node, ast.Name):
        return [node.id] if isinstance(node.ctx, ast.Store) else []
    if isinstance(node, ast.arg):
        return [node.arg] * 2
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]] * 2
    name = getattr(node, "name", None) or getattr(node, "rest", None)
    return [name] * 2 if isinstance(name, str) else []
