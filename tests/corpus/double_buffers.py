"""Double buffering: two (or three) arrays exchanged each step, `u, un = un, u`, with
writes into the buffer (alias/swaps.py relabels the swapped objects; a store into a
swapped name writes into a copy when the backward sweep reads one of them). Heat and
wave steps, swaps under a branch, in a `while`, in nested loops, of lists and of scalars,
values the backward sweep reads from the buffer about to be overwritten; and the
refusals: a view of the old buffer read after a write into it, a swap of two names for
one array, a swap with an argument. (`u = u0.copy()` works under grad; adjoint_source,
which knows no argument shapes, cannot tell `u0.copy()` is an array and refuses the
element copies between the buffers, `un[0] = u[0]`, as possible list sharing.)"""
import numpy as np

from .case import case, floats, mixed, refused


@case(mixed(floats((9,)), floats((), scale=0.1, offset=0.2)))
def heat_step_swap(u0, k):
    u = np.array(u0)                  # (`u0.copy()`: refused by adjoint_source, see below)
    un = np.zeros_like(u0)
    for step in range(5):
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        un[0] = u[0]
        un[-1] = u[-1]
        u, un = un, u
    return np.sum(u ** 2)


@case(mixed(floats((9,)), floats((), scale=0.1, offset=0.2)))
def heat_swap_with_progress(u0, k):
    u = u0 * 1.0
    un = np.empty_like(u0)
    un[0] = 0.0
    un[-1] = 0.0
    for step in range(4):
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2]) * u[1:-1]
        if step % 2 == 0:
            print("step", step, "max", np.max(un))
        u, un = un, u
    return np.sum(np.sin(u) * un)


@case(mixed(floats((8,)), floats((), scale=0.1, offset=0.5)))
def wave_three_buffers(u0, c):
    prev = u0.copy()
    cur = u0.copy()
    nxt = np.zeros_like(u0)
    for step in range(4):
        nxt[1:-1] = 2 * cur[1:-1] - prev[1:-1] + c * c * (cur[2:] - 2 * cur[1:-1] + cur[:-2])
        prev, cur, nxt = cur, nxt, prev
    return np.sum(cur ** 3) + np.sum(prev)


@case(mixed(floats((5,)), floats((), offset=0.5)))
def swap_old_value_read_back(u0, k):
    a = u0 * 1.0
    b = u0 * 0.0
    for i in range(3):
        b[:] = a * a + np.sin(a) * k      # the backward sweep reads a, b's next array
        a, b = b, a
    return np.sum(a)


@case(mixed(floats((6, 6)), floats((), scale=0.05, offset=0.2)))
def heat_2d_swap(u0, k):
    u = u0 * 1.0
    un = np.zeros((6, 6))
    for s in range(3):
        un[1:-1, 1:-1] = u[1:-1, 1:-1] + k * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                              + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])
        u, un = un, u
    return np.sum(u ** 2)


@case(mixed(floats((8,)), floats((), offset=0.3)))
def swap_in_while_and_branch(u0, k):
    a = u0.copy()
    b = u0 * k
    n = 0
    while n < 5:
        b[::2] = a[::2] * k + b[1::2]
        if n % 2 == 1:
            a, b = b, a
        n += 1
    return np.sum(a * np.cos(b))


@case(mixed(floats((7,)), floats((), scale=0.1, offset=0.2)))
def swap_nested_loops_augmented(u0, k):
    a = np.array(u0)
    b = np.array(u0)
    for outer in range(2):
        for inner in range(2):
            b[1:-1] += a[1:-1] * a[2:] * k
            a, b = b, a
        a[0] = a[1] * k
    return np.sum(np.exp(a)) + np.sum(b * b)


@case(mixed(floats((4,)), floats((), offset=0.5)))
def swap_lists_as_buffers(u0, k):
    a = [u0[0], u0[1], u0[2], u0[3]]
    b = [0.0, 0.0, 0.0, 0.0]
    for step in range(3):
        for i in range(4):
            b[i] = a[i] * k + a[(i + 1) % 4] ** 2
        a, b = b, a
    return sum(a) + b[0]


@case(floats((), (), offset=0.5))
def swap_scalars(x, y):
    lo, hi = x, y * 2.0
    for step in range(4):
        lo, hi = hi, lo * x + 0.1
        lo, hi = hi, lo
    return lo * hi


@refused(mixed(floats((6,)), floats(())), "a view of the old buffer is read after a write into it")
def swap_view_read_after_write(u0, k):
    a = u0 * 1.0
    b = u0 * 0.0
    v = a[1:]
    a, b = b, a
    b[0] = k
    return np.sum(v)


@refused(mixed(floats((6,)), floats(())), "the two swapped names are one array")
def swap_two_names_one_array(u0, k):
    a = u0 * 1.0
    b = a
    for i in range(2):
        b[1:] = a[:-1] * k
        a, b = b, a
    return np.sum(a)


@refused(mixed(floats((6,)), floats(())), "a buffer is the caller's argument")
def swap_with_argument(u0, k):
    a = u0
    b = u0 * 1.0
    for i in range(2):
        b[1:] = a[:-1] * k
        a, b = b, a
    return np.sum(a)
