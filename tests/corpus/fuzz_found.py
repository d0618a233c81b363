"""Programs the differential fuzzer (tests/test_fuzz.py) found wrong, minimised.

Each case names the fuzz failure it came from. While a bug is open its cases are
xfail(strict=True) and tests/fuzz/grammar.py FEATURES keeps the construct out of the fuzzer;
fixed ones stay here as regression tests.
"""
import numpy as np

from .case import case, given


# Fixed since: a `return` nested in an if was lowered to a `returned` flag that the
# fall-through return set to True again; the pullback read the final flag, so the
# fall-through path got no gradient (0 instead of 1).
@case(given(0.1))
def nested_if_return_not_taken(x):
    # fuzz: `if x0 > 0.3: if x0 > 0.3: return 0.5` then `return x0`, x0 = 0.126: got 0, want 1
    if x > 0.3:
        if x > 0.5:
            return 0.5
    return x


@case(given(0.4))
def nested_if_return_inner_not_taken(x):
    if x > 0.3:
        if x > 0.5:
            return 0.5
    return x


# fixed: the forward now runs each iteration to its end (jumps set flags)
NESTED_JUMP = ("break/continue inside an if nested in a loop body jumps in the forward sweep "
               "before the statements after the if push their tape entries (`cond3 = not "
               "skip1` is never recorded), so the backward sweep pops a desynchronised tape: "
               "TypeError on None, or StopIteration when the tape runs out")


@case(given(0.7))
def nested_if_continue(x):
    # fuzz (seed 1): continue under `if x0 < 0.3: if x0 > -0.5:` in range(3), then
    # x0 = np.tanh(x0); got TypeError: NoneType ** int in the pullback
    for i in range(2):
        if x > 0.0:
            if x > 0.5:
                continue
        x = np.tanh(x)
    return x


@case(given(0.7))
def nested_if_break(x):
    # fuzz (seed 1): break under two ifs in a loop over an array; got StopIteration
    for i in range(2):
        if x > 0.0:
            if x > 0.5:
                break
        x = x * x
    return x


@case(given(1.3))
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


@case(given(np.array([0.1, 0.9, 0.3]), 0.2))
def nested_if_break_over_array(a, x):
    for v in a:
        if x > 0.0:
            if v > 0.5:
                break
        x = x * v
    return x


LOOP_TARGET = ("rebinding the loop variable inside the body: the backward sweep rebinds it "
               "to the sequence element at the top of each reverse iteration, so adjoints "
               "of statements after the rebinding read the element, not the new value")


@case(given(np.array([-0.18321105, 0.01762539])))
def loop_target_rebound_to_array(a):
    # fuzz (seed 2): `for v3 in a0: v3 = a0; v2 = np.sin(v3)`; got cos(a0[-1]) everywhere,
    # want cos(a0)
    for v in a:
        v = a
        w = np.sin(v)
    return np.sum(w)


@case(given(0.3))
def range_target_rebound(x):
    # got 0, want 2x
    for v in range(1):
        v = x
        w = v * v
    return w


@case(given(0.3, np.array([2.0])))
def loop_target_updated(x, a):
    # got 2 cos(2) (the element), want 2 cos(2x)
    for v in a:
        v = v * x
        w = np.sin(v)
    return w


@case(given(0.5, np.array([1.0, 2.0])))
def return_in_both_branches_in_loop(x, a):
    # fuzz (seed 3): returns in both arms of an if/else in a loop body, dead code after;
    # got StopIteration in the pullback
    for v in a:
        if x > 1.1:
            return np.sum(a)
        else:
            return x
        for i in range(1):
            break
    return x


@case(given(0.5))
def break_in_both_branches(x):
    for i in range(2):
        if x > 1.0:
            break
        else:
            break
        x = x * 3.0
    return x


TARGET_AS_ACCUMULATOR = ("a comprehension assigned to a name it reads uses that name as its "
                         "accumulator: `x = sum(x for v in a)` compiles to `x = 0; for v in "
                         "a: x = x + x`, so the primal itself is wrong")


@case(given(2.0, np.array([1.0, 2.0, 3.0])))
def comprehension_reads_its_target(x, a):
    # fuzz (seed 5): `x0 = sum(np.tanh(x0) for v9 in a0)`; compiled output 0, want 6
    x = sum(x for v in a)
    return x


@case(given(2.0, np.array([1.0, 2.0])))
def comprehension_reads_its_target_list(x, a):
    # TypeError in the forward: `x = []` then `x * v`
    x = [x * v for v in a]
    return x[0] + x[1]


