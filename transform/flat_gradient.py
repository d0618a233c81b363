"""Reverse mode's gradient as one plain function, for forward mode to compile (hvp's
forward-over-reverse route, transform/hessians.py).

    def f_rrule(W, x):                         def f_grad(W, x):
        h = np.tanh(W @ x)                         h = np.tanh(W @ x)
        t3 = np.sum(h ** 2)                        t3 = np.sum(h ** 2)
        def pullback(dt3):              ->         dt3 = gradient_seed(t3)
            dh = ...                               dh = ...
            return (dW,)                           return gradient_of(dW, W)
        return (t3, pullback)

The backward sweep runs right after the forward one, so the pullback's captured
defaults (`*, i=i`) are the names' values where the def stood and its closure reads
the same: the flat function computes what grad computes. The tape is read by position
(`pop = tape_reader(tape)`, `t1 = pop()` become `tape_top = len(tape)`, `tape_top =
tape_top - 1`, `t1 = tape[tape_top]`), so forward mode carries the tape's tangent list
beside it (a value `pop()` called would have no tangent). The text keeps the rendered
comments; it is registered with linecache like all generated code.
"""
import ast
import re

from runtime.accumulate import accum_eager
from runtime.containers import getitem_vjp
from runtime.helpers import unbroadcast
from runtime.flat import accumulated_at, gradient_of, gradient_seed, item_split, lhs_products, \
    shape_snapshot

from .emit import tracebacks
from .flat_calls import calls_flattened
from .flat_loops import header_counted
from .errors import TransformError


def flat_gradient(rule, plain, names, seeded=False):
    """The plain function `<name>_grad(args)` computing `rule`'s gradient (reverse mode's
    compiled rule of `plain` for the parameters `names`): the gradient for one name, a
    tuple for several. Refused (a TransformError at plain's def) for a rule of another
    shape. seeded: the output's cotangent is the keyword-only parameter `thunkgrad_g`
    (a callee's VJP, transform/flat_calls.py), `<name>_vjp`."""
    rrule = rule.rrule
    cells = dict(zip(rrule.__code__.co_freevars,
                     [c.cell_contents for c in rrule.__closure__ or ()]))
    try:
        numbered, name = _flat_lines(rule, names, seeded)
        numbered, called = calls_flattened(numbered, cells, _NotFlat)
    except _NotFlat as exc:
        raise _refused(plain, str(exc)) from None
    ours = {"gradient_seed": gradient_seed, "gradient_of": gradient_of,
            "accum_eager": accum_eager, "accumulated_at": accumulated_at,
            "lhs_products": lhs_products, "item_split": item_split,
            "getitem_vjp": getitem_vjp, "unbroadcast": unbroadcast,
            "shape_snapshot": shape_snapshot, **called}
    clash = sorted(n for n, v in ours.items() if n in cells and cells[n] is not v)
    if clash:       # a name of reverse mode's code another helper of ours would shadow
        raise _refused(plain, f"its gradient's code names `{clash[0]}` as another helper")
    helpers = {**cells, **ours}
    params = sorted(set(helpers) & _words("".join(t for t, _ in numbered)))
    header = f"# thunkgrad: gradient of {plain.__qualname__} in one sweep " \
        f"(wrt={', '.join(names)}; forward over reverse)\n"
    text = header + "".join(t for t, _ in numbered)
    factory = f"def thunkgrad_factory({', '.join(params)}):  {header}" + \
        "".join(" " + t if t.strip() else t for t, _ in numbered) + f" return {name}\n"
    filename = rule.filename[:-1] + " flat>"
    namespace = {}
    exec(compile(factory, filename, "exec", dont_inherit=True), rrule.__globals__, namespace)
    fn = namespace["thunkgrad_factory"](*[helpers[p] for p in params])
    fn.__defaults__, fn.__kwdefaults__ = rrule.__defaults__, rrule.__kwdefaults__
    fn.__qualname__ = name
    origins = {k + 2: line for k, (_, line) in enumerate(numbered) if line}
    tracebacks.register(rrule, filename, factory, origins)
    tracebacks.hold(fn, [filename])
    fn.thunkgrad_flat_source = text
    fn.thunkgrad_flat = True
    return fn


