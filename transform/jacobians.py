"""jacrev (and jacobian, the same function): Jacobians by reverse mode, built on vjp;
jacfwd, the same Jacobians by forward mode, built on jvp (one jvp per argument entry).

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
import inspect

import numpy as np

from runtime.forward import zero_tangent
from .api import grad, vjp
from .forward_api import prepared_jvp
from .nested_jacobians import nested, spec_of, tag
from .public.checks import check_target, mark_derivative, returned_at
from .public.sourced import with_source
from .public.parameters import _method_parts, _unwrap, _wrt_names, keywords_by_position


def jacrev(fn, wrt=0, *, has_aux=False, policy=None):
    """A function returning the Jacobian of `fn` with respect to `wrt` (an index, a name,
    or a tuple of those: a tuple of Jacobians), by reverse mode; see the module text.
    has_aux=True: fn returns (output, aux), and the function returns (Jacobian, aux)."""
    if spec_of(fn) is not None and not has_aux:    # jacrev(jacfwd(f)): nested_jacobians.py
        return nested("jacrev", jacrev, fn, wrt, policy, grad)
    fn = check_target(fn, "jacrev")
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
        jac = _map_leaves(out, leaf_jacobian, owner=_unwrap(plain)[0])
        return (jac, aux[0]) if has_aux else jac
    return tag(mark_derivative(jacobian_fn, fn), "jacrev", fn, wrt, has_aux)


jacobian = jacrev


def _map_leaves(out, fn, path=(), api="jacrev", owner=None):
    """out's structure (tuples, lists, dicts) with fn(path, leaf) at each float leaf
    (`owner`: the user's function returning out, which a refusal names)."""
    def each(v, k):
        return _map_leaves(v, fn, path + (k,), api, owner)
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*[each(v, k) for k, v in enumerate(out)])
    if isinstance(out, (tuple, list)):
        return type(out)(each(v, k) for k, v in enumerate(out))
    if isinstance(out, dict):
        return {k: each(v, k) for k, v in out.items()}
    if not (isinstance(out, (float, np.floating)) or
            isinstance(out, np.ndarray) and out.dtype.kind == "f"):
        where = "".join(f"[{k!r}]" for k in path)
        raise TypeError(f"{api} needs float outputs: the output{where} is "
                        f"{type(out).__name__}"
                        f"{'' if not isinstance(out, np.ndarray) else ' of ' + str(out.dtype)}"
                        f"{_returned_by(owner)}; return float values (or arrays, or "
                        "tuples, lists or dicts of them), and anything else from a function "
                        "of its own")
    return fn(path, out)


def _returned_by(owner):
    """`, returned by f() (file:line)` for the user's function, else nothing."""
    owner = getattr(owner, "__func__", owner)
    if getattr(owner, "__code__", None) is None:
        return ""
    return f", returned by {owner.__name__}(){returned_at(owner)}"


def _one_hots(out, path, leaf):
    """One cotangent per entry of the leaf at `path`: that entry 1, the rest zero (None
    for the output's other leaves); a number's is a 0-d array."""
    if np.size(leaf) == 0:            # no entries: one zero row gives the shapes
        yield _placed(out, path, np.zeros_like(leaf), _nothing)
    for index in np.ndindex(np.shape(leaf)):
        hot = np.zeros_like(leaf)
        hot[index] = 1
        yield _placed(out, path, hot, _nothing)


def _placed(tree, path, value, others):
    """tree's structure (tuples, NamedTuples, lists, dicts) with `value` at `path` and
    others(v) for every other entry v beside the path: None for jacrev's one-hot
    cotangents (the output's other leaves carry none), v itself for jacfwd's tangents
    (the zero tangent elsewhere; only the path's containers are new)."""
    if not path:
        return value
    head, rest = path[0], path[1:]

    def entry(k, v):
        return _placed(v, rest, value, others) if k == head else others(v)
    if isinstance(tree, dict):
        return {k: entry(k, v) for k, v in tree.items()}
    parts = [entry(k, v) for k, v in enumerate(tree)]
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return type(tree)(*parts)
    return parts if isinstance(tree, list) else tuple(parts)


def _nothing(_):
    return None


def _kept(v):
    return v


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


