"""red37: more habits: array methods with positional arguments on attributes, list
items and dict values (`self.W.sum(0)`, `xs[k].mean(1)`), batch-norm layers as
classes, closures over loop variables, recursion, early returns in loops, generators of
tuples, *args/**kwargs forwarding through super()."""
import numpy as np


class BatchNorm:
    def __init__(self, gamma, beta, eps=1e-5):
        self.gamma, self.beta, self.eps = gamma, beta, eps

    def __call__(self, h):
        mu = h.mean(0)
        var = h.var(0)
        return self.gamma * (h - mu) / np.sqrt(var + self.eps) + self.beta


class Net:
    def __init__(self, W, gamma):
        self.W = W
        self.norm = BatchNorm(gamma, 0.0)

    def __call__(self, X):
        return np.tanh(self.norm(X @ self.W))


def batchnorm_net(W, X):
    return np.sum(Net(W, np.array([1.0, 0.5])) (X) ** 2)


def batchnorm_gamma(gamma, X, W):
    return np.sum(Net(W, gamma)(X) ** 2)


class Pooled:
    def __init__(self, H):
        self.H = H

    def pooled(self):
        return self.H.max(1) + self.H.sum(1) * 0.1

    def spread(self):
        return self.H.std(0)


def attribute_reductions(w):
    p = Pooled(np.tanh(w.reshape(3, 2)))
    return np.sum(p.pooled() ** 2) + np.sum(p.spread())


def list_item_methods(w):
    blocks = [w.reshape(2, 3), np.exp(w).reshape(3, 2)]
    return np.sum(blocks[0].sum(0) ** 2) + np.sum(blocks[1].prod(1)) + blocks[1].cumsum(0)[-1] @ blocks[1][0]


def dict_value_methods(w):
    feats = {"a": w.reshape(3, 2), "b": np.sin(w).reshape(2, 3)}
    return np.sum(feats["a"].mean(0) * feats["b"].min(1))


def attribute_methods_vector(w):
    p = Pooled(np.sin(w.reshape(3, 2)))
    return np.concatenate([p.pooled(), p.spread()])


def clip_take_methods(w):
    parts = [w, w[::-1]]
    return np.sum(parts[0].clip(-0.5, 0.5) * parts[1].take([2, 0, 1, 3], 0)[:len(w)] ** 2)


def transpose_swap_methods(w):
    mats = [w.reshape(2, 3)]
    A = mats[0]
    return np.sum((A.transpose(1, 0) @ A).diagonal(0)) + np.sum(A.swapaxes(0, 1)[0] ** 3)


def closures_over_loop(w):
    fs = []
    for k in range(3):
        fs.append(lambda v, k=k: np.sum(np.sin(v * (k + 1))))
    return sum(f(w) for f in fs)


def recursion_depth(x, n=3):
    if n == 0:
        return np.sum(x ** 2)
    return recursion_depth(np.tanh(x) + 0.1 * x, n - 1)


def early_return_loop(x):
    total = 0.0
    for k in range(len(x)):
        total = total + x[k] ** 2
        if total > 1e6:
            return total
    return np.sqrt(total + 1.0)


def generator_of_tuples(x):
    def pairs():
        for k in range(len(x) - 1):
            yield x[k], x[k + 1]
    return sum(a * b + np.sin(a) for a, b in pairs())


class Base:
    def __init__(self, *layers, **opts):
        self.layers = layers
        self.scale = opts.get("scale", 1.0)

    def __call__(self, h):
        for W in self.layers:
            h = np.tanh(h @ W)
        return self.scale * h


class Child(Base):
    def __init__(self, *layers, **opts):
        super().__init__(*layers, **opts)


def star_kwargs_super(W, X):
    return np.sum(Child(W, W.T, scale=0.5)(X) ** 2)


def tuple_helper_views(x):
    def split(v):
        return v[:2], v[2:], v[::2]
    a, b, c = split(x)
    a2 = a * b[:2]
    return np.sum(a2 ** 2) + np.sum(c * np.exp(-b[-1]))


def while_newton_vector(a):
    x = np.ones_like(a)
    it = 0
    while np.max(np.abs(x * x - a)) > 1e-12 and it < 50:
        x = 0.5 * (x + a / x)
        it += 1
    return np.sum(x * a)


def loop_matrix_build(x):
    n = len(x)
    A = np.zeros((n, n))
    for i in range(n):
        A[i, i] = 2.0 + x[i] ** 2
        if i > 0:
            A[i, i - 1] = A[i - 1, i] = -0.5 * x[i]
    sign, logdet = np.linalg.slogdet(A)
    return logdet


def ensemble_mean_axis(W, X):
    preds = []
    for k in range(3):
        preds.append(np.tanh(X @ (W * (k + 1))))
    stack = np.stack(preds)
    return np.sum(stack.mean(0) ** 2) + np.sum(stack.var(0))


def mixture_logsumexp_method(means, x):
    lp = -0.5 * (x[:, None] - means) ** 2
    m = lp.max(1)
    return np.sum(m + np.log(np.exp(lp - m[:, None]).sum(1)))


class Encoder:
    def __init__(self, W):
        self.W = W

    def encode(self, x):
        h = x @ self.W
        return h, np.tanh(h)

    def __call__(self, x, temperature=1.0):
        pre, post = self.encode(x)
        return post / temperature + 0.1 * pre


class AttentionPool(Encoder):
    def __call__(self, x, temperature=0.5):
        scores = super().__call__(x, temperature)
        a = np.exp(scores - scores.max(0))
        a = a / a.sum(0)
        return (a * scores).sum(0)


def attention_pool_subclass(W, X):
    return np.sum(AttentionPool(W)(X) ** 2)


def implicit_newton_layer(x):
    """a layer whose output solves z + 0.3 sin(z) = x elementwise (Newton, data-
    dependent exit), then a loss: the derivative flows through the iterates."""
    z = x.copy()
    for it in range(30):
        r = z + 0.3 * np.sin(z) - x
        if np.max(np.abs(r)) < 1e-13:
            break
        z = z - r / (1 + 0.3 * np.cos(z))
    return np.sum(z ** 2 * np.arange(1, len(z) + 1))


def energy_force_sensitivity(x):
    """forces written by hand from an energy, then the work along a fixed path: a
    first derivative inside the loss, differentiated twice by hessian."""
    pos = x.reshape(-1, 2)
    d = pos[:, None, :] - pos[None, :, :]
    r2 = np.sum(d ** 2, axis=-1) + np.eye(len(pos))
    inv = 1.0 / r2
    F = np.sum(d * (inv ** 2 * (1 - np.eye(len(pos))))[:, :, None], axis=1)
    return np.sum(F * np.array([0.5, -0.2]))
