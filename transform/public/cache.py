"""Compiled rules per function: keyed weakly, safe under threads, specialisations bounded.

    rule_for(f, key, build)   # first call: build() outside the lock, then published whole
    rule_for(f, key, build)   # later calls: the published rule while its guards hold

The cache holds a function only weakly and its rules never reference it (emit keeps a
weak reference), so a dropped closure takes its rules with it. Threads asking for the
same rule at once may each build it (no thread ever waits for another, so compiling
callees that compile their callers cannot deadlock); a rule is only ever seen complete.
A key with a shape signature counts against MAX_SPECIALISATIONS for its (function,
wrt, policy, ...) from the moment a thread starts building it, so the bound holds
however many threads race past it.
"""
import threading
import weakref

MAX_SPECIALISATIONS = 8

_LOCK = threading.Lock()            # guards every _Rules' dicts and _CACHE's insertions
# Compilations take turns, across threads: CPython 3.11 keeps the AST converter's
# recursion count per interpreter, not per thread, so two threads in ast.parse at once
# (a finaliser can switch threads inside one) fail with "SystemError: AST constructor
# recursion depth mismatch". Reentrant: compiling f compiles its callees.
COMPILE_LOCK = threading.RLock()
_CACHE = weakref.WeakKeyDictionary()
_UNCACHED = object()                # a function that cannot be weakly referenced
_LOCAL = threading.local()


class _Rules:
    """One function's published rules and the keys threads are building now."""

    __slots__ = ("published", "building")

    def __init__(self):
        self.published = {}         # key -> Compiled
        self.building = {}          # key -> number of threads building it

    def done_building(self, key):
        self.building[key] -= 1
        if not self.building[key]:
            del self.building[key]

    def specialisations(self, key):
        """Keys sharing key's (wrt, policy, explain, consumed) with a shape signature."""
        keys = set(self.published) | set(self.building)
        return sum(1 for k in keys if k[:4] == key[:4] and k[4] is not None)


def _rules(fn):
    try:
        found = _CACHE.get(fn)
    except TypeError:
        return _UNCACHED
    if found is None:
        with _LOCK:
            found = _CACHE.setdefault(fn, _Rules())
    return found


def rule_for(fn, key, build):
    """The rule for `key` (wrt, policy, explain, consumed, signature, varied, materialised)
    of fn, or None when key has a signature and fn already has MAX_SPECIALISATIONS of
    them."""
    rules = _rules(fn)
    if rules is _UNCACHED:
        return build()
    found = rules.published.get(key)
    if found is not None and found.guards.hold():
        return found
    with _LOCK:
        if key[4] is not None and key not in rules.published and \
                key not in rules.building and rules.specialisations(key) >= MAX_SPECIALISATIONS:
            return None
        rules.building[key] = rules.building.get(key, 0) + 1
    try:
        rule = build()
    except BaseException:
        with _LOCK:
            rules.done_building(key)
        raise
    with _LOCK:                          # one step: the key never looks unclaimed
        rules.done_building(key)
        rules.published[key] = rule      # a newer rule replaces a stale one
    return rule


def rules_of(fn):
    """A copy of fn's published rules, key -> Compiled (for tests and tools)."""
    rules = _rules(fn)
    if rules is _UNCACHED:
        return {}
    with _LOCK:
        return dict(rules.published)


def compiling():
    """The functions this thread is compiling now (recursion reaches them while their
    rule is unfinished): per thread, since another thread's compilation is not ours."""
    active = getattr(_LOCAL, "compiling", None)
    if active is None:
        active = _LOCAL.compiling = set()
    return active


def weak(obj):
    """A weak reference to obj, or for an object that cannot have one a callable
    returning it (held strongly: nothing better is possible)."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj
