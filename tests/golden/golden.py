"""Golden texts of generated code: for each optimiser pass and each step of the closure
lowering's finish (optimize.FINISH), a small function's adjoint just before it and just
after it (the pipeline's passes and steps up to it run first), and
about ten whole adjoints a reviewer can read. (InlineForcedThunks, which no corpus
function reaches any more, has its golden on a hand-written rrule in
tests/optimize/test_passes.py.) The texts are checked in under
tests/golden/passes/ and tests/golden/adjoints/; `python -m tests.golden.regen` rewrites
them, deliberately, after a change of generated code (review the diff it leaves)."""
import contextlib
import pathlib
import weakref
from dataclasses import dataclass

import numpy as np

from tests.golden import functions as fx
from transform.emit import emit
from transform.optimize import optimize
from transform.public import cache
from transform.errors import TransformError
from transform.api import _wrt_names, compiled, signature_of

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@dataclass
class Golden:
    """A function compiled for `wrt` under `policy`, specialised to `args`' shapes
    when args are given (general rule otherwise)."""
    name: str
    fn: object
    wrt: object
    policy: str = "loop"
    args: tuple = None

    def header(self, what):
        rule = "specialised to its arguments' shapes" if self.args else "general rule"
        return (f"# {what}\n# function: tests/golden/functions.py:{self.fn.__name__}, "
                f"wrt={self.wrt!r}, policy={self.policy}, {rule}\n"
                f"# regenerate deliberately: python -m tests.golden.regen\n")


def _vec(*shape):
    return np.linspace(0.1, 0.9, int(np.prod(shape))).reshape(shape)


PASS_GOLDENS = [
    Golden("DropDeadResets", fx.rebound, "x"),
    Golden("DropOverwrittenResets", fx.sine_steps, "x"),
    Golden("PropagateCopies", fx.shifted_ratio, ("x", "y")),
    Golden("FoldConstants", fx.squares_total, "h"),
    Golden("MergeLikeTerms", fx.self_product, "W"),
    Golden("FusePullback", fx.damped, "x"),
    Golden("FuseForward", fx.damped, "x"),
    Golden("FoldNegations", fx.second_difference, "u", args=(_vec(6),)),
    Golden("DropSpreads", fx.tanh_total, "a"),
    Golden("WriteOutUnbroadcasts", fx.pair_forces, ("q", "m"), args=(_vec(4, 3), _vec(4))),
    Golden("SpreadViews", fx.pair_forces, ("q", "m"), args=(_vec(4, 3), _vec(4))),
    Golden("HoistPops", fx.sine_steps, "x"),
    Golden("BatchProducts", fx.tanh_layer_loop, "W"),
    Golden("DropDeadSaves", fx.first_rows_complex, "W", args=(_vec(3, 4), [_vec(4), _vec(4)])),
    Golden("HoistFactors", fx.tanh_layer_loop, "b", args=(_vec(3, 4), _vec(3), _vec(4), 5)),
    Golden("ReuseCutBuffers", fx.joined_steps, ("u", "k"), args=(_vec(6), 0.2, 3)),
    Golden("FillEmptyBlocks", fx.folded_loop, ("x0", "a0"), args=(0.13, _vec(2))),
    Golden("ReleaseTemporaries", fx.two_sums, ("x", "W")),
]

ADJOINT_GOLDENS = [
    Golden("mlp_loss", fx.mlp_loss, ("W1", "b1", "W2", "b2")),
    Golden("rnn_loss", fx.rnn_loss, ("Wh", "Wx", "b")),
    Golden("piecewise", fx.piecewise, "x"),
    Golden("newton_sqrt", fx.newton_sqrt, "a"),
    Golden("norm_of_squares", fx.norm_of_squares, "xs"),
    Golden("helper_call", fx.helper_call, "x"),
    Golden("ridge", fx.ridge, ("w", "lam")),
    Golden("running_product", fx.running_product, "xs"),
    Golden("softplus_sum", fx.softplus_sum, "x"),
    Golden("logistic_map", fx.logistic_map, ("r", "x")),
    Golden("damped_nested", fx.damped, "x", policy="nested"),
    Golden("readable_sweep", fx.readable_sweep, ("W", "h")),
]


@contextlib.contextmanager
def optimiser(passes, rendered=None):
    """Compile with `passes` as the optimiser and the lowering's finish (those of FINISH's
    kinds), in a cache of its own; the texts rendered go to the list `rendered` when given."""
    saved = optimize.PASSES, optimize.FINISH, cache._CACHE, emit.render
    last = tuple(type(p) for p in optimize.FINISH)
    optimize.PASSES = tuple(p for p in passes if not isinstance(p, last))
    optimize.FINISH = tuple(p for p in passes if isinstance(p, last))
    cache._CACHE = weakref.WeakKeyDictionary()
    if rendered is not None:
        emit.render = lambda ctx, rrule: rendered.append(saved[3](ctx, rrule)) or rendered[-1]
    try:
        yield
    finally:
        optimize.PASSES, optimize.FINISH, cache._CACHE, emit.render = saved


def every_pass():
    """The optimiser's passes, then the lowering's finish: the order goldens step through."""
    return optimize.PASSES + optimize.FINISH


def adjoint(golden, passes=None):
    """The generated source of `golden` with the optimiser's `passes` (all if None);
    text that does not compile (a pass that makes it valid has not run yet) as rendered."""
    rendered = []
    with optimiser(every_pass() if passes is None else passes, rendered):
        names, _ = _wrt_names(golden.fn, golden.wrt)
        signature = signature_of(golden.args) if golden.args else None
        try:
            text = compiled(golden.fn, names, golden.policy, False, True, signature).source
        except TransformError:
            if passes is None or not rendered:
                raise
            text = "# (does not compile)\n" + rendered[-1]
    return text.replace(str(ROOT), "<repo>")


def pass_index(name):
    return [repr(p) for p in every_pass()].index(name)


def pass_texts(golden):
    """(before, after): the adjoint with the passes before golden's pass, and with it."""
    k = pass_index(golden.name)
    return adjoint(golden, every_pass()[:k]), adjoint(golden, every_pass()[:k + 1])


def pass_golden_text(golden):
    before, after = pass_texts(golden)
    return golden.header(_pass_words(golden.name)) + "#### before\n" + before + \
        "#### after\n" + after


def _pass_words(name):
    if name in [repr(p) for p in optimize.FINISH]:
        return (f"the closure lowering's finish step {name} (optimize.FINISH, finish()), "
                "after the optimiser's passes and the finish steps before it")
    return (f"the optimiser pass {name}, after the passes before it in "
            "transform/optimize.py's PASSES")


def adjoint_golden_text(golden):
    return golden.header(f"the adjoint of {golden.fn.__name__}") + adjoint(golden)


def golden_files():
    """(path, function computing its text) for every golden file."""
    return [(HERE / "passes" / f"{g.name}.txt", lambda g=g: pass_golden_text(g))
            for g in PASS_GOLDENS] + \
        [(HERE / "adjoints" / f"{g.name}.txt", lambda g=g: adjoint_golden_text(g))
         for g in ADJOINT_GOLDENS]
