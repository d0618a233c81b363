"""jacrev (and jacobian, the same function): Jacobians by reverse mode, built on vjp.

One forward sweep, then one pullback per output entry, each seeded with that entry's
one-hot cotangent; the rows are stacked so that the Jacobian of an output of shape S with
respect to an argument of shape A has shape S + A (JAX's layout):

    jacrev(f)(x)                 f(x).shape + x.shape
    jacrev(f, wrt=(0, 1))(x, y)  (J_x, J_y), a tuple for a tuple wrt
    jacrev(f)(params)            {name: out.shape + params[name].shape}: the argument's
                                 structure, one Jacobian per float leaf
    f returning (a, b)           (J_a, J_b): the output's structure, outermost

A scalar output's Jacobian is its gradient (a float for a float argument, as grad gives).
has_aux=True: fn returns (output, aux), and the result is (Jacobian, aux), as in JAX.
"""
import functools

import numpy as np

from .api import vjp
from .public.checks import check_target, mark_derivative
from .public.parameters import _method_parts, _unwrap, _wrt_names


def jacrev(fn, wrt=0, *, has_aux=False, policy=None):
    """A function returning the Jacobian of `fn` with respect to `wrt` (an index, a name,
    or a tuple of those: a tuple of Jacobians), by reverse mode; see the module text.
    has_aux=True: fn returns (output, aux), and the function returns (Jacobian, aux)."""
    check_target(fn, "jacrev")
    plain, _, shifted = _method_parts(fn, wrt)
    _, single = _wrt_names(_unwrap(plain)[0], shifted)
    wrt_tuple = tuple(wrt) if isinstance(wrt, (tuple, list)) else (wrt,)

    @functools.wraps(fn)
    def jacobian_fn(*args, **kwargs):
        out, pullback, *aux = vjp(fn, *args, wrt=wrt_tuple, policy=policy,
                                  has_aux=has_aux, **kwargs)

        def leaf_jacobian(path, leaf):
            rows = [pullback(cot) for cot in _one_hots(out, path, leaf)]
            per_wrt = tuple(_stacked([r[k] for r in rows], np.shape(leaf))
                            for k in range(len(wrt_tuple)))
            return per_wrt[0] if single else per_wrt
        jac = _map_leaves(out, leaf_jacobian)
        return (jac, aux[0]) if has_aux else jac
    return mark_derivative(jacobian_fn, fn)


jacobian = jacrev


def _map_leaves(out, fn, path=()):
    """out's structure (tuples, lists, dicts) with fn(path, leaf) at each float leaf."""
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*[_map_leaves(v, fn, path + (k,)) for k, v in enumerate(out)])
    if isinstance(out, (tuple, list)):
        return type(out)(_map_leaves(v, fn, path + (k,)) for k, v in enumerate(out))
    if isinstance(out, dict):
        return {k: _map_leaves(v, fn, path + (k,)) for k, v in out.items()}
    if not (isinstance(out, (float, np.floating)) or
            isinstance(out, np.ndarray) and out.dtype.kind == "f"):
        where = "".join(f"[{k!r}]" for k in path)
        raise TypeError(f"jacrev needs float outputs: the output{where} is "
                        f"{type(out).__name__}"
                        f"{'' if not isinstance(out, np.ndarray) else ' of ' + str(out.dtype)}"
                        "; return float values (or arrays, or tuples, lists or dicts of "
                        "them), and anything else from a function of its own")
    return fn(path, out)


def _one_hots(out, path, leaf):
    """One cotangent per entry of the leaf at `path`: that entry 1, the rest zero (None
    for the output's other leaves); a number's is a 0-d array."""
    if np.size(leaf) == 0:            # no entries: one zero row gives the shapes
        yield _placed(out, path, np.zeros_like(leaf))
    for index in np.ndindex(np.shape(leaf)):
        hot = np.zeros_like(leaf)
        hot[index] = 1
        yield _placed(out, path, hot)


def _placed(out, path, value):
    """out's structure with `value` at path and None elsewhere."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(out, dict):
        return {k: _placed(v, rest, value) if k == head else None for k, v in out.items()}
    parts = [_placed(v, rest, value) if k == head else None for k, v in enumerate(out)]
    return parts if isinstance(out, list) else tuple(parts)


def _stacked(grads, out_shape):
    """The rows' gradients (one per output entry, each shaped like the argument) as one
    Jacobian shaped out_shape + the argument's shape, leaf by leaf."""
    first = grads[0]
    if out_shape == ():
        return first                              # a scalar output: its gradient
    if first is None:                             # an int inside a container argument
        return None
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*[_stacked([g[k] for g in grads], out_shape)
                             for k in range(len(first))])
    if isinstance(first, (tuple, list)):
        return type(first)(_stacked([g[k] for g in grads], out_shape)
                           for k in range(len(first)))
    if isinstance(first, dict):
        return {k: _stacked([g[k] for g in grads], out_shape) for k in first}
    if isinstance(first, (np.ndarray, float, np.floating)):
        rows = np.stack([np.asarray(g) for g in grads])[:int(np.prod(out_shape))]
        return rows.reshape(out_shape + np.shape(first))
    raise TypeError(f"jacrev: the gradient of an argument came back as "
                    f"{type(first).__name__}; jacrev takes arrays, floats and tuples, lists "
                    "or dicts of them (pass an object's arrays as arguments)")