def jacfwd(fn, wrt=0, *, policy=None):
    """A function returning the Jacobian of `fn` with respect to `wrt` by forward mode:
    one jvp per entry of each differentiated argument, its tangent that entry 1 and the
    rest zero; the same shapes and structures as jacrev (see the module text)."""
    if spec_of(fn) is not None:                 # jacfwd(jacrev(f)): nested_jacobians.py
        return nested("jacfwd", jacfwd, fn, wrt, policy, grad)
    fn = check_target(fn, "jacfwd")
    fn = with_source(fn)                        # np.tanh: a generated function calling it
    wrt_tuple = tuple(wrt) if isinstance(wrt, (tuple, list)) else (wrt,)
    single = not isinstance(wrt, (tuple, list))

    @functools.wraps(fn)
    def jacobian_fn(*args, **kwargs):
        args = keywords_by_position(fn, "jacfwd", args, kwargs)
        for w in wrt_tuple:
            if _position(fn, w) >= len(args):
                raise TypeError(f"jacfwd: {w!r} is differentiated but this call does not "
                                "pass it (a default is not); pass it")
            _check_jacfwd_argument(args[_position(fn, w)])
        zeros = [_zeros_like_arg(args[_position(fn, w)]) for w in wrt_tuple]
        # the value too comes from jvp, which never writes into the caller's arrays
        # (fn itself may: a second call would then start from the written values)
        along = prepared_jvp(fn, args, wrt_tuple, policy, "jacfwd")  # compiled once
        out, columns = along(zeros)[0], {}
        for k, w in enumerate(wrt_tuple):       # (k, argument path) -> output tangents
            for path, leaf in _float_leaves(args[_position(fn, w)]):
                columns[k, path] = [
                    along([_placed(zeros[j], path, hot, _kept) if j == k else
                           zeros[j] for j in range(len(wrt_tuple))], value=False)[1]
                    for hot in _one_hots(leaf, (), leaf)]

        def leaf_jacobian(out_path, out_leaf):
            per_wrt = tuple(_rebuilt(args[_position(fn, w)], lambda path, leaf, k=k: _columns(
                [_at(c, out_path) for c in columns[k, path]], np.shape(out_leaf), leaf))
                for k, w in enumerate(wrt_tuple))
            return per_wrt[0] if single else per_wrt
        return _map_leaves(out, leaf_jacobian, api="jacfwd", owner=_unwrap(fn)[0])
    return tag(mark_derivative(jacobian_fn, fn), "jacfwd", fn, wrt)


def _check_jacfwd_argument(value):
    """Floats, float arrays and tuples, lists and dicts of them (ints inside are held)."""
    if isinstance(value, (tuple, list)):
        for v in value:
            _check_jacfwd_argument(v)
    elif isinstance(value, dict):
        for v in value.values():
            _check_jacfwd_argument(v)
    elif not isinstance(value, (float, int, np.number, np.ndarray)) or \
            isinstance(value, np.ndarray) and value.dtype.kind not in "fiub":
        raise TypeError(f"jacfwd takes floats, arrays and tuples, lists or dicts of them, "
                        f"not {type(value).__name__}; pass the object's arrays as arguments")


def _position(fn, w):
    return w if isinstance(w, int) else list(_params_of(fn)).index(w)


def _params_of(fn):
    return inspect.signature(_unwrap(fn)[0]).parameters


def _float_leaves(value, path=()):
    """(path, leaf) for each float leaf of an argument (tuples, lists, dicts)."""
    if isinstance(value, (tuple, list)):
        for k, v in enumerate(value):
            yield from _float_leaves(v, path + (k,))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _float_leaves(v, path + (k,))
    elif isinstance(value, (float, np.floating)) or \
            isinstance(value, np.ndarray) and value.dtype.kind == "f":
        yield path, value


def _rebuilt(value, fn, path=()):
    """The argument's structure with fn(path, leaf) at float leaves, None elsewhere."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[_rebuilt(v, fn, path + (k,)) for k, v in enumerate(value)])
    if isinstance(value, (tuple, list)):
        return type(value)(_rebuilt(v, fn, path + (k,)) for k, v in enumerate(value))
    if isinstance(value, dict):
        return {k: _rebuilt(v, fn, path + (k,)) for k, v in value.items()}
    if any(True for _ in _float_leaves(value)):
        return fn(path, value)
    return None


def _zeros_like_arg(value):
    return zero_tangent(value)


def _at(value, path):
    for k in path:
        value = value[k]
    return value


def _columns(columns, out_shape, leaf):
    """The output tangents of one argument leaf's entries as out_shape + its shape."""
    arg_shape = np.shape(leaf)
    if not columns or np.size(leaf) == 0:
        return np.zeros(out_shape + arg_shape, getattr(leaf, "dtype", float))
    stacked = np.stack([np.broadcast_to(np.asarray(c), out_shape) for c in columns], -1)
    jac = stacked.reshape(out_shape + arg_shape)
    return float(jac) if jac.shape == () and not isinstance(leaf, np.ndarray) else jac
