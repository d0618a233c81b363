"""run_checkpointed's rule: the forward sweep keeps the binomial schedule's snapshots,
the pullback recomputes segments from them and reverses one step at a time
(runtime/checkpoint.py says what the compiler writes; runtime/revolve.py the schedule)."""
import hashlib
import random

import numpy as np

from . import revolve
from .accumulate import add_values
from .callees import loop_body_rule
from .checkpoint_budget import auto_chunk, measured_call, nbytes, snapshots_for, taped
from .checkpoint import ONLINE, SIZED, Budget, Chunks, STEPS, _STATS, _count, _report, \
    check_snapshots, chunked, run_checkpointed
from .checkpoint_forward import run_checkpointed_jvp
from .checkpoint_objects import object_states, refuse_changed_objects
from .registry import rrule
from .thunks import unthunk


def _varied(value):
    """Whether a value can carry a derivative: a float or complex leaf somewhere."""
    if type(value) is float or type(value) is np.ndarray:     # (the common carries)
        return type(value) is float or value.dtype.kind in "fc"
    if isinstance(value, (list, tuple)):
        return any(_varied(v) for v in value)
    if isinstance(value, dict):
        return any(_varied(v) for v in value.values())
    if isinstance(value, (bool, int, str, type(None), range)):
        return False
    return np.asarray(value).dtype.kind in "fc" if isinstance(
        value, (float, complex, np.ndarray, np.generic)) else True


def _owned_sum(total, c):
    """total + c, into total when it is an array this rule made and c fits it."""
    c = unthunk(c)
    if c is None:
        return total
    if total is None:
        return np.array(c, copy=True) if isinstance(c, np.ndarray) else add_values(None, c)
    if isinstance(total, np.ndarray) and np.shape(c) == total.shape and \
            np.result_type(total, c) == total.dtype:
        total += c
        return total
    return add_values(total, c)


