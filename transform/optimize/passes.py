"""The optimiser's pass manager: an ordered, flat list of passes over one rule that
share what they know on one typed object (`TypedFacts`; the closure lowering's finish
on the lowered rrule: `Facts`) instead of handing values along.

    class SpreadViews(Pass):
        phase = "typed"
        needs = ("lowered_reads", "shape_of")   # facts it reads (a derived one computed
        keeps = ()                              #   on first use); derived facts it keeps
        def run(self, facts): ...               #   exact while editing

    run_passes([WriteOutUnbroadcasts(), SpreadViews()], facts)

A pass has one job and can be run alone (`run_passes([p], TypedFacts(body, ...))`):
a fact no earlier pass provided falls back to its conservative default, and a derived
fact (the finish's name counts, the typed phase's `lowered_reads`) is computed on first
use. After a pass runs, every derived fact it does not list in `keeps` is forgotten, so
no pass reads a stale one; `check=True` recomputes each kept fact after every pass and
fails if it drifted, if a typed pass left anything but typed statements in the sweeps,
or if a finish pass left a generated statement out of step with the typed statement it
is marked with (`facts.typed(stmt)`; the tests run so).
"""
from dataclasses import dataclass, field
from typing import Callable, Optional

import gast

from .lowered_reads import LoweredReads
from .name_counts import NameCounts
from ..ir.lower_gast import out_of_step
from ..ir.nodes import statements
from ..ir.statements import Statement, typed_of
from ..ir.typed_names import typed_statements


@dataclass
class Facts:
    """What the closure lowering's finish (optimize.FINISH) shares over one lowered
    rrule: the rrule and the Vocabulary, then derived facts. (The optimiser's gast
    phase, which read shapes and adjoints here too, is gone: session 40.)"""
    rrule: gast.FunctionDef
    names: object                                   # the compilation's Vocabulary
    _counts: Optional[NameCounts] = field(default=None, repr=False)
    _pullback: Optional[gast.FunctionDef] = field(default=None, repr=False)

    @classmethod
    def of(cls, rrule, names):
        return cls(rrule, names)

    @property
    def pullback(self):
        """The rrule's pullback (found once; `in` is an identity scan in C, the search a
        walk in Python over the forward sweep, which every pass asks for)."""
        found = self._pullback
        if found is None or found not in self.rrule.body:
            found = self._pullback = next(s for s in self.rrule.body
                                          if isinstance(s, gast.FunctionDef))
        return found

    @staticmethod
    def typed(stmt):
        """The typed statement a generated gast statement stands for (`Push`, `Pop`,
        `Accumulate`: ir/statements.py, marked when lowered), else None: passes match
        these classes instead of recognising gast."""
        return typed_of(stmt)

    @property
    def counts(self):
        """Name counts (derived: computed on first use, kept exact or forgotten)."""
        if self._counts is None:
            self._counts = NameCounts.of(self.rrule, self.pullback)
        return self._counts

    def forget(self, derived):
        if "counts" in derived:
            self._counts = None

    def check_after(self, p):
        """The checked run: the kept counts exact, no marked statement out of step."""
        if self._counts is not None:
            fresh = NameCounts.recount(self.rrule, self.pullback)
            assert self._counts.same_as(fresh), \
                f"{p!r} left the name counts stale: {self._counts.drift(fresh)}"
            stale = self._counts.stale_loads(self.rrule)
            assert not stale, f"{p!r} left the loads of {len(stale)} statements stale"
        moved = [s for s in statements(self.rrule) if out_of_step(s, self.names)]
        assert not moved, f"{p!r} left {len(moved)} generated statements out of step " \
            "with their typed statement (re-mark them: statements.mark_typed)"


@dataclass
class TypedFacts:
    """What the typed phase's passes share: the pullback's typed body (`backward`, a
    list of ir/statements.py's and ir/generated.py's statements, rewritten in place)
    and the forward sweep's (`forward`) before they are lowered, the pullback's
    parameters and the adjoints' names, the compilation's Vocabulary and the names'
    shapes, whether the forward sweep saves on a tape (`uses_tape`: DropDeadSaves
    provides it afresh), the normalizer's temporaries and their adjoints (`temporaries`:
    the names PropagateCopies may drop)."""
    backward: list
    params: frozenset = frozenset()
    adjoints: frozenset = frozenset()
    names: object = None                            # the compilation's Vocabulary
    shape_of: Callable = lambda name: None
    forward: list = field(default_factory=list)
    uses_tape: bool = False
    literal_terms: Optional[list] = None            # template terms given a literal
    temporaries: frozenset = frozenset()            # names PropagateCopies may drop
    commented: frozenset = frozenset()              # ids of nodes a comment quotes
    fused: Optional[list] = None                    # FusePullback: typed statements rewritten
    fused_forward: Optional[list] = None            # FuseForward: typed statements rewritten
    same_shape: Callable = lambda a, b: a == b      # (DropSpreads)
    primal_of: dict = field(default_factory=dict)   # adjoint -> its primal name
    # the rule makes no complex value and refuses complex arguments: every value is
    # real (WriteOutUnbroadcasts)
    real_arguments: bool = False
    _lowered_reads: Optional[LoweredReads] = field(default=None, repr=False)

    @property
    def lowered_reads(self):
        """The pullback as the gast lowering will make it, the typed statements'
        operands in it (derived: computed on first use, forgotten after any pass that
        does not keep it; optimize/lowered_reads.py)."""
        if self._lowered_reads is None:
            self._lowered_reads = LoweredReads(self.backward, self.params, self.adjoints,
                                               self.names)
        return self._lowered_reads

    def forget(self, derived):
        if "lowered_reads" in derived:
            self._lowered_reads = None

    def check_after(self, p):
        """The checked run: the body is still typed statements, all the way down."""
        untyped = [s for s in typed_statements(self.backward + self.forward)
                   if not isinstance(s, Statement)]
        assert not untyped, f"{p!r} left {len(untyped)} untyped statements in the typed sweep"


class Pass:
    """One rewrite of the rrule. `needs`: facts it reads; `provides`: facts it sets;
    `keeps`: derived facts it keeps exact (any other is forgotten after it runs)."""
    needs = ()
    provides = ()
    keeps = ()
    phase = "gast"          # the finish's, on the lowered rrule; "typed": the optimiser's,
                            # on the typed sweeps before they are lowered

    def applies(self, facts):
        """Whether there is anything to do (a pass whose input fact says no is skipped)."""
        return True

    def run(self, facts):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__


DERIVED = ("counts", "lowered_reads")


def run_passes(passes, facts, check=False):
    """Run `passes` in order over `facts` (a `Facts`, or a `TypedFacts` for the typed
    phase); returns the facts."""
    for p in passes:
        if not p.applies(facts):
            continue
        p.run(facts)
        facts.forget([d for d in DERIVED if d not in p.keeps])
        if check:
            facts.check_after(p)
    return facts
