"""Backward loop headers in reverse mode's flat gradient (hvp forward over reverse,
transform/flat_gradient.py) written as loops forward mode walks: a counted loop reading
its entries by position, as the flat gradient reads the tape.

    for y in popped(pop, len(steps1)):          for tape_k1 in range(len(steps1)):
                                         ->         tape_top = tape_top - 1
                                                    y = tape[tape_top]
    for k, v in reversed_enumerate(xs, n):      for k1 in range(n - 1, -1, -1):
                                         ->         k, v = (k1 + 0, xs[k1],)

A header `zip(H, popped(pop, None))` pops one entry per item of H (zip stops at H's
end before taking another); `reversed_prefix(s, n)` and `reversed_zip(n, *s)` are read
the same way (`s[k]`), lazily, as they read lists in place; `list(enumerate(s))` and
`list(zip(a, b))` from snapshots `list(s)`. Forward mode then carries the tape's and
the sequences' tangents by position (getitem is linear)."""
import ast


def header_counted(line, k, reader, tape, top, taken):
    """[(line, k)] for a backward loop's header written as a counted loop and its body's
    first lines, or None for a line that is no such header (reader: the tape reader's
    name, `pop`, or None when there is no tape; top: the tape position's name)."""
    loop = _header(line.rstrip("\n"))
    if loop is None:
        return None
    indent = line[:len(line) - len(line.lstrip())]
    body = indent + "    "
    target, header, first = loop.target, loop.iter, []
    if reader is not None:
        target, header, first = _popped(target, header, reader, tape, top, taken, body)
    before, target, header, more = _reversed(target, header, taken, indent, body)
    if target is loop.target and header is loop.iter:
        return None
    if reader is not None and reader in _names(header):
        return None
    head = f"{indent}for {ast.unparse(target)} in {ast.unparse(header)}:"
    return [(f"{text}\n", k) for text in before + [head] + more + first]


def _header(line):
    code = line.strip()
    if not (code.startswith("for ") and code.endswith(":")):
        return None
    try:
        loop = ast.parse(code + "\n    pass").body[0]
    except SyntaxError:
        return None
    return loop if isinstance(loop, ast.For) and not loop.orelse else None


def _popped(target, header, reader, tape, top, taken, body):
    """(target, header, the body's first lines) for a header taking tape entries."""
    pop = [f"{body}{top} = {top} - 1"]
    if _is_popped(header, reader) and header.args[1:] and not _none(header.args[1]):
        count = _fresh("tape_k", taken)
        entry = ast.unparse(target)
        return ast.Name(count), _call("range", header.args[1]), \
            pop + [f"{body}{entry} = {tape}[{top}]"]
    if _call_of(header, "zip") and len(header.args) == 2 and \
            _is_popped(header.args[1], reader) and _none_or_missing(header.args[1]) and \
            isinstance(target, ast.Tuple) and len(target.elts) == 2:
        entry = ast.unparse(target.elts[1])
        return target.elts[0], header.args[0], pop + [f"{body}{entry} = {tape}[{top}]"]
    return target, header, []


def _reversed(target, header, taken, indent, body):
    """(target, header, the body's first lines) for reversed_prefix, reversed_enumerate
    and reversed_zip headers: a countdown reading the sequences by position."""
    if _call_of(header, "reversed_prefix") and len(header.args) == 2:
        seqs, n, start = header.args[:1], header.args[1], None
    elif _call_of(header, "reversed_enumerate") and len(header.args) in (2, 3):
        seqs, n = header.args[:1], header.args[1]
        start = header.args[2] if len(header.args) == 3 else ast.Constant(0)
    elif _call_of(header, "reversed_zip") and len(header.args) >= 2:
        seqs, n, start = header.args[1:], header.args[0], None
    else:
        return [], target, header, []
    before, items = [], []
    k = _fresh("k", taken)
    for s in seqs:              # evaluated once, before the loop, as the helpers do
        items.append(_item(s, k, taken, indent, before))
    if _call_of(header, "reversed_enumerate"):
        items = [f"{k} + {ast.unparse(start)}"] + items
    value = items[0] if _call_of(header, "reversed_prefix") else f"({', '.join(items)},)"
    countdown = ast.parse(f"range({ast.unparse(n)} - 1, -1, -1)").body[0].value
    return before, ast.Name(k), countdown, [f"{body}{ast.unparse(target)} = {value}"]


def _item(seq, k, taken, indent, before):
    """Entry k of seq, read by position: a name's `s[k]`; `list(enumerate(s, start))`
    and `list(zip(a, b))` (a backward walk over enumerate's or zip's items) from
    snapshots `list(s)` of their sequences (forward mode takes neither outside a
    loop's header); any other expression from its value, kept in a fresh name."""
    if _call_of(seq, "list") and len(seq.args) == 1 and \
            (_call_of(seq.args[0], "enumerate") and len(seq.args[0].args) in (1, 2) or
             _call_of(seq.args[0], "zip") and seq.args[0].args):
        inner = seq.args[0]
        parts = inner.args[:1] if inner.func.id == "enumerate" else inner.args
        read = [_item(_snapshot(p), k, taken, indent, before) for p in parts]
        if inner.func.id == "enumerate":
            start = ast.unparse(inner.args[1]) if len(inner.args) == 2 else "0"
            read = [f"{k} + {start}"] + read
        return f"({', '.join(read)},)"
    if isinstance(seq, ast.Name):
        return f"{seq.id}[{k}]"
    name = _fresh("seq_k", taken)
    before.append(f"{indent}{name} = {ast.unparse(seq)}")
    return f"{name}[{k}]"


def _snapshot(seq):
    """`list(s)`, but a range as it is: enumerate's counter is zipped as the unbounded
    `range(0, 2 ** 62)` (a list of it never ends), and a range reads by position."""
    if isinstance(seq, ast.Name):
        return ast.parse(f"{seq.id} if type({seq.id}) is range else list({seq.id})",
                         mode="eval").body
    return _call("list", seq)


def _is_popped(node, reader):
    return _call_of(node, "popped") and node.args and \
        isinstance(node.args[0], ast.Name) and node.args[0].id == reader and \
        len(node.args) <= 2 and not node.keywords


def _none_or_missing(node):
    return len(node.args) == 1 or _none(node.args[1])


def _none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _call_of(node, name):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == name and not node.keywords and \
        not any(isinstance(a, ast.Starred) for a in node.args)


def _call(name, *args):
    return ast.Call(func=ast.Name(name), args=list(args), keywords=[])


def _names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _fresh(stem, taken):
    k = 1
    while f"{stem}{k}" in taken:
        k += 1
    taken.add(f"{stem}{k}")
    return f"{stem}{k}"
