"""try/except/else/finally around values not being differentiated, `with` blocks left by
return/break/continue, `global` reads and sets of constants: scalar and array variants,
and the refusals (a differentiated value inside a handler's reach, jumps out of a try
body, a name a handler may leave unbound, writes into outside values, global writes,
suppressing context managers, sets of differentiated values)."""
import contextlib
import math

import numpy as np

from .case import case, floats, given, mixed, positive, refused

LOG = []
SCALE = 1.5
TABLE = {"a": 2.0, "b": -0.5}


class Tracked:
    """A context manager that logs entry and exit (the order is checked in
    tests/corpus/test_handlers_order.py)."""

    def __init__(self, tag):
        self.tag = tag

    def __enter__(self):
        LOG.append(("enter", self.tag))
        return self

    def __exit__(self, *exc_info):
        LOG.append(("exit", self.tag))
        return False


# ---- try ------------------------------------------------------------------------

@case(mixed(floats((3,)), given(0.0)), wrt=(0,))
def try_zero_division_taken(x, c):
    try:
        val = 1.0 / c
    except ZeroDivisionError:
        val = 0.25
    return np.sum(np.sin(x)) * val


@case(mixed(floats(()), given(4.0)), wrt=(0,))
def try_zero_division_not_taken_scalar(x, c):
    try:
        val = 1.0 / c
    except ZeroDivisionError:
        val = 0.0
    return math.sin(x) * val + x * x


@case(floats((3,)))
def try_import_error_around_a_constant(x):
    try:
        from scipy.special import gammaln as lgam      # noqa: F401
        have_scipy = True
    except ImportError:
        have_scipy = False
    k = math.lgamma(3.5) if have_scipy else 1.0
    return np.sum(x ** 2) * k


@case(mixed(floats((2, 3)), given("c")), wrt=(0,))
def try_key_error_with_message(W, key):
    try:
        w = TABLE[key]
    except KeyError as missing:
        print("no entry for", missing)
        w = 1.0
    return np.sum(np.tanh(W) * w)


@case(mixed(floats(()), given("2.5")), wrt=(0,))
def try_else_differentiated_scalar(x, text):
    try:
        scale = float(text)
    except ValueError:
        scale = 1.0
    else:
        scale = scale * x
    return scale * x + np.exp(x)


@case(mixed(floats((3,)), given("oops")), wrt=(0,))
def try_else_skipped_array(x, text):
    scale = 2.0
    try:
        scale = float(text)
    except ValueError:
        pass
    else:
        x = x * scale
    return np.sum(x ** 3) * scale


@case(floats((3,)))
def try_finally_runs_after_differentiated_body(x):
    try:
        y = np.sum(np.exp(x))
    finally:
        print("finally")
    return y * x[0]


@case(floats(()))
def try_finally_before_return_scalar(x):
    total = 0.0
    try:
        total = x * x
        if total > -1.0:
            return total * 3.0
        total = total + 1.0
    finally:
        total = total * 100.0             # runs before the return; its value is unused
    return total


@case(floats((4,)))
def try_in_a_loop_with_index_error(x):
    weights = [0.5, 1.5, 2.5]
    total = 0.0
    for i in range(4):
        try:
            w = weights[i]
        except IndexError:
            w = -1.0
        total = total + w * x[i] ** 2
    return total


@case(floats((3,)))
def try_except_else_finally_in_a_loop_with_continue(x):
    total = 0.0
    for i in range(3):
        try:
            inv = 1.0 / (i - 1)
        except ZeroDivisionError:
            inv = 0.0
        else:
            if i == 2:
                continue                  # the finally block runs first
            total = total + inv * x[i]
        finally:
            total = total * 1.5
    return total * x[0]


@case(mixed(floats((3,)), given(0.0)), wrt=(0,))
def nested_try_statements(x, c):
    try:
        try:
            r = math.log(c)
        except ValueError:
            r = -1.0
        q = 1.0 / (r + 1.0)
    except ZeroDivisionError:
        q = 3.0
    return np.sum(x * q) + q


@case(mixed(floats((3,)), given(2.0)), wrt=(0,))
def try_partly_done_then_raised(x, c):
    a = 1.0
    try:
        a = c * 2.0                       # done before the raise: kept, as in Python
        b = [1.0, 2.0][int(c)]            # IndexError
    except IndexError:
        b = a
    return np.sum(x) * a + b * x[1]


@refused(positive((3,)), "x, being differentiated, is read in the try body")
def try_body_reads_differentiated(x):
    try:
        y = np.log(x)
    except FloatingPointError:
        y = x
    return np.sum(y)


@refused(floats(()), "a handler reads x, being differentiated")
def try_handler_reads_differentiated(x):
    try:
        y = 1.0 / 0.0
    except ZeroDivisionError:
        y = x * 2.0
    return y