class Loop:
    """One run of a checkpointed loop: its step, invariants, items and snapshot budget."""

    def __init__(self, step, invariants, items, snapshots):
        self.step, self.invariants, self.items = step, tuple(invariants), items
        self.snapshots = snapshots
        self.inv_cots = [None] * len(self.invariants)
        self.item_cots = {}         # i -> item i's cotangent (none for a range: O(1))
        self.rules = {}
        self.marks = {}             # position -> fingerprint of the forward's carry there
        self.where = ""

    def arguments(self, carry, i):
        return (*carry, *self.invariants, self.items[i])

    def rule(self, carry, i, given=()):
        """(the step's rule at step i, differentiated in what can vary, its args).
        given: the carries whose cotangents its pullback will get as values, not None
        (None: every differentiated one, for a call whose pullback is not used): its
        backward sweep is compiled without None checks for them (a chunk's inner loop
        as fast as the taped loop's)."""
        args = self.arguments(carry, i)
        wrt = tuple(k for k, a in enumerate(args) if _varied(a))
        dense = self.returned(tuple(k for k in wrt if k < len(carry) and
                                    (given is None or k in given)))
        rule = self.rules.get((wrt, dense))
        if rule is None:
            rule = self.rules[wrt, dense] = loop_body_rule(self.step, wrt, dense)
        return rule, args

    def returned(self, positions):
        """The positions in the step's returned tuple of these carries."""
        return positions

    def call(self, carry, i, given=()):
        """(step's output, pullback) at step i (given: rule's)."""
        rule, args = self.rule(carry, i, given)
        out, pullback = rule(*args)
        return tuple(out), pullback

    def advance(self, carry, i):
        """The carry after step i: the step itself where the compiler found that it
        writes into nothing (its values are the rule's), else the step's rule (the one
        the backward sweep will likely use: one compilation)."""
        if getattr(self.step, "thunkgrad_plain_advance", False):
            return tuple(self.step(*carry, *self.invariants, self.items[i]))
        return self.call(carry, i, None)[0]

    def reverse_step(self, carry, i, g):
        """The carry's cotangent before step i, from g after it; invariants' added."""
        _count("reversed")
        out, pullback = self.call(carry, i, {k for k, c in enumerate(g) if c is not None})
        self.check_again(carry, i, out)
        return self.pulled(pullback, len(carry), i, g)

    def pulled(self, pullback, n, i, g):
        """The cotangent of step i's n carries from g through its pullback."""
        cots = dict(enumerate(pullback(g)))         # (None: a zero cotangent)
        for k in range(len(self.invariants)):
            self.inv_cots[k] = _owned_sum(self.inv_cots[k], cots.get(n + k))
        c = unthunk(cots.get(n + len(self.invariants)))
        if c is not None:
            self.item_cots[i] = c
        return tuple(unthunk(cots.get(k)) for k in range(n))

    def check_again(self, carry, i, out):
        """Step i run again must give the forward sweep's carry at i + 1 bit for bit:
        compared where the same code made both (the rule's output; a plain step's only
        at the loop's end, run once more)."""
        plain = getattr(self.step, "thunkgrad_plain_advance", False)
        if i + 1 not in self.marks or plain and i + 1 != len(self.items):
            return
        again = self.advance(carry, i) if plain else out
        if _fingerprint(again) != self.marks[i + 1]:
            raise TypeError(f"{self.where}: a checkpointed loop's step gave another "
                            "value when the backward sweep ran it again (random draws or "
                            "other state in a helper?); checkpointed loop bodies must be "
                            "deterministic: draw random numbers before the loop (noise = "
                            "rng.normal(size=(n, ...))) and index noise[t]")

    def forward(self, carry):
        """The loop's output; the sweep's snapshots [(start, length, free, carry)].
        They are the most carries held at once: the backward sweep recomputes a
        segment into its own free slots only (runtime/revolve.py)."""
        chain = revolve.sweep_chain(len(self.items), self.snapshots)
        for stats in _STATS:
            stats.peak_snapshots = max(stats.peak_snapshots, len(chain), 1)
        held = []
        for start, length, free in chain:
            held.append((start, length, free, carry))
            carry = self.run(carry, start, length, "advances")
            self.marks[start + length] = _fingerprint(carry)
        return carry, held

    def run(self, carry, start, k, counter):
        """The carry k steps after `start` (counted as `counter`)."""
        for i in range(start, start + k):
            _count(counter)
            carry = self.advance(carry, i)
        return carry

    def backward(self, g, held):
        for start, length, free, carry in reversed(held):
            g = self.segment(carry, start, length, free, g)
        return g

    def segment(self, carry, start, length, free, g):
        """Reverse steps [start, start + length) from `carry`, the state at `start`."""
        if length == 1:
            return self.reverse_step(carry, start, g)
        if free == 0:
            for j in reversed(range(length)):
                g = self.reverse_step(self.run(carry, start, j, "recomputed"), start + j, g)
            return g
        m = revolve.split(length, free)
        g = self.segment(self.run(carry, start, m, "recomputed"), start + m, length - m,
                         free - 1, g)            # (the snapshot at start + m goes here)
        return self.segment(carry, start, m, free, g)


def _fingerprint(value):
    """A digest of a carry's numbers (their dtypes, shapes and bits)."""
    h = hashlib.blake2b(digest_size=16)
    stack = [value]
    while stack:
        v = unthunk(stack.pop())
        if isinstance(v, (tuple, list)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (bool, int, float, complex, np.ndarray, np.generic)):
            a = np.asarray(v)
            if a.dtype.kind in "biufc":
                h.update(f"{a.dtype.str}{a.shape}".encode())
                h.update(np.ascontiguousarray(a).tobytes())
    return h.digest()


def _items(iterable, where):
    if not isinstance(iterable, SIZED):
        raise TypeError(f"{where}: checkpointed(...) needs a range, list, tuple or array "
                        f"(its length known when the loop starts), not "
                        f"{type(iterable).__name__}; use checkpointed(range(len(xs))) and "
                        "index xs")
    return iterable