class _NotFlat(Exception):
    pass


def _flat_lines(rule, names, seeded=False):
    """([(line, the rule's line it comes from or None)], the function's name)."""
    source = rule.source
    if '"""' in source or "'''" in source:
        raise _NotFlat("its gradient's code holds a multi-line string")
    lines = list(enumerate(source.splitlines(True), 1))
    top = ast.parse(source).body[0]
    *_, last = top.body
    pullback = _pullback(top, last)
    if pullback is None:
        raise _NotFlat("its gradient's code does not end in one pullback")
    ret = pullback.body[-1]
    if not isinstance(ret, ast.Return) or any(isinstance(n, ast.Return) for s in
                                              pullback.body[:-1] for n in ast.walk(s)):
        raise _NotFlat("its backward sweep does not end in its one return")
    name = (top.name[:-len("_rrule")] if top.name.endswith("_rrule") else top.name) + \
        ("_vjp" if seeded else "_grad")
    out = [(f"def {name}{_signature(lines[top.lineno - 1][1], top, seeded)}", None)]
    out += _dedented(lines[top.body[0].lineno - 1:pullback.lineno - 1], 4, 4)
    out += [(f"    {n} = {ast.unparse(d)}\n", None) for n, d in _captured(pullback)
            if n != ast.unparse(d)]
    seed = pullback.args.args[0].arg
    seeded_by = "thunkgrad_g" if seeded else f"gradient_seed({ast.unparse(last.value.elts[0])})"
    out.append((f"    {seed} = {seeded_by}\n", None))
    backward = _dedented(lines[_first_line(lines, pullback) - 1:ret.lineno - 1], 8, 4)
    out += _pops_fresh(backward, _words(source))
    out.append((f"    return {_returned(ret.value, names)}\n", None))
    return _products_unbatched(_entries_unviewed([(_fresh_sums(t), k) for t, k in
                                                  _tape_by_position(out)])), name


_READ = re.compile(r"^(\s*)(\w+) = (\w+\[.*\])$")


def _entries_unviewed(numbered):
    """`t = d[k]` and `t = unviewed(t)` as `t = unviewed(d[k])`: the alias check then
    sees the entry (a view's copy, or the entry itself), never the container d."""
    out = []
    for line, k in numbered:
        code = _code(line)
        read = _READ.match(out[-1][0].rstrip("\n")) if out else None
        if read and code == f"{read.group(1)}{read.group(2)} = unviewed({read.group(2)})":
            out[-1] = (f"{read.group(1)}{read.group(2)} = unviewed({read.group(3)})\n", k)
            continue
        out.append((line, k))
    return out


def _signature(header, top, seeded):
    """The rule's `(x, y):` (seeded: with the keyword-only `thunkgrad_g` added)."""
    text = header[header.index("("):]
    if not seeded:
        return text
    args = top.args
    if args.vararg or args.kwarg or not text.rstrip().endswith("):"):
        raise _NotFlat("a callee taking *args or **kwargs")
    star = ", " if args.kwonlyargs else (", *, " if args.args or args.posonlyargs else "*, ")
    return text.rstrip()[:-2] + star + "thunkgrad_g):\n"


def _pullback(top, last):
    """The nested def the rule returns: `return (out, pullback)`."""
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Tuple) and
            len(last.value.elts) == 2 and isinstance(last.value.elts[1], ast.Name)):
        return None
    found = [s for s in top.body if isinstance(s, ast.FunctionDef) and
             s.name == last.value.elts[1].id]
    return found[0] if len(found) == 1 and top.body[-2] is found[0] else None


def _dedented(chunk, indent, keep):
    out = []
    for k, line in chunk:
        if line.strip() and not line.startswith(" " * indent):
            raise _NotFlat("its gradient's code is laid out unexpectedly")
        out.append((" " * keep + line[indent:] if line.strip() else line, k))
    return out


def _first_line(lines, pullback):
    """The line after the pullback's `def` (comments before its first statement too)."""
    k = pullback.lineno
    while not lines[k - 1][1].rstrip().endswith(":"):
        k += 1
    return k + 1


