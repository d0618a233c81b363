"""Generator: arrays of rank 0-3 (float64 or float32) through NumPy, and writes into them.

    tensors:  def f(a0, a1, x):           a0: (2, 3), a1: (3,), x: a float (float32: 1 in 5)
                  t0 = np.tanh(a0 * a1) @ a0.T          (tensor_exprs.py: broadcasting,
                  t1 = np.zeros((2, 2))                  matmul/einsum, reshape/transpose,
                  t1[0] = t0[1]; t1[:, ::-1] += ...      slicing, stacking, ties, log/sqrt)
                  v = t1[0]; t1[0, 1] = x; ...           (a view, then a write: right or
                  return np.sum(np.sin(t1)) + ...         a TransformError)

Writes go into local arrays only (never an argument), as the README's supported table says.
"""
from .program import SCALAR, tensor
from .tensor_exprs import DIMS, TensorExprs, _size


def tensors(g, seed):
    dtype = "32" if g.chance(0.2) else "64"
    if dtype == "32":
        g.use("float32")
    env = {}
    exprs = TensorExprs(g, env, dims=tuple(sorted(g.rng.sample(DIMS, 2))))
    for _ in range(g.rng.randint(1, 3)):
        shape = exprs.shape()
        env[g.param(tensor(shape, dtype))] = shape
        g.use(f"rank{len(shape)}")
    if g.chance(0.4):
        env[g.param(SCALAR)] = ()
    made = []
    for _ in range(g.rng.randint(1, 3)):
        g.pick((_assign, _assign, _written, _view_then_write, _augmented))(g, exprs, made)
    return g.case("tensors", seed, _result(g, exprs, made))


def _assign(g, exprs, made):
    shape = exprs.shape()
    name = g.name("value")
    g.line(f"{name} = {exprs.expr(shape, g.rng.randint(1, 3))}")
    exprs.env[name] = shape
    made.append(name)


def _local(g, exprs, shape):
    """A fresh local array of `shape` (so writes never reach an argument)."""
    name = g.name("local")
    form = g.pick(("zeros", "copy", "array", "times"))
    if form == "zeros" or not shape:
        g.line(f"{name} = np.zeros({shape})" if shape else f"{name} = np.zeros(())")
    else:
        value = exprs.expr(shape, 1)
        g.line(f"{name} = " + {"copy": f"({value}).copy()", "array": f"np.array({value})",
                               "times": f"{value} * 1.0"}[form])
    return name


def _written(g, exprs, made):
    """Element and slice writes into a local array."""
    shape = exprs.shape() or (g.pick(DIMS),)
    name = _local(g, exprs, shape)
    for _ in range(g.rng.randint(1, 3)):
        _write(g, exprs, name, shape)
    exprs.env[name] = shape
    made.append(name)


def _write(g, exprs, name, shape):
    """One write into `name` (of `shape`, rank >= 1): element, row, column, slice, mask."""
    op = g.pick(("=", "=", "+=", "-=", "*="))
    form = g.pick(("element", "row", "slice", "reversed", "mask", "column"))
    if form == "column" and len(shape) >= 2:
        target, part = f"{name}[:, {g.rng.randrange(shape[1])}]", shape[:1] + shape[2:]
    elif form == "element":
        index = ", ".join(str(g.rng.randrange(-d, d)) for d in shape)
        target, part = f"{name}[{index}]", ()
    elif form in ("slice", "reversed") and shape[0] >= 2:
        piece = "1:" if form == "slice" else "::-1"
        target, part = f"{name}[{piece}]", (shape[0] - 1 if form == "slice" else shape[0],) \
            + shape[1:]
        g.use("negative_step") if form == "reversed" else None
    elif form == "mask":
        target, part = f"{name}[{exprs.expr(shape, 1)} > 0.2]", None
    else:
        target, part = f"{name}[{g.rng.randrange(-shape[0], shape[0])}]", shape[1:]
    g.use("element_write" if part == () else "slice_write")
    value = exprs.expr((), 1) if part is None else exprs.expr(part, 1)
    if op == "*=":
        value = f"np.tanh({value})"
    g.line(f"{target} {op} {value}")


def _view_then_write(g, exprs, made):
    """A view of a local array, then a write through the array or the view, then reads
    of both: the value and gradient are the primal's, or a TransformError."""
    shape = exprs.shape() or (g.pick(DIMS),)
    base = _local(g, exprs, shape)
    exprs.env[base] = shape
    view, view_shape = g.name("view"), None
    forms = [(f"{base}[0]", shape[1:]), (f"{base}[::-1]", shape), (f"{base}.reshape(-1)",
             (_size(shape),)), (f"{base}[1:]", (shape[0] - 1,) + shape[1:])]
    if len(shape) >= 2:
        forms += [(f"{base}.T", shape[::-1]), (f"{base}[:, 0]", shape[:1] + shape[2:])]
    text, view_shape = g.pick([f for f in forms if all(f[1]) and f[1]])  \
        if any(all(f[1]) and f[1] for f in forms) else (f"{base}[::-1]", shape)
    g.line(f"{view} = {text}")
    g.use("view_then_write")
    through_view = g.chance(0.5)
    _write(g, exprs, view if through_view else base, view_shape if through_view else shape)
    if g.chance(0.5):               # read after the write: right, or refused
        exprs.env[view] = view_shape
        made.append(view)
    made.append(base)


def _augmented(g, exprs, made):
    """name op= expr on a local array or a scalar."""
    shape = exprs.shape()
    name = g.name("value")
    value = exprs.expr(shape, 1)
    if value.isidentifier() and shape and g.chance(0.7):   # else `+=` would change that array too
        value += ".copy()"
    g.line(f"{name} = {value}")
    op = g.pick(("+=", "-=", "*="))
    value = exprs.expr(shape if g.chance(0.7) else (), 1)
    g.line(f"{name} {op} {f'np.tanh({value})' if op == '*=' else value}")
    g.use("augmented_name")
    exprs.env[name] = shape
    made.append(name)


def _result(g, exprs, made):
    names = made[-2:] + [n for n, _ in g.params[:1]]
    terms = [f"np.sum(np.sin({n}))" if g.chance(0.5) else f"np.sum({n} * {n})"
             for n in names]
    return " + ".join(terms)
