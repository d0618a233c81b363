"""Checkpointed loops whose trip count is not known when they start: a `while` loop
marked `while checkpointed_while(cond, snapshots=s):`, and a `for` loop marked
`checkpointed(xs, snapshots=s)` whose body may `break`.

The compiler (transform/frontend/checkpointed_online.py) writes them as the binomial
loops' driver call, `run_checkpointed(key, carry, invariants, first, s, where)`, with a
step marked `thunkgrad_online` ("while" or "for") that returns (go on?, *carried):

    while: step(*carried, *invariants) -> (cond after the body, *carried)
           `first` is the condition's value before the loop;
    for:   step(*carried, *invariants, x) -> (False after a `break`, else True, *carried)
           `first` is the iterable.

run_checkpointed and its rule hand such a step here. The forward sweep thins its
snapshots as the loop runs; once it stops the backward sweep reverses segments between
some of them by the binomial schedule (runtime/online.py: the schedule and its bound)."""
from . import online
from .checkpoint import ONLINE, _STATS, _count, _report, check_snapshots
from .checkpoint_rule import Loop, _fingerprint, _items, _pullback


def checkpointed_while(condition, snapshots):
    """Mark a `while` loop, `while checkpointed_while(cond, snapshots=s):`, to be
    reversed by checkpointing with at most `snapshots` stored loop states; returns
    `condition` (a no-op outside differentiation)."""
    check_snapshots(snapshots)
    return condition


def run_online(step, carry, invariants, first):
    """What the marked loop computes (no derivative)."""
    carry = tuple(carry)
    if step.thunkgrad_online == "while":
        go = first
        while go:
            go, *carry = step(*carry, *invariants)
        return tuple(carry)
    for x in first:
        go, *carry = step(*carry, *invariants, x)
        if not go:
            break
    return tuple(carry)


class OnlineLoop(Loop):
    """A Loop whose step also says whether the loop goes on (`self.go` after a call)."""

    def __init__(self, step, invariants, items, snapshots):
        super().__init__(step, invariants, items, snapshots)
        self.go, self.n = True, None

    def arguments(self, carry, i):
        item = () if self.items is None else (self.items[i],)
        return (*carry, *self.invariants, *item)

    def returned(self, positions):
        return tuple(1 + k for k in positions)      # (after the go-on flag)

    def call(self, carry, i, given=()):
        rule, args = self.rule(carry, i, given)
        out, pullback = rule(*args)
        out = tuple(out)
        self.go = out[0]
        return out[1:], lambda g: pullback((None, *g))     # (no cotangent for the flag)

    def advance(self, carry, i):
        if getattr(self.step, "thunkgrad_plain_advance", False):
            out = tuple(self.step(*self.arguments(carry, i)))
            self.go = out[0]
            return out[1:]
        return self.call(carry, i, None)[0]

    def check_again(self, carry, i, out):
        """As Loop's, the loop's end being the step count the forward sweep ran."""
        plain = getattr(self.step, "thunkgrad_plain_advance", False)
        if i + 1 not in self.marks or plain and i + 1 != self.n:
            return
        again = self.advance(carry, i) if plain else out
        if _fingerprint(again) != self.marks[i + 1]:
            raise TypeError(f"{self.where}: a checkpointed loop's step gave another value "
                            "when the backward sweep ran it again (random draws or other "
                            "state in a helper?); checkpointed loop bodies must be "
                            "deterministic: draw random numbers before the loop")

    def forward(self, carry, go):
        """The loop's output and the backward sweep's [(start, length, free, carry)]."""
        snaps, i = online.Thinned(self.snapshots), 0
        end = None if self.items is None else len(self.items)
        while go and i != end:
            for p in snaps.add(i, carry):
                self.marks.pop(p, None)
            if i and snaps.held[-1][0] == i:
                self.marks[i] = _fingerprint(carry)
            _peak(len(snaps.held))
            _count("advances")
            carry = self.advance(carry, i)
            go, i = self.go, i + 1
        self.n, self.marks[i] = i, _fingerprint(carry)
        _count("steps", i)
        _peak(1)                        # (the loop's input: held even with no step)
        kept = dict(snaps.held)
        del snaps
        return carry, [(start, length, free, kept[start])
                       for start, length, free in online.plan(i, self.snapshots)]


def _peak(held):
    for stats in _STATS:
        stats.peak_snapshots = max(stats.peak_snapshots, held)


def online_rule(step, carry, invariants, first, snapshots, where):
    """run_checkpointed's rule for an online step: (output, pullback)."""
    kind = step.thunkgrad_online
    items = None if kind == "while" else _items(first, where)
    loop = OnlineLoop(step, invariants, items, int(snapshots))
    loop.where = where
    _count("loops")
    out, held = loop.forward(tuple(carry), first if kind == "while" else True)
    _report(where=where, decision=f"checkpointed ({kind} loop: trip count unknown when it "
            "starts)", items=loop.n, steps=loop.n, snapshots=loop.snapshots,
            theory=online.recomputations(loop.n, loop.snapshots), schedule="online")
    return out, _pullback(loop, lambda g: loop.backward(g, held), first, where)


ONLINE.update(run=run_online, rule=online_rule)     # (runtime/__init__ imports this module)
