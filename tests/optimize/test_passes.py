"""The optimiser's pass manager (transform/passes.py, the list in transform/optimize.py):
every pass declares what it needs, provides and keeps, shows a before/after example,
keeps the facts it claims to keep exact, and can run alone with gradients still right."""
import ast
import inspect
import sys

import gast
import numpy as np
import pytest

from tests.golden import functions as fx
from tests.golden.golden import optimiser
from tests.gradcheck import check_grad
from transform.optimize import optimize
from transform.api import _wrt_names, compiled, signature_of
from transform.optimize.passes import DERIVED, Facts, Pass, TypedFacts, run_passes
from transform.optimize.release import FillEmptyBlocks
from transform.optimize.resets import InlineForcedThunks
from transform.ir.lower_gast import to_gast
from transform.ir.nodes import load
from transform.ir import generated as gen
from transform.ir.statements import Accumulate, Return, mark_typed
from transform.ir.vocabulary import Vocabulary

PASSES = optimize.PASSES + optimize.FINISH      # the optimiser's, then the lowering's finish
FACT_NAMES = set(Facts.__dataclass_fields__) | {"pullback", "counts"}
TYPED_FACT_NAMES = set(TypedFacts.__dataclass_fields__) | {"lowered_reads"}  # the typed phase's


def vec(*shape):
    return np.linspace(-0.4, 0.8, int(np.prod(shape))).reshape(shape)


# (function, arguments) for every function of tests/golden/functions.py
INPUTS = [
    (fx.rebound, (0.7,)), (fx.sine_steps, (0.3,)), (fx.damped, (0.4,)),
    (fx.tanh_total, (vec(3),)), (fx.shifted_ratio, (0.3, 1.5)), (fx.scaled_steps, (0.5, 4)),
    (fx.tanh_layer_loop, (vec(3, 4), vec(3), vec(4), 3)),
    (fx.first_rows, (vec(3, 4), [vec(4), vec(4) + 1.0])), (fx.lazy_product, (vec(3), vec(3))),
    (fx.unused_steps, (0.2, 3)), (fx.two_sums, (vec(3), vec(3))),
    (fx.folded_loop, (0.13, vec(2))), (fx.second_difference, (vec(6),)),
    (fx.squares_total, (vec(4),)), (fx.self_product, (vec(3, 4), vec(4))),
    (fx.readable_sweep, (vec(3, 4), vec(4), vec(5))),
    (fx.mlp_loss, (vec(4, 5), vec(5), vec(5, 3), vec(3), vec(2, 4), np.eye(3)[[0, 2]])),
    (fx.rnn_loss, (vec(3, 3) * 0.5, vec(3, 2), vec(3), [vec(2), vec(2) * 2.0])),
    (fx.piecewise, (0.6,)), (fx.piecewise, (-0.6,)), (fx.newton_sqrt, (2.0,)),
    (fx.norm_of_squares, (vec(3) + 1.0,)), (fx.helper_call, (0.3,)),
    (fx.ridge, (vec(3), vec(4, 3), vec(4), 0.1)), (fx.running_product, (vec(3) + 1.0,)),
    (fx.softplus_sum, (vec(4),)), (fx.logistic_map, (3.2, 0.3, 4)),
    (fx.joined_steps, (vec(6) + 1.0, 0.2, 3)),
]


def test_the_optimiser_is_a_flat_list_of_passes():
    assert PASSES and all(isinstance(p, Pass) for p in PASSES)
    assert len({repr(p) for p in PASSES}) == len(PASSES)


@pytest.mark.parametrize("p", PASSES, ids=repr)
def test_pass_declares_facts_it_uses(p):
    held = TYPED_FACT_NAMES if p.phase == "typed" else FACT_NAMES
    for fact in p.needs + p.provides + p.keeps:
        assert fact in held, f"{p!r} names {fact!r}, which its phase's facts do not hold"
    assert set(p.keeps) <= set(DERIVED)


@pytest.mark.parametrize("p", PASSES, ids=repr)
def test_pass_docstring_shows_a_before_after_example(p):
    text = inspect.getdoc(type(p)) + (sys.modules[type(p).__module__].__doc__ or "")
    assert "->" in text, f"{p!r}: no `before -> after` example in its or its module's docstring"


PROVIDED = {f for p in PASSES for f in p.provides}


@pytest.mark.parametrize("p", PASSES, ids=repr)
def test_a_provided_fact_a_pass_needs_comes_from_an_earlier_pass(p):
    """(Run alone, the pass sees the fact's default, None, and falls back.)"""
    earlier = {f for q in PASSES[:PASSES.index(p)] for f in q.provides}
    assert set(p.needs) & PROVIDED <= earlier


def _marked(source):
    """An rrule parsed from text, its Names of compiler roles marked as the compiler's."""
    names = Vocabulary(set())
    tree = gast.parse(source).body[0]
    for n in gast.walk(tree):
        if isinstance(n, gast.Name) and n.id in ("unthunk", "Thunk", "pop", "tape"):
            n.role = n.id
            names.name(n.id)
    return tree, names


def _forced(source, names):
    """An expression parsed from text, the compiler's helpers in it marked."""
    expr = gast.parse(source).body[0].value
    for n in gast.walk(expr):
        if isinstance(n, gast.Name) and n.id in ("unthunk", "Thunk"):
            n.role = n.id
            names.name(n.id)
    return expr


def _lowered_text(body, names):
    module = gast.Module(body=to_gast(None, body, names), type_ignores=[])
    return gast.unparse(gast.fix_missing_locations(module)).strip()


