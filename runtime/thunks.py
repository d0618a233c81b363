"""Lazy cotangents: `Thunk`, `unthunk`, and the `thunk_stats` counters.

A Thunk holds a zero-argument function and calls it at most once (memoised).
`unthunk` is the identity on anything that is not a Thunk, so generated code
and user rules can call it on whatever cotangent they receive.
"""
import contextvars
import threading


class _Stats:
    """`active`: how many thunk_stats blocks are open in any thread. While it is 0 a
    thunk costs one attribute read; otherwise the block counting is the current
    context's (a context variable: per thread, per task), if any."""

    active = 0


_STATS = _Stats()
_COUNTING = contextvars.ContextVar("thunkgrad_thunk_stats", default=None)
_ACTIVE_LOCK = threading.Lock()


class Thunk:
    """A deferred cotangent, computed on first `unthunk` and then cached."""

    __slots__ = ("_fn", "_value")

    def __init__(self, fn):
        self._fn = fn
        self._value = None
        if _STATS.active:
            counting = _COUNTING.get()
            if counting is not None:
                counting.created += 1

    def force(self):
        fn = self._fn
        if fn is None:
            return self._value
        if _STATS.active:
            counting = _COUNTING.get()
            if counting is not None:
                return self._force_counted(fn, counting)
        value = unthunk(fn())
        self._value, self._fn = value, None
        return value

    def _force_counted(self, fn, stats):
        stats.forced += 1
        stats.depth += 1
        stats.max_depth = max(stats.max_depth, stats.depth)
        try:
            value = unthunk(fn())
        finally:
            stats.depth -= 1
        self._value, self._fn = value, None
        return value

    @property
    def forced(self):
        return self._fn is None

    def __repr__(self):
        state = "forced" if self._fn is None else "pending"
        return f"<Thunk {state}>"


def unthunk(value):
    """The value of a cotangent: forces a Thunk, returns anything else unchanged."""
    if type(value) is Thunk or isinstance(value, Thunk):
        return value.force()
    return value


class ThunkStats:
    """What `thunk_stats()` reports: thunks created and forced, deepest forcing chain.

    `max_depth` counts thunks forced from inside another thunk's forcing: a
    chain of n nested thunks forced from the outside has depth n.
    """

    def __init__(self):
        self.created = 0
        self.forced = 0
        self.max_depth = 0
        self.depth = 0
        self._token = None

    def __enter__(self):
        self.created = self.forced = self.max_depth = self.depth = 0
        self._token = _COUNTING.set(self)        # an enclosing block pauses meanwhile
        with _ACTIVE_LOCK:
            _STATS.active += 1
        return self

    def __exit__(self, *exc):
        with _ACTIVE_LOCK:
            _STATS.active -= 1
        _COUNTING.reset(self._token)
        self._token = None
        return False

    def __repr__(self):
        return (f"ThunkStats(created={self.created}, forced={self.forced}, "
                f"max_depth={self.max_depth})")


def thunk_stats():
    """Context manager counting thunk work inside it; costs nothing outside one."""
    return ThunkStats()