def _captured(pullback):
    args = pullback.args
    return [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]


def _returned(value, names):
    parts = value.elts if isinstance(value, ast.Tuple) else None
    if parts is None or len(parts) != len(names):
        raise _NotFlat("its pullback returns no tuple of the gradients")
    made = [f"gradient_of({ast.unparse(p)}, {n})" for p, n in zip(parts, names)]
    return made[0] if len(made) == 1 else "(" + ", ".join(made) + ")"


_READER = re.compile(r"^(\s*)(\w+) = tape_reader\((\w+)\)\s*(#.*)?$")


def _tape_by_position(numbered):
    """`pop = tape_reader(tape)` and `x = pop()` read the tape by position."""
    out, reader, tape, top = [], None, None, None
    taken = _words("".join(_code(line) for line, _ in numbered))
    for line, k in numbered:
        indent = line[:len(line) - len(line.lstrip())]
        found = _READER.match(line.rstrip("\n"))
        if found:
            reader, tape = found.group(2), found.group(3)
            top = f"{tape}_top"
            while top in taken:             # a name of the user's
                top += "_"
            out.append((f"{indent}{top} = len({tape})\n", k))
            continue
        code = _code(line).strip()
        counted = header_counted(_code(line), k, reader, tape, top, taken)
        if counted is not None:
            out += counted
        elif reader and re.fullmatch(rf"(\w+) = {reader}\(\)", code):
            target = code.split("=")[0].strip()
            out += [(f"{indent}{top} = {top} - 1\n", k), (f"{indent}{target} = {tape}[{top}]\n", k)]
        elif reader and re.fullmatch(rf"del (\w+, )*{reader}", code):
            if code != f"del {reader}":
                out.append((f"{indent}{code[:-len(reader) - 2]}\n", k))
        elif reader and reader in _bare_names(code):
            raise _NotFlat(f"its backward sweep reads the tape as `{code}`")
        else:
            out.append((line, k))
    return out


def _bare_names(code):
    """The names in code not read as an attribute (`dxs.pop()` is not the reader `pop`)."""
    return set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", code))


_POP = re.compile(r"(?<![\w.])(\w+)\.pop\(\)")


def _pops_fresh(numbered, taken):
    """The backward sweep's `dxs.pop()` of a list it owns (a cotangent list after
    `own`, a primal list it copied) as a fresh shorter list: `t = dxs[-1]`, `dxs =
    dxs[:-1]`. Forward mode's tangent of a list may be another list's tangent, which
    a pop in place would change (and its alias check refuses the pop)."""
    out = []
    for line, k in numbered:
        code = _code(line)
        found = _POP.findall(code)
        if len(found) != 1:
            out.append((line, k))
            continue
        indent, name = code[:len(code) - len(code.lstrip())], found[0]
        if code.strip() == f"{name}.pop()":
            out.append((f"{indent}{name} = {name}[:-1]\n", k))
            continue
        simple = re.fullmatch(rf"(\w+) = {name}\.pop\(\)", code.strip())
        if simple:
            out += [(f"{indent}{simple.group(1)} = {name}[-1]\n", k),
                    (f"{indent}{name} = {name}[:-1]\n", k)]
            continue
        last = f"{name}_last"
        while last in taken:
            last += "_"
        out += [(f"{indent}{last} = {name}[-1]\n", k), (f"{indent}{name} = {name}[:-1]\n", k),
                (_POP.sub(last, code) + "\n", k)]
    return out


_AUGMENTED = re.compile(r"^(\s*)(\w+) \+= (.+)$")
_IN_PLACE = re.compile(r"\b(accumulate_into|accumulate_at|accum)\(")


def _fresh_sums(line):
    """The in-place accumulations written as fresh sums: a buffer's tangent may be
    another value's (forward mode's `y_dot = c_dot`), which an in-place add would change."""
    code = _code(line)
    rest = line[len(code):]                     # the comment, the line's end
    added = _AUGMENTED.match(code)
    if added:                   # `dx += e`: a buffer reverse mode owns, summed afresh
        code = f"{added.group(1)}{added.group(2)} = {added.group(2)} + ({added.group(3)})"
    code = _SPLIT.sub(r"item_split(\1)", code)      # a copy, never dx zeroed in place
    code = _SNAPSHOT.sub("shape_snapshot(", code)   # a list's or dict's own copy
    if "accumulate_unbroadcast(" in code or "accumulate_slice(" in code:
        code = _unbroadcast_fresh(code)
    return _IN_PLACE.sub(lambda m: _FRESH[m.group(1)] + "(", code) + rest