def test_inline_forced_thunks_alone_golden():
    """Typed: in an Accumulate's value, a generated statement's field, a loop's header
    and a statement that keeps its node (the sweeps before they are lowered)."""
    names = Vocabulary(set())
    loop = gen.typed_for(gast.Name(id="i", ctx=gast.Store(), annotation=None,
                                   type_comment=None),
                         _forced("unthunk(Thunk(lambda s=s: s))", names),
                         [Accumulate("dy", _forced("unthunk(Thunk(lambda g=g: g + 1.0))",
                                                   names), "in_place")])
    ret = gast.Return(value=_forced("unthunk(Thunk(lambda dx=dx: (dx,)))", names))
    body = [Accumulate("dx", _forced("unthunk(Thunk(lambda g=g, x=x: g * x))", names), "set"),
            gen.Bind("t", _forced("2.0 * unthunk(Thunk(lambda x=x: x))", names)), loop,
            Return(ret)]
    run_passes([InlineForcedThunks()], TypedFacts(body), check=True)
    assert _lowered_text(body, names) == (
        "dx = g * x\n"
        "t = 2.0 * x\n"
        "for i in s:\n"
        "    dy += g + 1.0\n"
        "return (dx,)")


def test_inline_forced_thunks_keeps_a_thunk_whose_defaults_rename():
    names = Vocabulary(set())
    body = [Accumulate("dx", _forced("unthunk(Thunk(lambda g=x: g * 2.0))", names), "set")]
    run_passes([InlineForcedThunks()], TypedFacts(body))
    assert "Thunk(lambda g=x: g * 2.0)" in _lowered_text(body, names)


def test_a_typed_expression_pass_keeps_a_shared_list():
    """A generated statement's list field may be the list of a node a comment quotes:
    an element is replaced in it, the list is not replaced (helper_call's golden)."""
    names = Vocabulary(set())
    kept = load("t1")
    shared = [kept, _forced("unthunk(Thunk(lambda x=x: x))", names)]
    quoted = gast.Call(func=load("sq"), args=shared, keywords=[])
    s = gen.Generated(args=shared)
    run_passes([InlineForcedThunks()], TypedFacts([s]), check=True)
    assert s.args is shared and quoted.args is shared and shared[0] is kept
    assert gast.unparse(quoted).strip() == "sq(t1, x)"


@pytest.mark.parametrize("fn, args", INPUTS, ids=[f.__name__ for f, _ in INPUTS])
def test_kept_facts_are_exact_after_every_pass(monkeypatch, fn, args):
    monkeypatch.setattr(optimize, "CHECK_FACTS", True)
    names, _ = _wrt_names(fn, tuple(inspect.signature(fn).parameters))
    for policy in ("loop", "eager", "flat", "nested"):
        for signature in (None, signature_of(args)):
            with optimiser(PASSES):
                ast.parse(compiled(fn, names, policy, False, True, signature).source)


@pytest.mark.parametrize("p", PASSES, ids=repr)
@pytest.mark.parametrize("fn, args", INPUTS, ids=[f.__name__ for f, _ in INPUTS])
def test_each_pass_alone_keeps_gradients_right(p, fn, args):
    """A pass may leave a block of comments only; FillEmptyBlocks makes it valid."""
    with optimiser([p, FillEmptyBlocks()]):
        check_grad(fn, args, policy="loop")


def _corpus():
    from tests.corpus.case import all_cases
    return [c for c in all_cases() if not c.refused]


@pytest.mark.parametrize("case", _corpus(), ids=lambda c: c.name)
def test_kept_facts_are_exact_on_the_corpus(monkeypatch, case):
    monkeypatch.setattr(optimize, "CHECK_FACTS", True)
    names, _ = _wrt_names(case.fn, case.wrt if case.wrt is not None else 0)
    for policy, signature in (("loop", signature_of(case.inputs())), ("eager", None)):
        with optimiser(PASSES):
            compiled(case.fn, names, policy, False, True, signature)


class _Rewrite(Pass):
    """Turns the accumulation `dx = dx + e` into `dx = 1.0 + e`; re-marks it if asked."""

    def __init__(self, remark):
        self.remark = remark

    def run(self, facts):
        [s] = [s for s in facts.pullback.body if isinstance(facts.typed(s), Accumulate)]
        s.value.left = gast.Constant(value=1.0, kind=None)
        if self.remark:
            mark_typed(s, None)


@pytest.mark.parametrize("remark", [False, True])
def test_a_pass_must_keep_a_typed_statement_in_step(remark):
    """Passes match Push/Pop/Accumulate (facts.typed): the checked run fails a pass that
    changes such a statement's shape and does not re-mark it."""
    tree, names = _marked(
        "def f_rrule(x):\n"
        "    def pullback(g):\n"
        "        dx = g\n"
        "        return (dx,)\n"
        "    return (x, pullback)\n")
    pullback = tree.body[0]
    value = gast.BinOp(left=load("g"), op=gast.Mult(), right=load("x"))
    [node] = to_gast(None, [Accumulate("dx", value, "sum")], names)
    pullback.body.insert(1, gast.copy_location(node, pullback.body[0]))
    assert gast.unparse(pullback.body[1]).strip() == "dx = dx + g * x"
    facts = Facts.of(tree, names)
    if remark:
        run_passes([_Rewrite(True)], facts, check=True)
        assert facts.typed(pullback.body[1]) is None
    else:
        with pytest.raises(AssertionError, match="out of step"):
            run_passes([_Rewrite(False)], facts, check=True)
