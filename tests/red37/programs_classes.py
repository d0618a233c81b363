"""red37: ML models written as class hierarchies: a Base model whose subclasses call
super().__init__ or inherit __init__, dataclass configs with inheritance, methods
calling the base's, properties, __call__, models built inside the loss."""
import dataclasses

import numpy as np


class Model:
    def __init__(self, W, b=0.0):
        self.W = W
        self.b = b

    def forward(self, x):
        return x @ self.W + self.b

    def loss(self, x, y):
        return np.mean((self.forward(x) - y) ** 2)


class TanhModel(Model):
    def forward(self, x):
        return np.tanh(super().forward(x))


class RegModel(TanhModel):
    def __init__(self, W, b=0.0, lam=0.1):
        super().__init__(W, b)
        self.lam = lam

    def loss(self, x, y):
        return super().loss(x, y) + self.lam * np.sum(self.W ** 2)


def inherited_init_loss(w, X, y):
    return TanhModel(w).loss(X, y)


def super_init_default_lam(w, X, y):
    m = RegModel(w)
    return m.loss(X, y)


def super_init_keywords(w, X, y):
    m = RegModel(W=w, lam=0.5, b=0.2)
    return m.loss(X, y)


def model_bias_argument(b, X, y):
    m = RegModel(np.array([0.3, -0.2, 0.5]), b, 0.05)
    return m.loss(X, y)


class Layer:
    def __init__(self, W, act=np.tanh):
        self.W = W
        self.act = act

    def __call__(self, h):
        return self.act(h @ self.W)


class Residual(Layer):
    def __call__(self, h):
        return h + super().__call__(h)


class Sequential:
    def __init__(self, *layers):
        self.layers = list(layers)

    def __call__(self, h):
        for layer in self.layers:
            h = layer(h)
        return h


def residual_sequential(W, X):
    net = Sequential(Residual(W), Residual(0.5 * W), Layer(W[:, :1]))
    return np.sum(net(X) ** 2)


class Base:
    def __init__(self, scale):
        self.scale = scale
        self.history = []

    def energy(self, x):
        raise NotImplementedError


class Harmonic(Base):
    def __init__(self, k, scale=1.0):
        Base.__init__(self, scale)
        self.k = k

    def energy(self, x):
        e = 0.5 * self.k * np.sum(x ** 2) * self.scale
        self.history.append(e)
        return e


class Anharmonic(Harmonic):
    def __init__(self, k, g):
        super().__init__(k)
        self.g = g

    def energy(self, x):
        return super().energy(x) + self.g * np.sum(x ** 4)


def explicit_base_init(x):
    return Anharmonic(2.0, 0.3).energy(x)


def anharmonic_coupling(g):
    x = np.array([0.4, -0.3, 0.8])
    return Anharmonic(1.5, g).energy(x)


@dataclasses.dataclass
class Config:
    lr: float = 0.1
    steps: int = 3


@dataclasses.dataclass
class AdamConfig(Config):
    beta: float = 0.9
    decay: float = 0.0


def dataclass_config_inherit(w, X, y):
    cfg = AdamConfig(decay=0.01)
    m = np.zeros_like(w)
    for _ in range(cfg.steps):
        g = 2 * X.T @ (X @ w - y) / len(y) + cfg.decay * w
        m = cfg.beta * m + (1 - cfg.beta) * g
        w = w - cfg.lr * m
    return np.sum((X @ w - y) ** 2)


def dataclass_config_lr(lr, X, y):
    cfg = AdamConfig(lr=lr, steps=2)
    w = np.zeros(X.shape[1])
    for _ in range(cfg.steps):
        w = w - cfg.lr * X.T @ (X @ w - y)
    return np.sum((X @ w - y) ** 2)


@dataclasses.dataclass
class Params:
    w: np.ndarray
    b: float


@dataclasses.dataclass
class ScaledParams(Params):
    s: float = 1.0

    def predict(self, X):
        return self.s * (X @ self.w) + self.b


def dataclass_params_inherit(w, X, y):
    p = ScaledParams(w, 0.1, s=2.0)
    return np.mean(np.logaddexp(0.0, -y * p.predict(X)))


@dataclasses.dataclass
class Normal:
    mu: float
    log_sigma: float

    def __post_init__(self):
        self.sigma = np.exp(self.log_sigma)

    def logpdf(self, x):
        z = (x - self.mu) / self.sigma
        return -0.5 * z ** 2 - np.log(self.sigma) - 0.5 * np.log(2 * np.pi)


@dataclasses.dataclass
class TruncNormal(Normal):
    lo: float = -3.0


def post_init_inherited(theta, x):
    d = TruncNormal(theta[0], theta[1])
    return np.sum(d.logpdf(x))


class Kernel:
    def __init__(self, ls):
        self.ls = ls

    def __call__(self, a, b):
        d2 = (a[:, None] - b[None, :]) ** 2
        return np.exp(-0.5 * d2 / self.ls ** 2)


class ScaledKernel(Kernel):
    def __init__(self, ls, var):
        super().__init__(ls)
        self.var = var

    def __call__(self, a, b):
        return self.var * super().__call__(a, b)


def kernel_hierarchy(params, x):
    k = ScaledKernel(np.exp(params[0]), np.exp(params[1]))
    K = k(x, x) + 0.1 * np.eye(len(x))
    return np.sum(K @ x)


class Potential:
    def __init__(self, eps=1.0, sigma=1.0):
        self.eps, self.sigma = eps, sigma

    def pair(self, r):
        s6 = (self.sigma / r) ** 6
        return 4 * self.eps * (s6 * s6 - s6)

    def total(self, pos):
        n = len(pos)
        e = 0.0
        for i in range(n):
            for j in range(i + 1, n):
                e = e + self.pair(np.linalg.norm(pos[i] - pos[j]))
        return e


class SoftPotential(Potential):
    def pair(self, r):
        return super().pair(r) + 0.01 * r ** 2


def lennard_jones_subclass(x):
    return SoftPotential(sigma=0.9).total(x.reshape(-1, 2))


class Counter:
    count = 0

    def __init__(self, w):
        Counter.count += 1
        self.w = w


class Scaled(Counter):
    def __init__(self, w, s):
        super().__init__(w * s)
        self.s = s

    def value(self, x):
        return np.sum(np.sin(self.w * x))


def ctor_with_class_attr(w):
    return Scaled(w, 2.0).value(np.array([0.3, 0.6, 0.9]))


class Stateful:
    def __init__(self, x):
        self.x = x
        self.steps = 0

    def step(self, h):
        self.x = self.x - h * np.sin(self.x)
        self.steps += 1
        return self


class Damped(Stateful):
    def __init__(self, x, gamma):
        super().__init__(x)
        self.gamma = gamma

    def step(self, h):
        super().step(h)
        self.x = self.x * (1 - self.gamma * h)
        return self


def mutating_method_chain(x):
    s = Damped(x, 0.2)
    for _ in range(3):
        s = s.step(0.1)
    return np.sum(s.x ** 2)


def model_list_ensemble(w, X):
    models = []
    for k in range(3):
        models.append(RegModel(w * (k + 1), 0.1 * k))
    preds = [m.forward(X) for m in models]
    return np.sum(np.mean(np.stack(preds), axis=0) ** 2)


def super_loss_vector(w, X):
    m = TanhModel(w.reshape(3, 2))
    return m.forward(X).ravel()