_GENERATORS = (np.random.Generator, np.random.RandomState, np.random.BitGenerator,
               random.Random)


def _refuse_generators(value, where):
    """A random generator the body reads: the backward sweep runs steps again, and
    they would draw other numbers than the forward sweep did (a wrong gradient)."""
    if isinstance(value, (tuple, list)):
        for v in value:
            _refuse_generators(v, where)
    elif isinstance(value, dict):
        _refuse_generators(list(value.values()), where)
    elif isinstance(value, _GENERATORS):
        raise TypeError(f"{where}: a checkpointed loop's body reads a random generator "
                        f"({type(value).__name__}); the backward sweep runs steps again "
                        "and would draw other numbers; draw them before the loop "
                        "(noise = rng.normal(size=(n, ...))) and index noise[t]")


def _refuse_functions(carry, where):
    """A function in the carry (a lambda appended in the body): the step's rule has no
    cotangent for it, and the derivative of what it closes over would not reach the
    steps that made it; refused when the loop has run (fuzz: checkpointed_loops:1023)."""
    if isinstance(carry, (tuple, list)):
        for v in carry:
            _refuse_functions(v, where)
    elif isinstance(carry, dict):
        _refuse_functions(list(carry.values()), where)
    elif callable(carry) and not isinstance(carry, np.ndarray):
        raise TypeError(f"{where}: a checkpointed loop carries a function "
                        f"({type(carry).__name__}) from one step to the next, which the "
                        "backward sweep cannot differentiate through; make the functions "
                        "before the loop, or loop without checkpointed")


def _global_draws():
    """Where the global generators are (NumPy's legacy one, the random module's)."""
    state = np.random.get_state()
    return state[1].tobytes(), state[2:], random.getstate()


@rrule(run_checkpointed, jvp=run_checkpointed_jvp)
def run_checkpointed_rule(key, carry, invariants, iterable, snapshots, where=""):
    check_snapshots(snapshots)
    step = STEPS[key]
    budget = isinstance(snapshots, Budget)      # grad(..., memory_limit=...)'s loop
    if budget and not getattr(step, "thunkgrad_online", None):
        return _budgeted(step, tuple(carry), invariants, iterable, snapshots.limit, where)
    if not budget:
        _refuse_generators((carry, invariants), where)
    if getattr(step, "thunkgrad_online", None):     # while, break: checkpoint_online.py
        objects = object_states((carry, invariants))      # as _checkpointed checks
        run, s = (ONLINE["budgeted"], snapshots.limit) if budget else (ONLINE["rule"],
                                                                       snapshots)
        out, pullback = run(step, tuple(carry), invariants, iterable, s, where)
        _refuse_functions(out, where)
        refuse_changed_objects(objects, where)
        return out, pullback
    items, k, per = _items(iterable, where), None, None
    if getattr(step, "thunkgrad_chunk", 1) == "auto":
        k, per = auto_chunk(Loop, step, carry, invariants, items, int(snapshots))
    loop = Loop(step, invariants, chunked(step, items, where, k), int(snapshots))
    _report(where=where, decision="checkpointed", items=len(items), chunk=k or
            getattr(step, "thunkgrad_chunk", 1), steps=len(loop.items),
            snapshots=loop.snapshots, theory=revolve.recomputations(len(loop.items),
                                                                    loop.snapshots),
            step_tape=per, carry=nbytes(carry) if per else None)
    return _checkpointed(loop, tuple(carry), iterable, where)


def _checkpointed(loop, carry, iterable, where):
    loop.where = where
    _count("loops")
    _count("steps", len(loop.items))
    objects = object_states((carry, loop.invariants))
    out, held = loop.forward(carry)
    _refuse_functions(out, where)
    refuse_changed_objects(objects, where)
    return out, _pullback(loop, lambda g: loop.backward(g, held), iterable, where)


