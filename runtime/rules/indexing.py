"""Gathers and permutations: the cotangent is `g` scattered back to where each
output element was read from, adding up where one element was read twice.
Sort and partition are not differentiable at ties; tied values get one
consistent assignment (a valid subgradient). Subscripting, x[index], is
operator.getitem in operators.py (index_vjp handles repeated indices, masks,
np.newaxis and Ellipsis)."""
import numpy as np

from ..registry import LINEAR, NONE, SHAPE, declare, defvjp, nondiff

defvjp(np.take, "a, indices, axis=None, out=None, mode='raise'",
       "take_vjp(g, a, indices, axis, mode)", None, complex_ok=True, jvp=LINEAR)
defvjp(np.take_along_axis, "arr, indices, axis=-1",
       "take_along_axis_vjp(g, arr, indices, axis)", None, complex_ok=True, jvp=LINEAR)
defvjp(np.sort, "a, axis=-1, kind=None, order=None, *, stable=None",
       "permutation_vjp(g, ans, a, axis)", complex_ok=True,
       jvp="permuted_jvp(t_a, np.argsort(a, axis), axis)")
defvjp(np.partition, "a, kth, axis=-1, kind='introselect', order=None",
       "permutation_vjp(g, ans, a, axis)", None, complex_ok=True,
       jvp="permuted_jvp(t_a, np.argpartition(a, kth, axis), axis)")


def index_trick(trick, items):
    """`trick[items]` for np.r_ and np.c_: what the compiler records for that subscript."""
    return trick[items]


def index_object(obj, index):
    """`obj[index]` for an object that is not an array or a container (np.s_, np.mgrid,
    np.ogrid, a user class): what its __getitem__ computes from the index is unknown."""
    return obj[index]


defvjp(index_trick, "trick, items", None, "index_trick_vjp(g, trick, items)", complex_ok=True,
       jvp=(None, "index_trick_jvp(trick, items, t_items)"))
nondiff(index_object, why=NONE)



def diagonal_positions(a):
    """The index np.fill_diagonal(a, v) writes (wrap=False): (r, r, ...) for r below
    min(a.shape); the compiler writes that call as `a[diagonal_positions(a)] = v`
    (transform/frontend/ufunc_at.py)."""
    shape = np.shape(a)
    if len(shape) < 2 or len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError("array must be at least 2-d" if len(shape) < 2 else
                         "All dimensions of input must be of equal length")
    return (np.arange(min(shape)),) * len(shape)


def diagonal_length(a):
    """How many entries np.fill_diagonal(a, v) writes: v is repeated or cut to it."""
    return len(diagonal_positions(a)[0])


nondiff(diagonal_positions, why=SHAPE, fresh=True)
nondiff(diagonal_length, why=SHAPE)

# Functions without a rule that write into their first argument (the alias analysis
# refuses them where the backward sweep needs the old value)
declare(np.copyto, np.put, np.place, np.putmask, np.fill_diagonal, np.put_along_axis,
        writes=True)
