"""What checkpointed while loops and loops with jumps refuse, at the user's line: a
`return` in the body, random draws (in the body or the condition), the marker used
elsewhere, a loop `else`, chunk= with jumps; and the driver's determinism check."""
import inspect

import numpy as np
import pytest

from transform import TransformError, checkpointed, checkpointed_while, grad

RNG = np.random.default_rng(0)


def while_return(x, n):
    k = 0
    while checkpointed_while(k < n, snapshots=2):
        x = x * 1.1
        if x > 2.0:
            return x                                            # refused: return
        k = k + 1
    return x


def for_return(x, n):
    for t in checkpointed(range(n), snapshots=2):
        if x > 2.0:
            return x                                            # refused: return
        x = x * 1.1
        if t > 5:
            break
    return x


def draws_in_body(x, n):
    k = 0
    while checkpointed_while(k < n, snapshots=2):
        x = x * RNG.normal()                                    # refused: random
        k = k + 1
    return x


def draws_in_condition(x, n):
    while checkpointed_while(RNG.uniform() < 0.9, snapshots=2):  # refused: random
        x = x * 1.1
    return x


def marker_elsewhere(x, n):
    go = checkpointed_while(x > 0, snapshots=2)                 # refused: elsewhere
    while go:
        x, go = x - 1.0, False
    return x


def with_else(x, n):
    k = 0
    while checkpointed_while(k < n, snapshots=2):               # refused: else
        k = k + 1
    else:
        x = x * 2.0
    return x


def chunked_break(x, n):
    for t in checkpointed(range(n), snapshots=2, chunk=4):      # refused: chunk
        x = x * 1.1
        if x > 2.0:
            break
    return x


def no_snapshots(x, n):
    while checkpointed_while(x < n):                            # refused: snapshots
        x = x * 1.1
    return x


def break_under_finally(x, n):
    k = 0
    while checkpointed_while(k < n, snapshots=2):
        try:
            x = x * 1.1
            if x > 2.0:
                break                                           # refused: try
        finally:
            x = x * 2.0
        k = k + 1
    return x


def continue_under_except(x, n):
    for t in checkpointed(range(n), snapshots=2):
        try:
            x = x * 1.1
        except ZeroDivisionError:
            continue                                            # refused: try
        x = x + 1.0
    return x


CASES = [(while_return, "`return`"), (for_return, "`return`"),
         (draws_in_body, "draws random numbers"), (draws_in_condition, "draws random"),
         (marker_elsewhere, "condition of a while loop"), (with_else, "loop `else`"),
         (chunked_break, "chunk="), (no_snapshots, "snapshots=s"),
         (break_under_finally, "inside a `try` statement"),
         (continue_under_except, "inside a `try` statement")]


def _marked_line(fn):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, text in enumerate(lines) if "# refused" in text)


@pytest.mark.parametrize("fn, words", CASES, ids=[c[0].__name__ for c in CASES])
def test_refused_at_the_users_line(fn, words):
    with pytest.raises(TransformError) as info:
        grad(fn, 0)(0.7, 3)
    err = info.value
    assert words in err.message and err.hint, err
    assert err.line == _marked_line(fn) and err.filename == __file__, err


class Noise:
    def __init__(self):
        self.rng = np.random.default_rng(1)

    def scale(self, x):
        return x * (1.0 + 0.1 * self.rng.normal())


NOISE = Noise()


def method_draws(x, n, s):
    k = 0
    while checkpointed_while(k < n, snapshots=s):
        x = np.tanh(NOISE.scale(x))
        k = k + 1
    return x


@pytest.mark.parametrize("s", [1, 2, 3])
def test_a_step_giving_another_value_when_run_again_is_refused(s):
    with pytest.raises(TypeError, match="gave another value .* must be deterministic"):
        grad(method_draws)(0.3, 6, s)


def test_a_generator_passed_in_is_refused_when_the_loop_runs():
    def loop(x, rng, n):
        k = 0
        while checkpointed_while(k < n, snapshots=2):
            x = x + rng.normal()
            k = k + 1
        return x
    with pytest.raises(TypeError, match="random generator"):
        grad(loop)(0.3, np.random.default_rng(0), 4)


def test_explain_names_the_online_schedule():
    from tests.checkpoint import online_cases as C
    from transform import adjoint_source
    text = adjoint_source(C.counted_ck, 0, explain=True)
    assert "online schedule" in text and "carries (x, total, k)" in text
    assert "binomial" in adjoint_source(C.items_continue_ck, 1, explain=True)