def _unbroadcast_fresh(code):
    """`accumulate_unbroadcast(dx, g, x, side)` and `accumulate_slice(dx, g, x, index)`
    (in place into dx) as the fresh sums `accum_eager(dx, unbroadcast(g, x, side))` and
    `accum_eager(dx, getitem_vjp(g, x, index))` (what each computes, without the add in
    place: both have rules with JVPs, runtime/rules/reverse_code.py)."""
    indent = code[:len(code) - len(code.lstrip())]
    try:
        tree = ast.parse(code.strip())
    except SyntaxError:
        raise _NotFlat(f"its backward sweep adds in place as `{code.strip()}`") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in _SUMMED and not node.keywords:
            buffer, *rest = node.args
            inner = _SUMMED[node.func.id]
            node.func.id = "accum_eager"
            node.args = [buffer, ast.Call(ast.Name(inner), rest, [])]
    return indent + ast.unparse(tree)


_SUMMED = {"accumulate_unbroadcast": "unbroadcast", "accumulate_slice": "getitem_vjp"}
_SNAPSHOT = re.compile(r"(?<![\w.])shape_only\(")
_SPLIT = re.compile(r"\bsetitem_vjp\((.+?), (?:True|False)\)")


_FRESH = {"accumulate_into": "accum_eager", "accumulate_at": "accumulated_at",
          "accum": "accum_eager"}


_BATCH = re.compile(r"^(\s*)(\w+) = MatmulLhsSum\((.+)\)$")


def _products_unbatched(numbered):
    """A backward loop's batched outer products (`P = MatmulLhsSum(a)`, `P.add(g, b)`,
    `P.total()`, transform/optimize) as two lists and `lhs_products(P_gs, P_bs, a)`,
    one stacked product: forward mode has no tangent for the batch object, and carries
    the lists' tangents."""
    out, batches = [], {}
    for line, k in numbered:
        code = _code(line).rstrip()
        found = _BATCH.match(code)
        if found:
            indent, name, a = found.groups()
            batches[name] = a
            out.append((f"{indent}{name}_gs, {name}_bs = [], []\n", k))
            continue
        for name, a in batches.items():
            add = re.fullmatch(rf"(\s*){name}\.add\((.+)\)", code)
            if add:
                g, b = (ast.unparse(e) for e in ast.parse(f"f({add.group(2)})").body[0].value.args)
                code = f"{add.group(1)}{name}_gs.append({g})\n{add.group(1)}{name}_bs.append({b})"
            code = code.replace(f"{name}.total()", f"lhs_products({name}_gs, {name}_bs, {a})")
            code = re.sub(rf"^(\s*)del {name}$", rf"\1del {name}_gs, {name}_bs", code)
            if re.search(rf"\b{name}\b", code.replace(f"{name}_gs", "").replace(f"{name}_bs", "")):
                raise _NotFlat(f"its backward sweep uses batched products as `{code.strip()}`")
        if code == _code(line).rstrip():
            out.append((line, k))
        else:
            out += [(part + "\n", k) for part in code.split("\n")]
    return out


def _code(line):
    """The line without its rendered comment (a line of its own, or after two spaces:
    a `#` inside a string literal is code)."""
    if line.lstrip().startswith("#"):
        return line[:len(line) - len(line.lstrip())]
    at = line.rfind("  # ")
    return line[:at] if at >= 0 else line.rstrip("\n")


def _words(text):
    return set(re.findall(r"[A-Za-z_]\w*", text))


def _refused(plain, what):
    code = plain.__code__
    return TransformError(f"hvp (forward over reverse) of {plain.__qualname__}: {what} is "
                          "not one plain sweep", filename=code.co_filename,
                          line=code.co_firstlineno, hint="use route='reverse_over_forward'")
