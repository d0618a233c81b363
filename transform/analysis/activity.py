"""Stage 5, analyze: which values get adjoints, and which the tape must save.

Activity: a name is *varied* if it depends (through differentiable operations)
on a `wrt` input, *useful* if the output depends on it; only names that are
both (active) get adjoint code.

    def f(W, b, x):          wrt=("b",)
        z = W @ x            z: not varied  -> no adjoint
        h = z + b            h: active
        return np.sum(h)

To be recorded: the backward sweep runs in the forward's variable namespace
and restores overwritten values from the tape, so a name is saved only if the
backward sweep reads it (needed) and some assignment overwrites it
(assigned more than once, or inside a loop).
"""
import gast

from ..ir import statements as ir
from ..ir import templates
from ..ir.primitives import Prim
from ..ir.nodes import name_ids
from ..ir.typed import walk


def defined(s):
    """(names a typed statement defines, its Prim or None): an assignment's targets, the
    container an element store writes into, the list an append grows. A trip counter
    (`Count`) and a jump define none."""
    match s:
        case ir.SetItem():
            return [s.base.id], s.prim
        case ir.Append():
            return [s.acc.id], s.prim
        case ir.Simple(node=gast.Assign()):
            return target_names(s.node.targets[0]), s.prim
    return [], None


def target_names(target):
    if isinstance(target, gast.Name):
        return [target.id]
    if isinstance(target, (gast.Tuple, gast.List)):
        return [n for elt in target.elts for n in target_names(elt)]
    return []


def loop_element_targets(loop):
    """(sequence name, element target names) pairs whose elements carry derivatives."""
    if loop.iter_kind == "seq":
        return [(loop.seqs[0], target_names(loop.target))]
    if loop.iter_kind in ("enumerate", "items"):
        return [(loop.seqs[0], target_names(loop.target.elts[1]))]
    if loop.iter_kind == "zip":
        return [(seq, target_names(elt)) for seq, elt in zip(loop.seqs, loop.target.elts)]
    return []


def dependencies(body):
    """name -> set of names it depends on differentiably."""
    deps = {}
    for s, _ in walk(body):
        names, prim = defined(s)
        if prim is not None:
            sources = {a.id for _, a in prim.diff_inputs() if isinstance(a, gast.Name)}
            for name in names:
                deps.setdefault(name, set()).update(sources)
        if isinstance(s, ir.For):
            for seq, elts in loop_element_targets(s):
                for name in elts:
                    deps.setdefault(name, set()).add(seq)
    return deps


class Activity:
    def __init__(self, body, wrt, output):
        self.deps = dependencies(body)
        self.varied = self._varied(set(wrt))
        self.useful = self._useful(output)
        self.active = self.varied & self.useful

    def _varied(self, seeds):
        varied = set(seeds)
        changed = True
        while changed:
            changed = False
            for name, sources in self.deps.items():
                if name not in varied and sources & varied:
                    varied.add(name)
                    changed = True
        return varied

    def _useful(self, output):
        useful, work = set(), [output] if output else []
        while work:
            name = work.pop()
            if name in useful:
                continue
            useful.add(name)
            work.extend(self.deps.get(name, ()))
        return useful

    def is_active(self, name):
        return name in self.active

    def active_inputs(self, prim):
        """(param, atom name) pairs of `prim` whose atoms are active."""
        return [(p, a.id) for p, a in prim.diff_inputs()
                if isinstance(a, gast.Name) and a.id in self.active]


def needed_names(body, activity, shapes=None):
    """(names the backward sweep reads by value, names it reads only for their shape)."""
    needed, shape_only = set(), set()
    for s, _ in walk(body):
        names, _ = defined(s)
        if names and any(activity.is_active(n) for n in names):
            value, shape = statement_needs(s, names[0], activity, shapes)
            needed |= value
            shape_only |= shape
        match s:
            case ir.If(test=gast.Name(id=test)):
                needed.add(test)
            case ir.Loop():
                if s.count is not None:
                    needed.add(s.count)
                if isinstance(s, ir.For):
                    needed |= set(s.seqs)
    return needed, shape_only - needed


def statement_needs(s, target, activity, shapes=None):
    """(names read by value, names read only for their shape) by the backward form of
    the typed statement `s`, which defines the active name `target`."""
    if s.prim.cuts is not None:         # slices of g at known places (joins.py)
        return set(), set()
    match s:
        case ir.RuleCall(rule=rule, inputs=inputs):
            value, shape = set(), set()
            dropped = templates.dropped_params(rule, inputs, target, shapes)
            for param, _ in activity.active_inputs(s.prim):
                v, sh = templates.names_read(rule, param, dropped)
                value |= v
                shape |= sh
            return _atoms(s.prim, target, value), _atoms(s.prim, target, shape)
        case ir.Custom() | ir.Call():
            return {s.prim.pullback}, set()
        case ir.Append(method="extend", value=gast.Name(id=extended)):
            return set(), {extended}
        case ir.SetItem(index=index):
            # the stored value's cotangent is unbroadcast to its shape: in a loop each
            # iteration's value has its own shape (`q[k] = p[k] * 2.0` over a params dict)
            stored = {a for _, a in activity.active_inputs(s.prim)} - {target}
            if shapes is not None:      # a shape every definition agrees on need not be kept
                stored = {a for a in stored if shapes.cls.get(a, "own:").startswith("own:")}
            return name_ids(index), stored
    return set(), set()


def _atoms(prim, target, params):
    names = set()
    for param in params:
        if param == "ans":
            names.add(target)
        elif param in prim.inputs:
            name_ids(prim.inputs[param], into=names)
    return names


def pullback_name(s):
    """The name a callee call statement (a typed `Call` or `Custom`) binds its pullback
    to (chosen by the pipeline, free of the user's names)."""
    return s.prim.pullback


def assignment_counts(body):
    """name -> how many times it may be assigned (a site inside a loop counts twice)."""
    counts = {}
    for s, depth in walk(body):
        names, prim = defined(s)
        if isinstance(s, ir.Append):
            names = []                     # appends mutate, they do not rebind
        if isinstance(s, ir.For):
            # the header's own trips are restored from the iterable, not the tape: it
            # counts once, so a target is saved only if something else binds it too
            counts.update({n: counts.get(n, 0) + (2 if depth else 1)
                           for n in target_names(s.target)})
        if isinstance(s, (ir.Custom, ir.Call)):
            names = names + [s.prim.pullback]
        for name in names:
            counts[name] = counts.get(name, 0) + (2 if depth else 1)
    return counts


def saved_names(body, activity, params, shapes=None):
    """(names pushed by value, names pushed as shape-only stand-ins) before overwrites."""
    needed, shape_only = needed_names(body, activity, shapes)
    counts = assignment_counts(body)
    for p in params:
        if p in counts:
            counts[p] += 1
    overwritten = {n for n, c in counts.items() if c > 1}
    return needed & overwritten, shape_only & overwritten


def first_definitions(body, params):
    """Statements that bind a name for the first time, outside loops: nothing to save
    (the ids of their gast nodes)."""
    seen, first = set(params), set()
    for s, depth in walk(body):
        names, _ = defined(s)
        if isinstance(s, ir.For):
            names = target_names(s.target)
        if names and depth == 0 and not seen & set(names) and isinstance(s.node, gast.Assign):
            first.add(id(s.node))
        seen |= set(names)
    return first


__all__ = ["Activity", "saved_names", "walk", "defined", "target_names",
           "loop_element_targets", "pullback_name", "Prim"]
