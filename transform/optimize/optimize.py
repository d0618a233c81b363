"""Stage 7, optimize: small rewrites that keep the generated code lean.

    unthunk(Thunk(lambda a=a: e))   ->   e
    dx = None  (never read again)   ->   (removed)

The optimiser is one flat list of passes (`PASSES`, TYPED_PASSES), run in order by the
pass manager (passes.py) over one rule's typed sweeps (ir/statements.py,
ir/generated.py: `optimize_typed`, before they are lowered): they match the statement
classes (their operands gast expressions) and drop, replace or add whole statements.
No pass rewrites gast after lowering any more: the gast phase's passes moved to the end
of the typed phase in order (PropagateCopies and MergeLikeTerms in session 38, Fuse's
pullback half as FusePullback; FoldNegations, DropSpreads, WriteOutUnbroadcasts,
HoistPops, HoistFactors and Fuse's forward half as FuseForward in session 39;
SpreadViews, the last, in session 40 on the analysis `lowered_reads`). FINISH
(FillEmptyBlocks, ReleaseTemporaries) is not the optimiser's: the closure lowering's
last step (`finish`) on the lowered rrule, run by the pipeline after `lower_sweeps`.
Each pass is a small class with one job, in its own module with a before/after example;
it declares the facts it reads (`needs`), the facts it provides (`provides`) and the
derived facts it keeps exact (`keeps`); the facts live on one `TypedFacts` object (the
finish's on a `Facts`), so any pass can be run alone.
"""
from .batch_products import BatchProducts
from .constants import FoldConstants, FoldNegations
from .copies import PropagateCopies
from .dead_saves import DropDeadSaves
from .fuse import FuseForward
from .typed_fuse import FusePullback
from .hoist_factors import HoistFactors
from .like_terms import MergeLikeTerms
from .passes import Facts, TypedFacts, run_passes
from .release import FillEmptyBlocks, ReleaseTemporaries
from .resets import DropDeadResets, DropOverwrittenResets, InlineForcedThunks
from .reused_buffers import ReuseCutBuffers
from .spreads import DropSpreads
from .spread_views import SpreadViews
from .tape_iteration import HoistPops
from .written_sums import WriteOutUnbroadcasts

TYPED_PASSES = (              # on the typed pullback body, before it is lowered
    InlineForcedThunks(),      # unthunk(Thunk(lambda: e)) -> e, in typed statements' values
    FoldConstants(),           # a template's `h ** (2 - 1)` -> `h`
    DropDeadResets(),          # top-level `dx = None` nobody reads
    DropOverwrittenResets(),   # `dx = None` in a loop, overwritten before it is read
    BatchProducts(),           # a loop's outer products as one matrix product
    DropDeadSaves(),           # tape entries nobody reads not saved
    ReuseCutBuffers(),         # a join's cotangent cut from an owned buffer stays in it
    PropagateCopies(),         # `a = b; ...a...` -> `...b...`
    MergeLikeTerms(),          # `g * W + g * W` -> `2 * (g * W)`
    FusePullback(),            # the pullback's single-use temporaries folded
    FoldNegations(),           # an adjoint's `-g * 2` -> `g * -2` (typed: session 39)
    DropSpreads(),             # a scalar cotangent's spread left to broadcasting
    WriteOutUnbroadcasts(),    # `unbroadcast(g, t)` of known shapes: `g.sum(axis=1, ...)`
    HoistPops(),               # a backward loop's tape entry taken in its header
    HoistFactors(),            # a loop-invariant factor applied once after the loop
    FuseForward(),             # the forward sweep's single-use temporaries folded (after
                               # DropSpreads, WriteOutUnbroadcasts: what they drop is no read)
    SpreadViews(),             # `unreduce(g, t, 1, False)` read by arithmetic: `g[:, None]`
)

PASSES = TYPED_PASSES          # every optimiser pass is typed (session 40: SpreadViews)

# Not the optimiser's: the closure lowering's last step (`finish`, run by the pipeline
# after lower_sweeps), which makes the code complete rather than lean; the plain
# lowering emits neither (its blocks are never left empty, it deletes nothing).
FINISH = (
    FillEmptyBlocks(),         # a block of comments only gets a `pass`
    ReleaseTemporaries(),      # `del t` after a temporary's last read
)

# The plain lowering's (docs/ir.md, "Second lowering"): the typed phase without
# BatchProducts, whose batch (runtime MatmulLhsSum: lists of arrays, stacked and flushed)
# pays off only where each iteration's `dW += outer(g, x)` costs a Python-level call and
# an allocation; a compiled loop (numba) does that update in place for less than the
# stacking costs, and a Python object with list state is what it cannot type.
# Nor HoistPops: the plain lowering reads its tapes by index, no `popped(pop, n)` header.
# Nor SpreadViews: it judges each read where the gast lowering puts it
# (optimize/lowered_reads.py), which the plain lowering's accumulations need not match.
PLAIN_PASSES = tuple(p for p in TYPED_PASSES
                     if not isinstance(p, (BatchProducts, HoistPops, SpreadViews)))


CHECK_FACTS = False          # tests set it: every pass's kept facts are recomputed and compared


def optimize_typed(backward, params=frozenset(), adjoints=frozenset(), passes=None,
                   check=False, **inputs):
    """Rewrite the pullback's typed body (a list) and the forward sweep's (`forward`)
    in place with `passes` (PASSES unless given: all typed); `params`: the pullback's parameters, `adjoints`: the names chosen
    for adjoints; `inputs`: names, shape_of, forward, uses_tape, literal_terms (the
    template terms expanded with a literal argument), temporaries, commented (see
    TypedFacts); returns the facts (what the passes provided: `uses_tape`, `fused`,
    `fused_forward`)."""
    facts = TypedFacts(backward, params=params, adjoints=adjoints, **inputs)
    return run_passes(_typed(passes), facts, check=check or CHECK_FACTS)


def _typed(passes):
    """`passes` (PASSES unless given), every one a typed pass (the finish's are not
    the optimiser's: `finish`)."""
    passes = PASSES if passes is None else passes
    assert all(p.phase == "typed" for p in passes), f"a pass that is not typed: {list(passes)}"
    return list(passes)


def finish(rrule, names, passes=None, check=False):
    """The closure lowering's last step, after the rrule is lowered: FINISH's passes
    (unless `passes` given) on the rrule FunctionDef, in place."""
    run_passes(FINISH if passes is None else passes, Facts.of(rrule, names),
               check=check or CHECK_FACTS)
    return rrule
