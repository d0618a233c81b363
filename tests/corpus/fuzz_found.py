"""Programs the differential fuzzer (tests/test_fuzz.py) found wrong, minimised.

Each case names the fuzz failure it came from; the grammar keeps the construct out of
`make test` (tests/fuzz/grammar.py FEATURES) until the compiler is fixed.
"""
import numpy as np

from .case import compiler_bug, given

RETURN_FLAG = ("a `return` nested in an if (or a loop) is lowered to a `returned` flag that "
               "is set to True again by the fall-through return; the pullback reads the "
               "final flag, so the fall-through path gets no gradient")


@compiler_bug(given(0.1), RETURN_FLAG)
def nested_if_return_not_taken(x):
    # fuzz: `if x0 > 0.3: if x0 > 0.3: return 0.5` then `return x0`, x0 = 0.126: got 0, want 1
    if x > 0.3:
        if x > 0.5:
            return 0.5
    return x


@compiler_bug(given(0.4), RETURN_FLAG)
def nested_if_return_inner_not_taken(x):
    if x > 0.3:
        if x > 0.5:
            return 0.5
    return x


NESTED_JUMP = ("break/continue inside an if nested in a loop body jumps in the forward sweep "
               "before the statements after the if push their tape entries (`cond3 = not "
               "skip1` is never recorded), so the backward sweep pops a desynchronised tape: "
               "TypeError on None, or StopIteration when the tape runs out")


@compiler_bug(given(0.7), NESTED_JUMP)
def nested_if_continue(x):
    # fuzz (seed 1): continue under `if x0 < 0.3: if x0 > -0.5:` in range(3), then
    # x0 = np.tanh(x0); got TypeError: NoneType ** int in the pullback
    for i in range(2):
        if x > 0.0:
            if x > 0.5:
                continue
        x = np.tanh(x)
    return x


@compiler_bug(given(0.7), NESTED_JUMP)
def nested_if_break(x):
    # fuzz (seed 1): break under two ifs in a loop over an array; got StopIteration
    for i in range(2):
        if x > 0.0:
            if x > 0.5:
                break
        x = x * x
    return x


@compiler_bug(given(1.3), NESTED_JUMP)
def jump_in_else_branch(x):
    # fuzz (seed 1), as found: `break` in the if branch, `continue` nested in the else
    for i in range(2):
        if x < -0.2:
            break
        else:
            if x > 0.3:
                continue
        x = np.tanh(x)
    return x


@compiler_bug(given(np.array([0.1, 0.9, 0.3]), 0.2), NESTED_JUMP)
def nested_if_break_over_array(a, x):
    for v in a:
        if x > 0.0:
            if v > 0.5:
                break
        x = x * v
    return x
