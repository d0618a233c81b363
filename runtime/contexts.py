"""`with` blocks in generated code: the context managers open in the forward sweep, so
their `__exit__` runs when an exception leaves, as Python runs it.

    with Timer() as t:          context = Timer()
        body              ->    t = enter_context(context)
                                body
                                exit_context(context)

The caller of a compiled rule (transform/api.py) notes how many are open before the
call (`open_count()`) and, when an exception leaves it, closes the ones opened since,
innermost first, each given the exception (`close_since(mark, exc)`).
"""
import sys
import threading

_LOCAL = threading.local()


def _open():
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


def enter_context(manager):
    """manager.__enter__(); the manager counts as open once that returns."""
    value = manager.__enter__()
    _open().append(manager)
    return value


def exit_context(manager):
    """Close `manager` normally: __exit__(None, None, None)."""
    stack = _open()
    for k in range(len(stack) - 1, -1, -1):
        if stack[k] is manager:
            del stack[k:]
            break
    return manager.__exit__(None, None, None)


def open_count():
    return len(_open())


def close_since(mark, exc):
    """An exception leaves the compiled function: `__exit__(type, exc, tb)` for every
    manager opened since `mark`, innermost first. (A manager that would suppress the
    exception cannot: the generated code has no place to resume; the compiler refuses
    the ones it can see, transform/frontend/exits.py.)"""
    stack = _open()
    while len(stack) > mark:
        manager = stack.pop()
        manager.__exit__(type(exc), exc, exc.__traceback__)


# `try: body finally: block` (no handlers): block's own code, run as Python runs it when
# an exception leaves the body (transform/frontend/try_blocks.py registers it by a key
# the generated code names: "file:line:col")
FINALLY_BLOCKS = {}


class FinallyOnError:
    """An open `try`/`finally`: when an exception leaves the function while it is open,
    `close_since` runs the `finally` block once, on the values the function's variables
    had then (the generated function's frame; its own names are the user's). On a normal
    exit it closes without running anything: the differentiated copy of the block runs
    after it."""

    def __init__(self, key, frame):
        self.key, self.frame = key, frame

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        frame, self.frame = self.frame, None
        if exc is not None and frame is not None:
            code, user_globals = FINALLY_BLOCKS[self.key]
            namespace = dict(user_globals)
            namespace.update(frame.f_locals)
            exec(code, namespace)
        return False


def finally_guard(key):
    """Open the `finally` block registered as `key` (the caller: generated code)."""
    return enter_context(FinallyOnError(key, sys._getframe(1)))


__all__ = ["enter_context", "exit_context", "open_count", "close_since", "finally_guard"]
