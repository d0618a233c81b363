"""Shape-typed array expressions for the `tensors` class (tests/fuzz/gen_tensors.py).

    exprs = TensorExprs(g, env={"a0": (2, 3), "x": ()})
    exprs.expr((3, 2), depth=2)   -> e.g. "np.tanh(a0.T) @ np.ones((2, 2))"-like text

Every expression has exactly the shape asked for, is smooth away from measure-zero kinks
(max, abs, where, clip: the oracle's smoothness check skips inputs near one) and bounded
for bounded inputs: exp only sees tanh, log/sqrt/power only see arguments kept in their
domain (1.5 + tanh(e), 0.25 + e * e). Ties are drawn on purpose: max(e, e), clip(e, e, hi),
where(e >= e, ...) are smooth functions whose derivative a rule must not double.
Each maker records its production (g.use) for tests/fuzz/coverage.py.
"""
from tests.fuzz.library_exprs import library

DIMS = (1, 2, 3)
UNARY = ("np.sin", "np.cos", "np.tanh")


class TensorExprs:
    def __init__(self, g, env, dims=DIMS):
        self.g, self.env = g, env          # env: {name: shape}
        self.dims = dims                   # the axis lengths this program draws from

    # ---- the entry point ---------------------------------------------------------------
    def expr(self, shape, depth):
        makers = [self.leaf, self.leaf]
        if depth > 0:
            makers += [self.unary, self.binary, self.binary, self.broadcast, self.domain,
                       self.reduce, self.matmul, self.reshaped, self.transposed,
                       self.sliced, self.indexed, self.stacked, self.tie, self.where,
                       self.decomposition, self.sorted, self.library, self.library,
                       self.library]     # ten library families share one maker
        for _ in range(6):
            text = self.g.pick(makers)(tuple(shape), depth - 1)
            if text is not None:
                return text
        return self.fallback(tuple(shape))

    def fallback(self, shape):
        """Something of `shape` made from an input: broadcast, reshaped, or summed."""
        names = sorted(self.env)
        fits = [n for n in names if _broadcasts(self.env[n], shape)]
        if fits and self.g.chance(0.8):
            self.g.use("broadcast")
            return f"({self.g.pick(fits)} * np.ones({shape}))"
        same_size = [n for n in names if _size(self.env[n]) == _size(shape) and shape]
        if same_size and self.g.chance(0.8):
            self.g.use("reshape")
            return f"np.reshape({self.g.pick(same_size)}, {shape})"
        name = self.g.pick(names)
        if not shape:
            return f"np.tanh(np.sum({name}))"
        return f"(np.tanh(np.sum({name})) * np.ones({shape}))"

    def dim(self):
        return self.g.pick(self.dims)

    def shape(self):
        """A shape of rank 0-3: an existing one (half the time) or new, from self.dims."""
        if self.env and self.g.chance(0.5):
            return self.env[self.g.pick(sorted(self.env))]
        return tuple(self.dim() for _ in range(self.g.pick((0, 1, 1, 2, 2, 3))))

    # ---- makers: each returns text of exactly `shape`, or None (not applicable) ---------
    def leaf(self, shape, depth):
        names = sorted(n for n, s in self.env.items() if s == shape)
        if names:
            return self.g.pick(names)
        return self.fallback(shape) if self.g.chance(0.5) else None

    def unary(self, shape, depth):
        inner = self.expr(shape, depth)
        form = self.g.pick(("unary", "unary", "exp", "method", "math"))
        if form == "exp":
            return f"np.exp(np.tanh({inner}))"
        if form == "math" and not shape:
            self.g.use("math_function", "float_call")
            return f"math.{self.g.pick(('sin', 'cos', 'tanh'))}(float({inner}))"
        if form == "method" and shape:
            self.g.use("ndarray_method")
            return f"np.tanh({inner}).{self.g.pick(('copy()', 'astype(np.float64)'))}" \
                if self.g.chance(0.2) else f"np.sin({inner})"
        return f"{self.g.pick(UNARY)}({inner})"

    def binary(self, shape, depth):
        op = self.g.pick(("+", "-", "*", "*", "/"))
        left, right = self.expr(shape, depth), self.expr(shape, depth)
        if op == "/":
            return f"({left} / (1.0 + {right} * {right}))"
        return f"({left} {op} {right})"

    def broadcast(self, shape, depth):
        """shape op (a layout broadcasting to shape): leading axes dropped or set to 1."""
        if not shape:
            return None
        layout = list(shape[self.g.rng.randrange(len(shape) + 1):])
        for k in range(len(layout)):
            if self.g.chance(0.4):
                layout[k] = 1
        self.g.use("broadcast", f"rank{len(shape)}")
        small, full = self.expr(tuple(layout), depth), self.expr(shape, depth)
        pair = (full, small) if self.g.chance(0.5) else (small, full)
        return f"({pair[0]} {self.g.pick(('+', '*', '-'))} {pair[1]})"

    def domain(self, shape, depth):
        inner = self.expr(shape, depth)
        self.g.use("log_sqrt_power")
        return "(" + self.g.pick((
            f"np.log(1.5 + np.tanh({inner}))", f"np.sqrt(0.25 + {inner} * {inner})",
            f"np.power(1.2 + np.tanh({inner}), 1.5)", f"(0.5 + {inner} * {inner}) ** 0.5",
            f"({inner}) ** 2", f"np.log1p({inner} * {inner})", f"np.abs({inner})",
            f"abs({inner})", f"np.square({inner})", f"np.exp(-{inner} * {inner})")) + ")"

    def reduce(self, shape, depth):
        axis = self.g.rng.randrange(len(shape) + 1)
        source = shape[:axis] + (self.dim(),) + shape[axis:]
        inner = self.expr(source, depth)
        self.g.use("reduction_axis")
        if self.g.chance(0.25):
            self.g.use("tie_max")
            return f"np.max({inner}, axis={axis})"
        if axis == 0 and self.g.chance(0.2):     # Python's sum over the rows: one array back
            self.g.use("builtin_sum_rows")       # (session 29: its cotangent was a list)
            return f"sum({inner})"
        return self.g.pick((f"np.sum({inner}, axis={axis})", f"np.mean({inner}, axis={axis})",
                            f"{inner}.sum(axis={axis})"))

    def matmul(self, shape, depth):
        k = self.dim()
        if len(shape) == 2:
            m, p = shape
            a, b = self.expr((m, k), depth), self.expr((k, p), depth)
            forms = (f"({a} @ {b})", f"np.matmul({a}, {b})", f"np.einsum('ij,jk->ik', {a}, {b})",
                     f"np.dot({a}, {b})", f"{a}.dot({b})")
        elif len(shape) == 1:
            a, v = self.expr((shape[0], k), depth), self.expr((k,), depth)
            at = self.expr((k, shape[0]), depth)
            forms = (f"({a} @ {v})", f"({v} @ {at})", f"np.einsum('ij,j->i', {a}, {v})")
        elif len(shape) == 3:
            b, m, p = shape
            x, y = self.expr((b, m, k), depth), self.expr((b, k, p), depth)
            forms = (f"({x} @ {y})", f"np.einsum('bij,bjk->bik', {x}, {y})")
        elif len(shape) > 3:
            return None
        else:
            v, w = self.expr((k,), depth), self.expr((k,), depth)
            m2 = self.expr((k, 2), depth)
            forms = (f"({v} @ {w})", f"np.einsum('i,i->', {v}, {w})", f"np.dot({v}, {w})",
                     f"np.einsum('ij,ij->', {m2}, {m2})", f"np.vdot({v}, {w})")
        text = self.g.pick(forms)
        self.g.use("einsum" if "einsum" in text else "matmul")
        return text

    def reshaped(self, shape, depth):
        size = 1
        for d in shape:
            size *= d
        if shape == (size,):
            source = self.g.pick([s for s in _factorisations(size)] or [(size,)])
            inner = self.expr(source, depth)
            text = self.g.pick((f"{inner}.reshape(-1)", f"{inner}.ravel()",
                                f"np.ravel({inner})", f"{inner}.flatten()"))
        else:
            inner = self.expr((size,), depth)
            text = self.g.pick((f"{inner}.reshape({shape})", f"np.reshape({inner}, {shape})"))
        self.g.use("reshape")
        return text

    def transposed(self, shape, depth):
        if len(shape) not in (2, 3):
            return None
        self.g.use("transpose")
        if len(shape) == 2:
            inner = self.expr(shape[::-1], depth)
            return self.g.pick((f"{inner}.T", f"np.transpose({inner})",
                                f"{inner}.transpose()", f"np.swapaxes({inner}, 0, 1)"))
        perm = self.g.rng.sample(range(3), 3)
        source = [0, 0, 0]
        for out_axis, in_axis in enumerate(perm):
            source[in_axis] = shape[out_axis]
        return f"np.transpose({self.expr(tuple(source), depth)}, {tuple(perm)})"

    def sliced(self, shape, depth):
        if not shape:
            return None
        axis = self.g.rng.randrange(len(shape))
        lead = ":, " * axis
        form = self.g.pick(("reverse", "drop_first", "drop_last", "stride", "ellipsis"))
        grown = {"reverse": shape[axis], "drop_first": shape[axis] + 1,
                 "drop_last": shape[axis] + 1, "stride": 2 * shape[axis],
                 "ellipsis": shape[axis]}[form]
        source = shape[:axis] + (grown,) + shape[axis + 1:]
        inner = self.expr(source, depth)
        piece = {"reverse": "::-1", "drop_first": "1:", "drop_last": ":-1",
                 "stride": "::2", "ellipsis": "::-1"}[form]
        self.g.use("slice", *(("negative_step",) if "-1" in piece else ()))
        if form == "ellipsis" and axis == len(shape) - 1:
            return f"{inner}[..., {piece}]"
        return f"{inner}[{lead}{piece}]"

    def indexed(self, shape, depth):
        d = self.dim()
        j = self.g.rng.randrange(-d, d)
        self.g.use("index")
        if shape and self.g.chance(0.4):
            inner = self.expr(shape + (d,), depth)
            return f"{inner}[..., {j}]"
        return f"{self.expr((d,) + shape, depth)}[{j}]"

    def stacked(self, shape, depth):
        if not shape:
            items = [self.expr((), depth) for _ in range(self.g.rng.randint(1, 3))]
            self.g.use("list_into_numpy")
            return f"np.sum(np.array([{', '.join(items)}]))"
        rest, d = shape[1:], shape[0]
        form = self.g.pick(("stack", "concatenate", "sum_list", "stack_last"))
        self.g.use("list_into_numpy")
        if form == "concatenate" and d >= 2:
            first = self.g.rng.randint(1, d - 1)
            parts = [self.expr((first,) + rest, depth), self.expr((d - first,) + rest, depth)]
            return f"np.concatenate([{', '.join(parts)}])"
        if form == "sum_list":
            parts = [self.expr(shape, depth) for _ in range(self.g.rng.randint(1, 3))]
            return f"np.sum([{', '.join(parts)}], axis=0)"
        if form == "stack_last" and len(shape) >= 2:
            parts = [self.expr(shape[:-1], depth) for _ in range(shape[-1])]
            return f"np.stack([{', '.join(parts)}], axis=-1)"
        return f"np.stack([{', '.join(self.expr(rest, depth) for _ in range(d))}])"

    def tie(self, shape, depth):
        """A smooth function written through a kink at a tie: the rule must not count the
        tied argument twice (or zero times)."""
        e = self.expr(shape, depth)
        other = self.expr(shape, depth)
        self.g.use("tie")
        return self.g.pick((
            f"np.maximum({e}, {e})", f"np.minimum({e}, {e})",
            f"np.max(np.stack([{e}, {e}]), axis=0)", f"np.min(np.stack([{e}, {e}]), axis=0)",
            f"np.clip({e}, {e}, {e} + 1.0)", f"np.clip({e}, {e} - 1.0, {e})",
            f"np.where({e} >= {e}, {other}, {e})", f"np.where({e} > {e}, {e}, {other})",
            f"(np.abs({e} - {e}) + {other})",
            f"np.fmax({e}, {e})"))

    def where(self, shape, depth):
        cond = self.expr(shape, depth)
        a, b = self.expr(shape, depth), self.expr(shape, depth)
        self.g.use("where_clip")
        return self.g.pick((f"np.where({cond} > 0.1, {a}, {b})",
                            f"np.clip({a}, -0.5, 0.5)", f"np.maximum({a}, {b})",
                            f"np.clip({a}, {b} - 0.5, {b} + 0.5)"))


    def decomposition(self, shape, depth):
        """det / slogdet / inv / solve of a well-conditioned m x m matrix (1.5 I + ...)."""
        if len(shape) > 2 or len(shape) == 2 and shape[0] != shape[1]:
            return None
        m = shape[0] if shape else self.dim()
        matrix = f"(1.5 * np.eye({m}) + 0.2 * np.tanh({self.expr((m, m), depth)}))"
        self.g.use("decomposition")
        if not shape:
            return self.g.pick((f"np.linalg.det({matrix})", f"np.linalg.slogdet({matrix})[1]",
                                f"np.linalg.norm({self.expr((m,), depth)})"))
        if len(shape) == 1:
            return f"np.linalg.solve({matrix}, {self.expr(shape, depth)})"
        return self.g.pick((f"np.linalg.inv({matrix})", f"np.linalg.cholesky({matrix} @ {matrix}.T)"))

    def library(self, shape, depth):
        """A call into the NumPy library families (tests/fuzz/library_exprs.py)."""
        return library(self, shape, depth)

    def sorted(self, shape, depth):
        """np.sort along the last axis, or np.take of fixed positions (a repeated one)."""
        if not shape:
            return None
        self.g.use("sort_take")
        if self.g.chance(0.5):
            return f"np.sort({self.expr(shape, depth)}, axis=-1)"
        d = self.dim()
        picks = [self.g.rng.randrange(d) for _ in range(shape[0])]
        return f"np.take({self.expr((d,) + shape[1:], depth)}, {picks}, axis=0)"


def _broadcasts(small, shape):
    if len(small) > len(shape):
        return False
    return all(s in (1, d) for s, d in zip(small[::-1], shape[::-1]))


def _size(shape):
    size = 1
    for d in shape:
        size *= d
    return size


def _factorisations(size):
    """Shapes of rank 2 and 3 with `size` elements and dims in 1..4."""
    out = []
    for a in range(1, 5):
        for b in range(1, 5):
            if a * b == size:
                out.append((a, b))
            for c in range(1, 4):
                if a * b * c == size and size > 1:
                    out.append((a, b, c))
    return out
