"""Programs for test_inplace_writes.py: writes into arguments through helpers, list and
dict methods that change the object, `+=` on what may share memory, and in-place NumPy
calls under other names. Each refusal's line carries a `# refused` marker."""
import numpy as np
from numpy import add as plus
from numpy import multiply
from numpy import power as raised


def push(xs, v):
    xs.append(v * 2.0)                       # refused
    return v


def set_first(xs, v):
    xs[0] = v                                # refused
    return v


def set_key(d, v):
    d["a"] = v                               # refused
    return v


def update_key(d, v):
    d.update({"a": v})                       # refused
    return v


def pop_last(xs):
    xs.pop()                                 # refused
    return 0.0


def sort_list(xs):
    xs.sort()                                # refused
    return 0.0


def add_into(acc, v):
    acc += v                                 # refused
    return acc


def helper_appends(x):
    xs = [x]
    s = np.sum(xs)
    push(xs, x)
    return s + np.sum(xs)


def helper_sets_item(x):
    xs = [x, x]
    set_first(xs, 3.0 * x)
    return np.sum(xs)


def helper_sets_key(x):
    d = {"a": x}
    set_key(d, 2.0 * x)
    return d["a"]


def helper_updates(x):
    d = {"a": x}
    update_key(d, 2.0 * x)
    return d["a"]


def helper_pops(x):
    xs = [x, 2.0 * x]
    pop_last(xs)
    return np.sum(xs)


def helper_sorts(x):
    xs = [3.0 * x, x]
    sort_list(xs)
    return xs[0] * 2.0


def helper_adds_into_array(x):
    a = np.ones(2) * x
    s = a * 1.0
    add_into(a, x)
    return np.sum(s + a)


def helper_adds_into_number(x):
    t = 0.0
    t = add_into(t, x)
    return t * x


def helper_writes_its_own_array(x):
    return np.sum(fresh_row(x)) * x


def fresh_row(x):
    out = np.zeros(3)
    out[0] = x
    out[1] = 2.0 * x
    return out


def list_pop(x):
    xs = [x, 2.0 * x]
    s = np.sum(xs)
    xs.pop()                                 # a private list: rebound
    return s + np.sum(xs)


def list_remove(x):
    xs = [x, 2.0 * x]
    s = np.sum(xs)
    xs.remove(xs[0])                         # rewritten: xs = xs[:k] + xs[k + 1:]
    return s + np.sum(xs)


def list_insert(x):
    xs = [x, 2.0 * x]
    s = np.sum(xs)
    xs.insert(0, 3.0 * x)                    # a private list: rebound
    return s + xs[0]


def list_clear(x):
    xs = [x, 2.0 * x]
    s = np.sum(xs)
    xs.clear()                               # a private list: rebound
    return s + len(xs)


def list_reverse(x):
    xs = [x, 2.0 * x]
    xs.reverse()                             # a private list: rebound
    return xs[0] * 3.0


def dict_pop(x):
    d = {"a": x, "b": 2.0 * x}
    y = d.pop("b")                           # a private dict
    return y * 3.0 + len(d)


def dict_setdefault(x):
    d = {"a": x}
    d.setdefault("b", 3.0 * x)               # a private dict
    return d["b"]


def list_pop_through_class(x):
    xs = [x, 2.0 * x]
    list.pop(xs)                             # refused
    return np.sum(xs)


def list_append_extend(x):
    xs = [x]
    s = np.sum(xs)
    xs.append(3.0 * x)
    xs.extend([x * x])
    return s + np.sum(xs)


def shorter_list(x):
    xs = [x, 2.0 * x]
    s = xs[0] * xs[1]
    xs = xs[:-1]
    return s + np.sum(xs)


def augmented_argument(x, a):
    a -= x                # refused (0-d, list); an array: copied on entry (session 30)
    return np.sum(a * a)


def augmented_copy_viewed(x, a):
    b = a.copy()
    s = b[:2]
    b += x                                   # refused
    return np.sum(s * s)


def augmented_copy_in_dict(x, a):
    b = a.copy()
    d = {"w": b}
    b += x                                   # refused
    return np.sum(d["w"] ** 2)


def augmented_zeros_aliased(x, a):
    b = np.zeros(3)
    c = b
    b += a * x                               # refused
    return np.sum(c * a)


def augmented_list_display_aliased(x):
    xs = [x]
    ys = xs
    xs += [2.0 * x]                          # refused
    return np.sum(ys)


def augmented_local_number(x):
    total = 0.0
    for k in range(3):
        total += x * k
    total *= x
    return total


def augmented_number_argument(x, acc):
    acc += x
    acc *= x
    return acc


def augmented_unshared_copy(x, a):
    b = a.copy()
    b += x
    b *= x
    return np.sum(b * a)


def out_positional_alias(x, a):
    b = a * x
    plus(b, a, b)                            # refused
    return np.sum(b)


def out_keyword_local_name(x, a):
    b = a * x
    op = np.multiply
    op(b, a, out=b)                          # refused
    return np.sum(b)


def out_positional_local_name(x, a):
    b = a * x
    op = multiply
    op(b, a, b)                              # refused
    return np.sum(b)


def sort_through_class(x, a):
    b = a * x
    np.ndarray.sort(b)                       # refused
    return np.sum(b * a)


def ufunc_accumulate_out(x, a):
    b = a * x
    np.add.accumulate(b, 0, None, b)         # refused
    return np.sum(b * a)


def ufunc_reduce_out(x, a):
    b = a * x
    c = np.zeros(())
    np.add.reduce(b, 0, None, c)             # refused
    return c * x


def ufunc_alias_at(x, a):
    b = a * x
    raised.at(b, [0], x)                     # refused (np.power.at has no rewrite)
    return np.sum(b * a)


def ufunc_alias_multiply_at(x, a):
    """np.multiply.at under another name: rewritten as np.multiply.at is (session 34)."""
    b = a * x
    multiply.at(b, [0, 0], x)
    return np.sum(b * a)


def ufunc_alias_add_at(x, a):
    """np.add.at under another name: rewritten as np.add.at is (session 30, lib30)."""
    b = a * x
    plus.at(b, [0, 0], x)
    return np.sum(b * a)


def alias_without_out(x, a):
    return np.sum(plus(a, x) * multiply(a, x))