@case(mixed(floats(()), given("nan?")), wrt=(0,))
def try_may_keep_a_differentiated_value(x, text):
    y = x * 3.0
    try:
        y = float(text)                   # raises: y keeps x * 3.0
    except ValueError:
        pass
    return y * x


@case(mixed(floats((2,)), given("2.5")), wrt=(0,))
def try_rebinds_a_differentiated_value(x, text):
    y = x * 3.0
    try:
        y = float(text)                   # y becomes a constant
    except ValueError:
        pass
    return np.sum(y * x)


@refused(floats(()), "return inside a try body")
def try_return_in_body(x):
    try:
        return x * 2.0
    except ValueError:
        return x


@case(mixed(floats(()), given(2.0)), wrt=(0,))
def try_maybe_unbound(x, c):
    try:
        v = 1.0 / c
    except ZeroDivisionError:
        pass
    return x * v


@refused(floats((3,)), "writing into an outside array inside a try")
def try_writes_outside_array(x):
    w = np.ones(3)
    try:
        w[0] = 2.0
    except IndexError:
        pass
    return np.sum(w * x)


# ---- with blocks left by return/break/continue ------------------------------------

@case(floats((3,)))
def with_left_by_return_in_a_branch(x):
    with Tracked("outer"):
        with Tracked("inner"):
            if np.sum(x) > -100.0:
                return np.sum(np.sin(x) * x)
        y = x * 2.0
    return np.sum(y)


@case(floats(()))
def with_left_by_break_and_continue_scalar(x):
    total = 0.0
    for i in range(4):
        with Tracked(i):
            total = total + math.sin(x * i) + x
            if i == 1:
                continue
            if i == 2:
                break
            total = total * x
    return total


@case(floats((3,)))
def with_return_value_computed_before_exit(x):
    with np.errstate(divide="ignore"):
        y = np.log(np.abs(x) + 1.0)
        return np.sum(y * x)


@case(floats((4,)))
def with_inside_a_loop_inside_the_with(x):
    total = 0.0
    with Tracked("all"):
        for i in range(4):
            if i == 3:
                break                     # this loop's break: no exit of "all"
            total = total + x[i] * x[i]
    return total


@refused(floats(()), "contextlib.suppress may swallow an exception")
def with_suppress(x):
    y = 0.0
    with contextlib.suppress(ZeroDivisionError):
        y = x / 0.0
    return y


# ---- global reads, sets -------------------------------------------------------------

@case(floats((3,)))
def global_read(x):
    global SCALE
    return np.sum(x ** 2) * SCALE


@case(floats(()))
def global_read_in_a_loop_scalar(x):
    global SCALE, TABLE
    total = 0.0
    for key in sorted(TABLE):
        total = total + TABLE[key] * x * SCALE
    return total


@refused(floats(()), "writing a global")
def global_write(x):
    global SCALE
    SCALE = 2.0
    return x * SCALE


@case(floats((4,)))
def set_comprehension_of_indices(x):
    odd = {k for k in range(8) if k % 2 == 1}
    total = 0.0
    for i in range(4):
        if i in odd:
            total = total + x[i] ** 2
    return total * len(odd)


@case(floats(()))
def set_literal_of_constants_scalar(x):
    seen = {1, 2, 2, 3}
    return x * len(seen) + x ** 2 * (2 in seen)


@refused(floats((3,)), "a set of differentiated values")
def set_of_differentiated_values(x):
    s = {v * 2.0 for v in x}
    return sum(s)


@refused(floats(()), "a try statement inside a nested def")
def try_in_a_nested_def(x):
    def safe_inverse(v):
        try:
            return 1.0 / v
        except ZeroDivisionError:
            return 0.0
    return safe_inverse(2.0) * x


def safe_ratio(a, b):
    try:
        r = 1.0 / b
    except ZeroDivisionError:
        r = 0.0
    return a * r


@case(floats((3,)))
def try_in_a_helper(x):
    return np.sum(safe_ratio(x, 0.0) + safe_ratio(x ** 2, 4.0))


# ---- prints in a generator helper walked by a loop ----------------------------------

def noisy_steps(x, n):
    for k in range(n):
        print("making", k)
        yield x * (k + 1.0)


def quiet_steps(x, n):
    for k in range(n):
        yield np.sin(x) * (k + 1.0)


def report(v):
    print("got", v)


@case(floats((3,)))
def generator_prints_loop_quiet(x):
    total = 0.0
    for v in noisy_steps(x, 3):
        total = total + np.sum(v * v)
    return total


@case(floats(()))
def loop_prints_generator_quiet_scalar(x):
    total = 0.0
    for v in quiet_steps(x, 3):
        print("got", v)
        total = total + v * x
    return total


@case(floats(()))
def generator_and_loop_both_print(x):
    total = 0.0
    for v in noisy_steps(x, 2):
        print("got", v)
        total = total + v
    return total


