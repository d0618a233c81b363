"""The checkpointed_loops class (issue 21): programs with `for` loops, the loops marked
`checkpointed(..., snapshots=s[, chunk=k])`, judged against the unmarked program.

    for t in range(3):               ->   for t in checkpointed(range(3), snapshots=2, chunk=2):
        u = np.tanh(u * x) + 0.5 * t          u = np.tanh(u * x) + 0.5 * t

Half the programs are another class's (one with a `for` loop: loop_carried, tuple_helpers,
loop_targets, element_stores, calls, ...) with their loops marked (mark()); the rest are
written here (gen_checkpoint_steps.py): loops over ranges, lists and matrix rows, nested
loops (the outer one marked, the inner sometimes), helpers called in the body, element
writes into carried arrays, dict and list carries, and random draws in the body (which
must be refused: Case.must_refuse). The oracle (oracle.py, checkpoint_reference.py)
requires the primal's finite-difference gradient under every policy and the unmarked
program's compiled gradient to 1e-12, or a refusal.
"""
import ast
import random

from . import gen_checkpoint_steps

MARKER_IMPORT = "from transform import checkpointed"
BASES = ("loop_carried", "tuple_helpers", "loop_targets", "element_stores", "array_lists",
         "calls", "idioms", "closures", "user_objects", "tensors", "grammar")
_UNSIZED = ("enumerate", "zip", "reversed", "map", "filter", "iter", "sorted")


def checkpointed_loops(g, seed):
    if g.chance(0.5):
        case = _from_base(seed)
        if case is not None:
            return case
    return gen_checkpoint_steps.program(g, seed, mark)


def _from_base(seed):
    """Another class's program with a `for` loop, its loops marked (None if none of a
    few draws has one)."""
    from .classes import make_case
    draw = random.Random(f"checkpointed-base-{seed}")
    for attempt in range(4):
        base = draw.choice(BASES)
        case = make_case(base, draw.randrange(10 ** 8))
        if case.data or case.options or case.raises:
            continue
        marked, productions = mark(case.source, draw)
        if marked is None:
            continue
        case.reference_source, case.source = case.source, marked
        case.input_seed = case.seed if case.input_seed is None else case.input_seed
        case.productions = case.productions | productions | {f"checkpointed_base:{base}"}
        case.cls, case.seed = "checkpointed_loops", seed     # (probe_source: the same margins)
        return case
    return None


def mark(source, rng, rate=0.85):
    """(source with some `for` loops marked, productions), or (None, ()) when no loop
    was marked. Loops over enumerate/zip/... and with tuple targets are marked rarely
    (refused by design); ranges get chunk=k one time in three."""
    tree = ast.parse(source)
    edits, used = [], set()
    for node in _loops(tree):
        plain = isinstance(node.target, ast.Name) and not _unsized(node.iter)
        if not rng.random() < (rate if plain else 0.1):
            continue
        edits.append((node.iter, _marker(source, node.iter, rng, used)))
        used.add("checkpointed_loop" if plain else "checkpointed_refused_form")
        if any(node is not n and isinstance(n, ast.For) for n in ast.walk(node)):
            used.add("checkpointed_outer_loop")
    if not edits:
        return None, frozenset()
    lines = source.splitlines(keepends=True)
    for node, text in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset),
                             reverse=True):
        _splice(lines, node, text)
    return MARKER_IMPORT + "\n" + "".join(lines), frozenset(used)


def _loops(tree):
    """`for` statements in the module's functions (f's and helpers'), outer first."""
    return [n for fn in tree.body if isinstance(fn, ast.FunctionDef)
            for n in ast.walk(fn) if isinstance(n, ast.For)]


def _unsized(node):
    return isinstance(node, ast.GeneratorExp) or isinstance(node, ast.Call) and \
        isinstance(node.func, ast.Name) and node.func.id in _UNSIZED


def _marker(source, node, rng, used):
    iterable = ast.get_source_segment(source, node)
    s = rng.choice((1, 1, 2, 2, 3, 5))
    snapshots = rng.choice((f"snapshots={s}", f"snapshots={s}", str(s)))
    text = f"checkpointed({iterable}, {snapshots}"
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "range" and \
            snapshots.startswith("snap") and rng.random() < 0.35:
        text += f", chunk={rng.choice((2, 3))}"
        used.add("checkpointed_chunk")
    return text + ")"


def _splice(lines, node, text):
    """Replace node's text (it may span lines) by `text`."""
    first, last = node.lineno - 1, node.end_lineno - 1
    head = lines[first][:_col(lines[first], node.col_offset)]
    tail = lines[last][_col(lines[last], node.end_col_offset):]
    lines[first:last + 1] = [head + text + tail]


def _col(line, offset):
    """A character index from ast's UTF-8 byte offset."""
    return len(line.encode()[:offset].decode())