# Fixed since: an array read by index in a loop and rebound after it was kept on the tape
# as a shape stand-in; the loop's in-place index accumulation took the stand-in for a list
# and the gradient came back as NaN (fuzz seed 1427526990).
@case(given(np.array([0.64, 0.10]), np.array([-0.54, 0.36])))
def indexed_in_loop_then_rebound(a0, a1):
    v0 = 0
    while v0 < 1:
        a1 = a1 + 0.3 * np.tanh(a0[v0 % 2])
        v0 += 1
    a0 = a1
    return np.sum(a0 * a1)


# Fixed since: copy propagation emptied a backward loop body down to its comments, and the
# generated source did not compile (IndentationError; fuzz seed 2324490488).
@case(given(0.13, np.array([-0.13, 0.64])))
def loop_body_folded_to_nothing(x0, a0):
    x0 = sum(0.5 for v0 in a0)
    return np.sum(x0 + a0)


# Fixed since: `a0 = a0` went as a no-op copy and left the forward's if without a body
# (IndentationError; fuzz seeds 491358602 and 1494359600).
@case(given(np.array([0.13, -0.13])))
def branch_of_self_copies(a0):
    if np.sum(a0) > 0.3:
        a0 = a0
    else:
        a0 = a0
    return np.sum(a0 * a0)


# Fixed since: `b[:2] *= x` normalizes to `t1 = b[:2]; t3 = t1 * x; b[:2] = t3`; t1 is a
# view of b, read by the backward sweep (dx = sum(dt3 * t1)), and the store wrote through
# it when only b's shape was saved: dx came out as the derivative at the new values
# (fuzz tensors:1068; generated code now keeps such a read as its own copy, `unviewed`).
@case(given(0.7, np.array([-0.435, -0.78, -0.27])))
def slice_scaled_in_place(x, a):
    b = a * 1.0
    b[:2] *= x
    return np.sum(np.tanh(b))


@case(given(0.7, np.array([-0.435, -0.78, -0.27])))
def row_scaled_in_place(x, a):
    S = np.zeros((2, 3))
    S[0] = a
    S[0] *= x
    return np.sum(np.tanh(S))


@case(given(0.7, np.array([-0.435, -0.78, -0.27])))
def row_read_then_overwritten(x, a):
    S = np.zeros((2, 3))
    S[0] = a
    S[1] = S[0] * x
    S[0] = S[1] * x
    return np.sum(np.tanh(S))


# Fixed since: a store through a view (`w = v.reshape(-1); w[::-1] += np.cos(v)`) changed v,
# whose old value cos's adjoint reads (sin(v)); only w's shape was saved, so the backward
# sweep read the stored values (fuzz tensors:101277). The view now gets its own copy where it
# is bound; the user's code reads v no more after the store (else the alias check refuses).
@case(given(np.array([0.3, -0.2, 0.5])))
def store_through_reshape_view_of_a_read_base(a):
    v = a * 1.0
    w = v.reshape(-1)
    w[::-1] += np.cos(v)
    return np.sum(np.tanh(w))


@case(given(np.array([[0.3, -0.2], [0.5, 0.1]])))
def store_through_transpose_of_a_read_base(a):
    v = a * 1.0
    w = v.T
    w[0] = np.sin(v[1])
    return np.sum(np.tanh(w))


# Fixed since: a list built by concatenation or chosen by a conditional expression, then
# repeated (`(xs + [v * 0.5]) * 2`), was differentiated as a product of numbers, not as a
# repetition whose copies' cotangents add (fuzz calls, seed 7: 35 of 300 programs; fixed in
# transform/sequence_kinds.py, which now follows `+`, `a if c else b` and `or` of lists).
@case(given(np.array([0.3, -0.7, 1.1])))
def repeated_concatenation(v):
    xs = [v, np.sin(v)]
    ys = (xs + [v * 0.5]) * 2
    return np.sum(np.stack(ys) ** 2)


@case(given(np.array([0.3, -0.7, 1.1]), 0.4))
def repeated_conditional_choice(v, s):
    xs = [v, np.sin(v)]
    ys = (xs if s > 0 else [v, v]) * 2
    return np.sum(np.stack(ys) ** 2)


@case(given(np.array([0.3, -0.7, 1.1])))
def repeated_or_chain(v):
    xs = [v, np.sin(v)]
    ys = (xs or [v]) * 2
    return np.sum(np.stack(ys) ** 2)