@case(floats((2,)))
def generator_and_loop_helper_both_print(x):
    total = 0.0
    for v in noisy_steps(x, 2):
        report(v)
        total = total + np.sum(v)
    return total


# ---- match on literals and captures ---------------------------------------------------

@case(mixed(floats((3,)), given("l2")), wrt=(0,))
def match_string_modes(x, mode):
    match mode:
        case "l1":
            r = np.sum(np.abs(x))
        case "l2" | "sq":
            r = np.sum(x ** 2)
        case None:
            r = 0.0
        case _:
            r = np.max(x)
    return r * x[0]


@case(floats(()))
def match_int_steps_with_capture_and_guard_scalar(x):
    total = 0.0
    for i in range(5):
        match i:
            case 0:
                total = total + x
            case 1 | 2:
                total = total * x
            case k if k > 3:
                total = total + k * math.sin(x)
            case other:
                total = total - other * x * x
    return total


@case(floats((2, 2)))
def match_flag_with_as(W):
    out = 0.0
    for flag in (True, False, None):
        match flag:
            case True as on:
                out = out + np.sum(W) * on
            case False:
                out = out * 2.0
            case None:
                out = out + np.sum(np.tanh(W))
    return out


@case(floats((2,)))             # refused before round 27; a sequence pattern now works
def match_sequence_pattern(x):
    match [1, 2]:
        case [a, b]:
            return x[0] * a + x[1] * b
    return 0.0


@case(mixed(floats((3,)), given(["1.5", "x", "2", "?", "0.5"])), wrt=(0,))
def try_except_continue_in_a_loop(x, texts):
    total = 0.0
    for t in texts:
        try:
            v = float(t)
        except ValueError:
            continue
        total = total + v * np.sum(x ** 2)
    return total


@case(mixed(floats(()), given(["1.5", "2", "stop", "4"])), wrt=(0,))
def try_except_break_with_finally_scalar(x, texts):
    total = 0.0
    tried = 0
    for t in texts:
        try:
            tried = tried + 1
            v = float(t)
        except ValueError:
            break
        finally:
            total = total + x * 0.5
        total = total + v * math.sin(x)
    return total * tried


@case(mixed(floats((2,)), given(["3", "nope", "5"])), wrt=(0,))
def try_partial_assignment_then_continue(x, texts):
    last_seen = "none"
    acc = 0.0
    for t in texts:
        try:
            last_seen = t
            if t == "5":
                continue                  # a jump in the body itself
            v = int(t)
        except ValueError:
            continue
        acc = acc + v * np.sum(np.exp(x))
    return acc + (len(last_seen) * x[0])


@case(floats((3,)))
def try_output_augmented_after(x):
    total = 0.0
    for k in range(2):
        try:
            n = int(["7", "?"][k])
        except ValueError:
            n = 1
        n += 2                            # reads the n the try bound
        total = total + n * np.sum(x * x)
    return total


@case(mixed(floats((3,)), given(["1", "q", "2"])), wrt=(0,))
def with_around_try_continue_finally(x, texts):
    total = 0.0
    for t in texts:
        with Tracked(t):
            try:
                v = float(t)
            except ValueError:
                print("skip", t)
                continue                  # finally, then __exit__, then next
            finally:
                print("fin", t)
            total = total + v * np.sum(x ** 2)
    return total


@case(floats((3,)))
def with_around_try_finally_return(x):
    with Tracked("r"):
        try:
            return np.sum(np.sin(x) * x)
        finally:
            print("fin")


@case(mixed(floats((3,)), given(["1", "q", "2"])), wrt=(0,))
def loop_else_after_try_break(x, texts):
    total = 0.0
    for t in texts:
        try:
            v = float(t)
        except ValueError:
            break
        total = total + v * np.sum(x)
    else:
        total = total * 10.0
    return total


def noisy_until(x, n, stop, scale=2.0):
    print("start")
    if stop:
        return
    for k in range(n):
        print("making", k)
        yield x * (k + scale)
    total = x * 0.5                       # a name the caller also uses
    print("end")
    yield from [total, total * 3.0]


@case(floats((3,)))
def generator_with_return_yield_from_and_continue(x):
    total = 0.0
    for v in noisy_until(x, 3, False):
        print("got", np.sum(v))
        if np.sum(v) > 1e9:
            continue
        total = total + np.sum(np.sin(v) * v)
    else:
        print("done")
    return total


@case(floats(()))
def generator_stopped_early_by_return_scalar(x):
    total = x
    for v in noisy_until(x, 2, True):
        print("never", v)
        total = total + v
    return total * x


@case(floats((2,)))
def generator_walked_in_a_nested_loop(x):
    total = 0.0
    for k in range(2):
        for v in noisy_steps(x * (k + 1.0), 2):
            print("outer", k, "got", v)
            total = total + np.sum(v ** 2)
    return total