def _budgeted(step, carry, invariants, iterable, limit, where):
    """The loop taped if its steps' tapes fit in `limit`, else checkpointed to fit.
    Steps that draw random numbers run taped, each once, from the draws' state before
    the loop (the measuring calls' draws undone): the same numbers as the plain loop."""
    sized = isinstance(iterable, SIZED)         # (else a dict's keys, a set: taped)
    loop = Loop(step, invariants, iterable if sized else list(iterable), 1)
    if len(loop.items) == 0:
        return carry, _pullback(loop, lambda g: g, iterable, where)
    try:
        _refuse_generators((carry, invariants), where)
    except TypeError:
        sized = False                           # (a generator: its draws not undone)
    said = dict(where=where, items=len(loop.items), steps=len(loop.items), limit=limit)
    if not sized:
        _report(decision="taped (an unsized iterable, or a random generator read)", **said)
        return _taped(loop, carry, loop.call(carry, 0), iterable, where)
    saved, drawn = (np.random.get_state(), random.getstate()), _global_draws()
    out, pullback, tape = measured_call(loop, carry)
    said.update(step_tape=tape, carry=nbytes(carry))
    if _global_draws() != drawn:
        np.random.set_state(saved[0])
        random.setstate(saved[1])
        del out, pullback
        _report(decision="taped (step 0 drew from np.random or random)", **said)
        return _taped(loop, carry, loop.call(carry, 0), iterable, where)
    s = snapshots_for(limit, len(loop.items), tape, nbytes(carry), where)
    if s is None:
        _report(decision="taped (iterations x one step's tape <= limit)", **said)
        return _taped(loop, carry, (out, pullback), iterable, where)
    del out, pullback
    loop.snapshots = s
    _report(decision="checkpointed by memory_limit: snapshots = (limit - 2 tape - 2 carry) "
            "// (3 carry)", snapshots=s, theory=revolve.recomputations(len(loop.items), s),
            **said)
    return _checkpointed(loop, carry, iterable, where)


def _taped(loop, carry, first, iterable, where):
    out, backward = taped(loop, carry, first)
    _refuse_functions(out, where)
    return out, _pullback(loop, backward, iterable, where)


def _pullback(loop, backward, iterable, where):
    def pullback(g):
        loop.inv_cots, loop.item_cots = [None] * len(loop.invariants), {}
        g = unthunk(g)
        if g is None:
            return (None,) * 6
        g = tuple(unthunk(c) for c in g)
        drawn = _global_draws()
        g_carry = backward(g)
        if _global_draws() != drawn:
            raise TypeError(f"{where}: a checkpointed loop's steps drew random numbers "
                            "from np.random or random when the backward sweep ran them "
                            "again, other numbers than the forward sweep's; draw them "
                            "before the loop (noise = rng.normal(size=(n, ...))) and "
                            "index noise[t]")
        return (None, g_carry, tuple(loop.inv_cots), _item_cotangent(loop, iterable),
                None, None)
    return pullback


def _item_cotangent(loop, iterable):
    cots = _per_item(loop.items, loop.item_cots)
    if not cots or isinstance(iterable, range):     # (a range's items: integers, even
        return None                                 # where the body rebinds the name)
    if not isinstance(iterable, SIZED):
        raise TypeError(f"memory_limit: a loop over a {type(iterable).__name__} whose items "
                        "carry a derivative; loop over a list of them")
    if isinstance(iterable, np.ndarray):
        return np.stack([np.asarray(cots[i]) if i in cots else
                         np.zeros_like(iterable[i], dtype=float) for i in range(len(iterable))])
    return type(iterable)(cots.get(i) for i in range(len(iterable)))


def _per_item(items, cots):
    """Item index -> cotangent: a chunk's (the cotangent of a slice of k items: a list,
    tuple or array whose entries are the items') split back into its items'."""
    if not isinstance(items, Chunks) or not cots:
        return cots
    found = {}
    for i, c in cots.items():
        for m in range(len(items[i])):
            part = c[m] if c is not None else None
            if part is not None:
                found[i * items.k + m] = part
    return found
