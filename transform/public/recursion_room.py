"""Room for the user's recursion: a differentiated recursive function takes a few frames
per level (its rule, the run-time rule calling it, the pullbacks, the thunks they
force) where the primal takes one, so at Python's recursion limit the gradient fails
well before the primal does. A call that hits the limit is run again once with the
limit raised (on the main thread, whose C stack is known to hold it), and if it still
does not fit the error says how deep the recursion went:

    grad(rec)(0.3, 900)   # primal: 900 frames; gradient: ~5 per level -> run again
                          # with the limit at 8x (at most CEILING frames)
"""
import sys
import threading

FACTOR = 8          # frames of the gradient per frame of the primal, with room to spare
# CPython 3.11's 8 MB main-thread C stack held a recursive rule at a limit of 20,000
# frames and crashed at 24,000 (frames through C calls use C stack): keep a margin
CEILING = 10_000


def run_deeper(call, fn, first):
    """call() once more with the recursion limit raised; a RecursionError naming the
    depth reached (`first`: the RecursionError of the first try) if it fails again."""
    old = sys.getrecursionlimit()
    if raised_limit(old) <= old or threading.current_thread() is not threading.main_thread():
        raise too_deep(fn, first, old) from None
    try:
        return call_raised(call)
    except RecursionError as again:
        raise too_deep(fn, again, raised_limit(old)) from None


def raised_limit(old):
    return min(old * FACTOR, max(old, CEILING))


def call_raised(call):
    """call() with the recursion limit raised (the caller checked it may be)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(raised_limit(old))
    try:
        return call()
    finally:
        sys.setrecursionlimit(old)


def too_deep(fn, exc, limit):
    """A RecursionError saying how many levels of fn's rule were running."""
    name = getattr(fn, "__name__", "the function")
    levels = _levels(exc, name)
    reached = f" {name} was {levels} calls deep;" if levels > 1 else ""
    detail = str(exc) if "thunk chain" in str(exc) else ""
    return RecursionError(
        f"the gradient needs more than {limit} Python frames (sys.getrecursionlimit(); "
        f"grad raises it on the main thread only):{reached} a differentiated call "
        "takes a few frames per level of recursion. Recurse less deeply, or write the "
        "recursion as a loop. " + detail)


def _levels(exc, name):
    """Frames of fn's generated rule (or, in the backward sweep, its pullbacks) in the
    traceback: the recursion's depth when it stopped."""
    forward = backward = 0
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        # `<thunkgrad mod.rec:12:0 wrt=x ...>` (emit.definition_name)
        if code.co_filename.startswith("<thunkgrad ") and f".{name}:" in code.co_filename:
            forward += code.co_name.endswith("_rrule")
            backward += code.co_name == "pullback"
        tb = tb.tb_next
    return max(forward, backward)


def too_deep_policy(policy):
    why = {"nested": "each accumulation wrapped the previous thunk",
           "flat": "each iteration's cotangent is a thunk that forces the previous "
                   "iteration's"}.get(policy, "thunks were forced from inside thunks")
    return (f"thunk chain too deep under policy={policy!r}: {why}. Use policy='loop' "
            "(the default), which materialises contributions inside loop bodies.")
