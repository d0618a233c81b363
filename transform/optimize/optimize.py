"""Stage 7, optimize: small rewrites that keep the generated code lean.

    unthunk(Thunk(lambda a=a: e))   ->   e
    dx = None  (never read again)   ->   (removed)

The optimiser is two flat lists of passes (`PASSES`, the first list's then the
second's), run in order by the pass manager (passes.py) over one rrule: TYPED_PASSES on
the typed sweeps (ir/statements.py, ir/generated.py: `optimize_typed`, before they are
lowered), which match the statement classes (their operands gast expressions) and drop,
replace or add whole statements; then GAST_PASSES on the lowered gast (`optimize`):
SpreadViews, which judges a name by all its reads and their parents (docs/ir.md). FINISH
(FillEmptyBlocks, ReleaseTemporaries) is not the optimiser's: the closure lowering's last
step (`finish`), run by the pipeline after the gast phase. Passes move
from the head of GAST_PASSES to the end of TYPED_PASSES, in order (PropagateCopies and
MergeLikeTerms in session 38, Fuse's pullback half as FusePullback; FoldNegations,
DropSpreads, WriteOutUnbroadcasts, HoistPops, HoistFactors and Fuse's forward half as
FuseForward in session 39; SpreadViews is next, docs/ir.md says what it needs). Each pass is
a small class with one job, in its own module with a before/after example; it declares the facts it reads (`needs`),
the facts it provides (`provides`) and the derived facts it keeps exact (`keeps`); the
facts live on one `Facts` (`TypedFacts`) object, so any pass can be run alone.
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

GAST_PASSES = ()              # on the lowered rrule: none left (session 40)

PASSES = TYPED_PASSES + GAST_PASSES

# Not the optimiser's: the closure lowering's last step (`finish`, run by the pipeline
# after the gast phase), which makes the code complete rather than lean; the plain
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
    in place with the typed phase's passes (`phase` "typed") of `passes` (PASSES
    unless given); `params`: the pullback's parameters, `adjoints`: the names chosen
    for adjoints; `inputs`: names, shape_of, forward, uses_tape, literal_terms (the
    template terms expanded with a literal argument), temporaries, commented (see
    TypedFacts); returns the facts (what the passes provided: `uses_tape`, `fused`,
    `fused_forward`)."""
    facts = TypedFacts(backward, params=params, adjoints=adjoints, **inputs)
    return run_passes(_phase(passes, "typed"), facts, check=check or CHECK_FACTS)


def _phase(passes, phase):
    """The passes of one phase, in order; every typed pass comes before every gast one."""
    passes = PASSES if passes is None else passes
    phases = [p.phase for p in passes]
    assert phases == sorted(phases, key=("typed", "gast").index), \
        f"a typed pass after a gast pass: {list(passes)}"
    return [p for p in passes if p.phase == phase]


def optimize(rrule, names, temporaries=frozenset(),
             same_shape=lambda a, b: a == b, shape_of=lambda name: None,
             adjoints=frozenset(), passes=None, check=False,
             **shape_facts):
    """Rewrite the rrule FunctionDef in place; `names` is the compilation's Vocabulary,
    `adjoints` the names it chose for adjoints; `passes`: PASSES unless given;
    `check`: verify after every pass that the facts it keeps are still exact;
    the gast phase's passes of `passes` run (`optimize_typed` ran the typed ones);
    `shape_facts`: primal_of, real_arguments (see Facts)."""
    facts = Facts.of(rrule, names, temporaries=temporaries,
                     same_shape=same_shape, shape_of=shape_of,
                     adjoints=adjoints, **shape_facts)
    run_passes(_phase(passes, "gast"), facts, check=check or CHECK_FACTS)
    return rrule


def finish(rrule, names, passes=None, check=False):
    """The closure lowering's last step, after the optimiser's gast phase: FINISH's
    passes (unless `passes` given) on the rrule FunctionDef, in place."""
    run_passes(FINISH if passes is None else passes, Facts.of(rrule, names),
               check=check or CHECK_FACTS)
    return rrule
