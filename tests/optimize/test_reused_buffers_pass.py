"""ReuseCutBuffers alone, on pullbacks written out by hand (and typed as reverse mode
builds them): each condition of
transform/optimize/reused_buffers.py is the one a variant breaks, and the pass must then
leave the code as it was. The base pullback, run, gives the same cotangent with and
without the rewrite; each variant is also run both ways where it runs at all."""
import gast
import numpy as np
import pytest

from runtime import generated_namespace
from transform.optimize.passes import TypedFacts, run_passes
from transform.optimize.reused_buffers import ReuseCutBuffers, reuse_buffers
from transform.ir.generated import SliceAdd, ZeroBuffer
from transform.ir import statements as ir
from transform.ir.lower_gast import to_gast
from transform.ir.statements import Accumulate
from transform.ir.vocabulary import Vocabulary

BASE = """\
def f_rrule(u, k):
    def pullback(g):
        du = g * 2.0
        dk = 0.0
        for _ in range(3):PRE
            dt1 = du[0:1]
            dt2 = du[1:3]
            dt3 = du[3:4]BETWEEN
            du = cotangent_zeros(u)
            if dt3 is not None:
                du[-1:] = dt3
            dk += np.vdot(dt2, u[1:3])
            dlap = dt2 * k
            du[1:3] = dt2
            du[:1] = dt1
            du[:2] += dlap
            AFTER
        return (du, dk)
    return (u, pullback)
"""


def source(pre="", between="", after="pass", **replace):
    pre, between = (text and "\n            " + text for text in (pre, between))
    text = BASE.replace("PRE", pre).replace("BETWEEN", between).replace("AFTER", after)
    for old, new in replace.items():
        text = text.replace(old, new)
    return text


class _Literals(gast.NodeTransformer):
    """`-1` as the compiler's IR holds it: one constant, not a negation of one."""

    def visit_UnaryOp(self, node):
        if isinstance(node.op, gast.USub) and isinstance(node.operand, gast.Constant):
            return gast.Constant(value=-node.operand.value, kind=None)
        return self.generic_visit(node)


def marked(text, shape=(4,), mark=(4,)):
    """Facts for the pullback in `text`, typed as reverse mode builds it (`ZeroBuffer`,
    `SliceAdd`, `Accumulate`s, typed `If`/`For`), its views of du marked as cut from an
    owned buffer; `.tree` the rrule it lowers back into."""
    names = Vocabulary(set())
    tree = _Literals().visit(gast.parse(text)).body[0]
    for n in gast.walk(tree):
        if isinstance(n, gast.Name) and n.id in ("cotangent_zeros",):
            n.role = n.id
            names.name(n.id)
        if isinstance(n, gast.Subscript) and isinstance(n.value, gast.Name) and \
                n.value.id == "du" and isinstance(n.ctx, gast.Load) and mark is not None:
            n.owned_cut = mark
    pullback = tree.body[0]
    facts = TypedFacts(_typed_block(pullback.body), names=names,
                       shape_of=lambda name: shape if name == "u" else None)
    facts.tree = tree
    return facts


def _typed_block(body):
    return [_typed(s) for s in body]


def _typed(s):
    """One statement of the hand-written pullback as the typed form holds it."""
    target = s.targets[0] if isinstance(s, gast.Assign) and len(s.targets) == 1 else \
        getattr(s, "target", None)
    if isinstance(s, (gast.Assign, gast.AugAssign)) and isinstance(target, gast.Subscript) \
            and getattr(target.value, "id", None) == "du":
        return SliceAdd("du", target.slice, s.value, isinstance(s, gast.Assign))
    if isinstance(s, gast.Assign) and isinstance(target, gast.Name):
        if isinstance(s.value, gast.Call) and getattr(s.value.func, "id", None) == \
                "cotangent_zeros":
            return ZeroBuffer(target.id, s.value.args[0].id)
        return Accumulate(target.id, s.value, "set")
    if isinstance(s, gast.AugAssign) and isinstance(target, gast.Name) and \
            isinstance(s.op, gast.Add):
        return Accumulate(target.id, s.value, "in_place")
    if isinstance(s, (gast.If, gast.For)):
        kind = ir.If if isinstance(s, gast.If) else ir.For
        return kind(s, _typed_block(s.body), _typed_block(s.orelse))
    if isinstance(s, gast.Return):
        return ir.Return(s)
    if isinstance(s, gast.Pass):
        return ir.Pass(s)
    return ir.NonDiff(s, None)


