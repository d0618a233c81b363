"""Stage 7, optimize: small rewrites that keep the generated code lean.

    unthunk(Thunk(lambda a=a: e))   ->   e
    dx = None  (never read again)   ->   (removed)

The optimiser is the flat list of passes below (`PASSES`), run in order by the pass
manager (passes.py) over one rrule. Each pass is a small class with one job, in its own
module with a before/after example; it declares the facts it reads (`needs`), the
facts it provides (`provides`) and the derived facts it keeps exact (`keeps`); the
facts live on one `Facts` object, so any pass can be run alone.
"""
from .batch_products import BatchProducts
from .constants import FoldConstants, FoldNegations
from .copies import PropagateCopies
from .dead_saves import DropDeadSaves
from .fuse import Fuse
from .hoist_factors import HoistFactors
from .like_terms import MergeLikeTerms
from .passes import Facts, run_passes
from .release import FillEmptyBlocks, ReleaseTemporaries
from .resets import DropDeadResets, DropOverwrittenResets, InlineForcedThunks
from .reused_buffers import ReuseCutBuffers
from .spreads import DropSpreads
from .spread_views import SpreadViews
from .tape_iteration import HoistPops
from .written_sums import WriteOutUnbroadcasts

PASSES = (
    InlineForcedThunks(),      # unthunk(Thunk(lambda: e)) -> e
    DropDeadResets(),          # top-level `dx = None` nobody reads
    DropOverwrittenResets(),   # `dx = None` in a loop, overwritten before it is read
    PropagateCopies(),         # `a = b; ...a...` -> `...b...`
    FoldConstants(),           # a template's `h ** (2 - 1)` -> `h`
    MergeLikeTerms(),          # `g * W + g * W` -> `2 * (g * W)`
    Fuse(),                    # single-use temporaries folded
    FoldNegations(),           # an adjoint's `-g * 2` -> `g * -2`
    DropSpreads(),             # a scalar cotangent's spread left to broadcasting
    WriteOutUnbroadcasts(),    # `unbroadcast(g, t)` of known shapes: `g.sum(axis=1, ...)`
    SpreadViews(),             # `unreduce(g, t, 1, False)` read by arithmetic: `g[:, None]`
    HoistPops(),               # a backward loop's tape entry taken in its header
    BatchProducts(),           # a loop's outer products as one matrix product
    DropDeadSaves(),           # tape entries nobody reads any more not saved
    HoistFactors(),            # a loop-invariant factor applied once after the loop
    ReuseCutBuffers(),         # a join's cotangent cut from an owned buffer stays in it
    FillEmptyBlocks(),         # a block of comments only gets a `pass`
    ReleaseTemporaries(),      # `del t` after a temporary's last read
)


CHECK_FACTS = False          # tests set it: every pass's kept facts are recomputed and compared


def optimize(rrule, names, made_thunks=True, temporaries=frozenset(),
             same_shape=lambda a, b: a == b, commented=frozenset(), shape_of=lambda name: None,
             adjoints=frozenset(), literal_terms=None, passes=None, check=False,
             **shape_facts):
    """Rewrite the rrule FunctionDef in place; `names` is the compilation's Vocabulary,
    `adjoints` the names it chose for adjoints, `literal_terms` the template terms
    expanded with a literal argument; `passes`: PASSES unless given;
    `check`: verify after every pass that the facts it keeps are still exact;
    `shape_facts`: primal_of, real_arguments (see Facts)."""
    facts = Facts.of(rrule, names, made_thunks=made_thunks, temporaries=temporaries,
                     same_shape=same_shape, commented=commented, shape_of=shape_of,
                     adjoints=adjoints, literal_terms=literal_terms, **shape_facts)
    return run_passes(PASSES if passes is None else passes, facts, check=check or CHECK_FACTS)
