"""Augmented assignment on names, and writes into (copied) arrays."""
import numpy as np

from .case import case, refused, floats

ALIAS = ("augmented assignment on an array another name shares (`c = b; c += 1`): NumPy "
         "writes in place, which the tape cannot undo; refused at run time with a TypeError "
         "naming the line (numbers are fine)")


@case(floats((), ()))
def augassign_scalars(x, y):
    z = x
    z += y
    z *= x
    z -= y * 0.5
    z /= 1.0 + y * y
    return z


@case(floats((3,)))
def augassign_array(a):
    b = a * 1.0
    b += a
    b *= a
    return np.sum(b)


@case(floats(()))
def augassign_power(x):
    y = x + 2.0
    y **= 3
    return y


@case(floats((3,)))
def augassign_loop_accumulator(a):
    s = 0.0
    for v in a:
        s += v * v
        s *= 0.9
    return s


@case(floats((2, 2), (2,)))
def augassign_matmul(A, x):
    y = x
    y = A @ y
    y += x
    return np.sum(y ** 2)


@case(floats((3,)))
def setitem_on_zeros(a):
    out = np.zeros(3)
    for i in range(3):
        out[i] = a[i] * a[i]
    return np.sum(out * a)


@case(floats((3,)))
def setitem_on_copy(a):
    b = a.copy()
    b[0] = b[1] * b[2]
    return np.sum(b * b)


@case(floats((4,)))
def setitem_slice(a):
    out = np.zeros(4)
    out[1:3] = a[:2] * 2.0
    return np.sum(out * a)


@case(floats((3,)))
def augassign_item(a):
    out = np.zeros(3)
    for i in range(3):
        out[i] += a[i]
        out[i] *= a[i]
    return np.sum(out)


@case(floats((2, 2)))
def setitem_2d(A):
    B = np.zeros((2, 2))
    B[0, 1] = A[1, 0]
    B[1, 0] = A[0, 1] * A[0, 0]
    return np.sum(B * A)


@case(floats(()))
def list_item_assignment(x):
    xs = [x, x * 2.0]
    xs[0] = xs[1] * x
    return xs[0] + xs[1]


@case(floats(()))
def augassign_in_branch(x):
    y = x
    if x > -10.0:
        y += x * x
    else:
        y -= x
    return y


@refused(floats((2,)), ALIAS)
def augassign_through_alias(a):
    b = a * 1.0
    c = b
    c += 1.0             # in place: b changes too
    return np.sum(b * c)


@refused(floats((2,)), ALIAS)
def augassign_multiply_alias(a):
    b = a * 2.0
    c = b
    c *= a
    return np.sum(b)


WRITE_THROUGH_ALIAS = ("a write through one name into an array/list/dict that another name "
                       "also refers to: refused with a TransformError (the backward sweep "
                       "restores values by name and cannot follow shared data)")


@refused(floats((2,)), WRITE_THROUGH_ALIAS)
def setitem_through_alias(a):
    out = np.zeros(2)
    b = out
    out[0] = a[0] * a[1]
    return np.sum(b * a)


@refused(floats(()), WRITE_THROUGH_ALIAS)
def list_append_through_alias(x):
    xs = [x, 2.0]
    ys = xs
    ys.append(x * x)
    return xs[2] + xs[0]


@refused(floats(()), WRITE_THROUGH_ALIAS)
def list_setitem_through_alias(x):
    xs = [x, 2.0]
    ys = xs
    ys[1] = x * 3.0
    return xs[1] * x


@refused(floats(()), WRITE_THROUGH_ALIAS)
def dict_setitem_through_alias(x):
    d = {"a": x}
    e = d
    e["a"] = x * x
    return d["a"]


@case(floats((3,), ()))
def write_into_an_argument(x, a):
    # x is copied on entry: differentiated as a map from the values received
    x[0] = a * x[1]
    return np.sum(x ** 2)


@case(floats((4,), ()))
def argument_updated_in_a_loop(x, y):
    for i in range(3):
        x[i + 1] = x[i + 1] + y * x[i]
    return np.sum(np.sin(x))


@case(floats((2, 3)))
def argument_rows_rescaled(W):
    for i in range(2):
        W[i] = W[i] / np.sum(W[i] ** 2)
    return np.sum((W @ W.T) ** 2)
