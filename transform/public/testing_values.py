"""check_grads' handling of argument values: nested arguments as leaves addressed by
paths, read-only copies, and the detection of a function or rule that writes into its
inputs (split from transform/testing.py, which keeps the checks and the report)."""
import numpy as np


def _is_float_valued(value):
    leaves = _leaves(value)
    return bool(leaves) and all(_is_float_leaf(leaf) for _, leaf in leaves)


def _is_float_leaf(value):
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (float, np.floating)):
        return True
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


def _leaves(value, path=()):
    """[(path, leaf)] for a value made of lists, tuples and dicts of leaves."""
    if isinstance(value, (list, tuple)):
        return [item for k, v in enumerate(value) for item in _leaves(v, path + (k,))]
    if isinstance(value, dict):
        return [item for k, v in value.items() for item in _leaves(v, path + (k,))]
    return [(path, value)]


def _get(value, path):
    for key in path:
        value = value[key]
    return value


def _replace(value, path, new):
    """A copy of `value` with the leaf at `path` replaced by `new` (containers rebuilt)."""
    if not path:
        return new
    if isinstance(value, dict):
        return {k: _replace(v, path[1:], new) if k == path[0] else v for k, v in value.items()}
    items = [_replace(v, path[1:], new) if k == path[0] else v for k, v in enumerate(value)]
    return type(value)(items)


def _map_leaves(fn, value):
    if isinstance(value, (list, tuple)):
        return type(value)(_map_leaves(fn, v) for v in value)
    if isinstance(value, dict):
        return {k: _map_leaves(fn, v) for k, v in value.items()}
    return fn(value)


def _path_text(path):
    return "".join(f"[{k!r}]" for k in path)


def _read_only(leaf):
    if isinstance(leaf, np.ndarray):
        leaf = leaf.copy()
        leaf.setflags(write=False)
    return leaf


def _writable(leaf):
    return leaf.copy() if isinstance(leaf, np.ndarray) else leaf


def _same(a, b):
    la, lb = _leaves(a), _leaves(b)
    if [p for p, _ in la] != [p for p, _ in lb] or type(a) is not type(b):
        return False
    return all(np.shape(x) == np.shape(y) and _equal(x, y) for (_, x), (_, y) in zip(la, lb))


def _equal(x, y):
    """Equal values, NaN equal to NaN where there can be one (a string has none)."""
    inexact = np.asarray(x).dtype.kind in "fc"
    return np.array_equal(x, y, equal_nan=inexact)


def _guarded(target, what, args, call):
    """call(read-only copies of args); AssertionError if it mutates (or tries to) an input."""
    __tracebackhide__ = True
    frozen = [_map_leaves(_read_only, a) for a in args]
    try:
        result = call(frozen)
    except ValueError as exc:
        if "read-only" not in str(exc):
            raise
        raise AssertionError(_mutation_message(target, what, _mutated(args, call))) from exc
    changed = [k for k, (a, f) in enumerate(zip(args, frozen)) if not _same(a, f)]
    if changed:
        raise AssertionError(_mutation_message(target, what, changed))
    return result


def _mutated(args, call):
    """Indices of the arguments `call` writes into: tried one read-only argument at a time."""
    culprits = []
    for k in range(len(args)):
        trial = [_map_leaves(_read_only if j == k else _writable, a) for j, a in enumerate(args)]
        try:
            call(trial)
        except ValueError as exc:
            if "read-only" in str(exc):
                culprits.append(k)
        except Exception:  # noqa: BLE001  (only the write matters here)
            pass
        if k not in culprits and not _same(args[k], trial[k]):
            culprits.append(k)
    return culprits


def _mutation_message(target, what, changed):
    names = ", ".join(repr(target.name_of(k)) for k in changed)
    names = f"argument {names}" if changed else "arguments"
    where = target.defined_at()
    return (f"check_grads({target.label}): {what} wrote into its input {names}; "
            "differentiated functions and rules must not modify their arguments "
            "(check_grads passes them read-only)"
            + (f"\n  {target.label} defined at {where}" if where else ""))


def _random_like(value, rng):
    def draw(leaf):
        if isinstance(leaf, np.ndarray):
            return rng.standard_normal(leaf.shape).astype(
                leaf.dtype if leaf.dtype.kind == "f" else np.float64)
        return float(rng.standard_normal())
    return _map_leaves(draw, value)


def _as_float64(leaf):
    """Float leaves in float64; every array copied (the caller's never reach fn)."""
    if isinstance(leaf, np.ndarray):
        return leaf.astype(np.float64) if leaf.dtype.kind == "f" else leaf.copy()
    if isinstance(leaf, np.floating):
        return np.float64(leaf)
    return leaf


def _same_structure(a, b):
    return [p for p, _ in _leaves(a)] == [p for p, _ in _leaves(b)] and all(
        np.shape(x) == np.shape(y) for (_, x), (_, y) in zip(_leaves(a), _leaves(b)))