def rewritten(text, shape=(4,), mark=(4,)):
    facts = marked(text, shape, mark)
    run_passes([ReuseCutBuffers()], facts, check=True)
    facts.tree.body[0].body = to_gast(None, facts.backward, facts.names)
    return gast.unparse(gast.fix_missing_locations(facts.tree))


def run(text, u, g):
    namespace = dict(generated_namespace())
    exec(compile(text, "<test>", "exec"), namespace)
    return namespace["f_rrule"](u, 0.3)[1](g)


U = np.array([0.5, -1.0, 2.0, 0.25])
G = np.array([1.0, 2.0, -3.0, 0.5])


def test_base_is_rewritten_and_gives_the_same_cotangent():
    text = source()
    out = rewritten(text)
    assert reuse_buffers(marked(text)) == 1 and reuse_buffers(marked(text, mark=None)) == 0
    assert "du = reused_cotangent(du, u)" in out and "cotangent_zeros" not in out
    for gone in ("dt1 = ", "dt3 = ", "du[-1:] = dt3", "du[1:3] = dt2", "du[:1] = dt1"):
        assert gone not in out
    want, got = run(text, U, G), run(out, U, G)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]


def test_a_copy_of_a_view_written_back_goes_too():
    text = source(between="dt7 = dt2", **{"du[1:3] = dt2": "du[1:3] = dt7"})
    out = rewritten(text)
    assert "reused_cotangent" in out and "dt7" not in out
    np.testing.assert_array_equal(run(out, U, G)[0], run(text, U, G)[0])


# each variant breaks one condition: the pass leaves the code unchanged
VARIANTS = {
    "no mark": dict(mark=None),
    "mark of another shape": dict(mark=(5,)),
    "shape unknown": dict(shape=None),
    "view read after the first write": dict(after="dk += np.vdot(dt2, dt2)"),
    "view read before its binding": dict(pre="dk += np.vdot(dt2, dt2)"),
    "view passed to a call": dict(between="dk += float(np.max(dt2))"),
    "view indexed": dict(between="dk += dt2[0]"),
    "view captured by a lambda": dict(between="h = lambda: dt2 * 2.0"),
    "view bound twice": dict(between="dt2 = du[1:3]"),
    "buffer named between": dict(between="dk += np.vdot(du, du)"),
    "written back elsewhere": {"du[:1] = dt1": "du[:1] = dt3", "du[-1:] = dt3": "du[-1:] = dt1"},
    "a gap": {"du[:1] = dt1": "pass"},
    "written twice": {"du[:1] = dt1": "du[:1] = dt1\n            du[:1] = dt1"},
    "integer index for a slice": {"dt1 = du[0:1]": "dt1 = du[0]"},
    "a sum written back": {"du[:1] = dt1": "du[:1] = dt1 * 1.0"},
    "buffer read before the writes end": {"dlap = dt2 * k": "dlap = du[1:3] * k"},
    "a guard on is None": {"if dt3 is not None:": "if dt3 is None:"},
    "a guard on another name": dict(between="dz = None", **{"if dt3 is not None:":
                                                             "if dz is not None:"}),
    "a non-view written back": dict(between="dz = dt1 * 1.0", **{"du[:1] = dt1": "du[:1] = dz"}),
    "a view written into another array": dict(between="dq = np.zeros(4)",
                                              **{"du[1:3] = dt2": "dq[1:3] = dt2"}),
    "view stored in an attribute": dict(
        between="box = type('B', (), {})()\n            box.v = dt2",
        after="dk += np.vdot(box.v, box.v)"),
    "buffer captured by a lambda before": dict(pre="h = lambda du=du: du * 1.0",
                                               after="dk += float(np.sum(h()))"),
    "a view deleted": dict(after="del dt1"),
    "view read in the statement that writes": {"du[:2] += dlap": (
        "if dk is not None:\n                du[:2] += dlap\n"
        "                dk += np.vdot(dt2, dt2)")},
    "overlapping writes and a gap": {"dt1 = du[0:1]": "dt1 = du[0:2]",
                                     "du[:1] = dt1": "du[:2] = dt1", "du[-1:] = dt3": "pass"},
    "view read in a nested def": dict(between="def later(): return dt2 * 2.0",
                                      after="dk += float(np.sum(later()))"),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_is_left_alone(name):
    kwargs = dict(VARIANTS[name])
    options = {k: kwargs.pop(k) for k in ("mark", "shape") if k in kwargs}
    text = source(**kwargs)
    before = gast.unparse(gast.parse(text))
    assert rewritten(text, **options) == before.rstrip("\n") or \
        rewritten(text, **options).strip() == before.strip()
