"""Whole programs written the way their domains write them (issue 16): helpers returning
tuples, `*shape`, print progress, lambdas, functools.partial, logging, `with`, dict
parameters, in-place updates of arguments. Each is compared with finite differences
under every policy like any corpus case."""
import functools
import logging
import warnings

import numpy as np

from .case import case, floats, given, mixed

LOG = logging.getLogger("thunkgrad.corpus.programs")


# ---- an LSTM whose cell is a helper returning (h, c) ----------------------------------
def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstm_cell(W, x, h, c):
    gates = W @ np.concatenate([x, h])
    i, f, o, g = np.split(gates, 4)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h = sigmoid(o) * np.tanh(c)
    return h, c


@case(mixed(floats((8, 5), scale=0.4), given(np.linspace(-1.0, 1.0, 12).reshape(4, 3))),
      rtol=1e-4, atol=1e-6)
def lstm_sequence_loss(W, xs):
    hidden = W.shape[0] // 4
    h, c = np.zeros(hidden), np.zeros(hidden)
    loss = 0.0
    for x in xs:
        h, c = lstm_cell(W, x, h, c)
        loss = loss + np.sum(h ** 2)
    return loss


# ---- a VAE's reparameterised objective with `*shape` -----------------------------------
def encode(params, x):
    hidden = np.tanh(params["enc"] @ x)
    return params["mu"] @ hidden, params["logvar"] @ hidden


@case(given({"enc": np.linspace(-0.5, 0.5, 12).reshape(3, 4),
             "mu": np.linspace(-0.3, 0.6, 6).reshape(2, 3),
             "logvar": np.linspace(0.2, -0.4, 6).reshape(2, 3),
             "dec": np.linspace(-0.6, 0.4, 8).reshape(4, 2)},
            np.array([0.3, -0.2, 0.5, 0.1])), wrt=0, rtol=1e-4, atol=1e-6)
def vae_negative_elbo(params, x):
    rs = np.random.RandomState(0)
    mu, logvar = encode(params, x)
    eps = rs.randn(*mu.shape)
    z = mu + np.exp(0.5 * logvar) * eps
    recon = params["dec"] @ z
    kl = -0.5 * np.sum(1.0 + logvar - mu ** 2 - np.exp(logvar))
    return np.sum((recon - x) ** 2) + kl


# ---- a 1-D wave equation with print progress and in-place updates ----------------------
@case(mixed(floats((16,), scale=0.3), given(0.2)), rtol=1e-4, atol=1e-6)
def wave_simulation(u0, c):
    u_prev = u0.copy()
    u = u0.copy()
    for step in range(6):
        lap = np.zeros_like(u)
        lap[1:-1] = u[2:] - 2.0 * u[1:-1] + u[:-2]
        u_next = 2.0 * u - u_prev + c ** 2 * lap
        u_prev, u = u, u_next
        if step % 3 == 0:
            print(f"step {step}: energy {float(np.sum(u ** 2)):.4f}")
    return np.sum(u ** 2)


# ---- a Bayesian linear model's log joint with lambdas -----------------------------------
@case(mixed(floats((3,)), given(np.linspace(-1.0, 1.0, 15).reshape(5, 3),
                                np.array([0.5, -0.2, 0.1, 0.9, -0.4]))), wrt=0)
def bayesian_log_joint(w, X, y):
    log_prior = lambda v: -0.5 * np.sum(v ** 2)       # noqa: E731
    predict = lambda inputs: inputs @ w               # noqa: E731
    residuals = list(map(lambda pair: pair[0] - pair[1], zip(predict(X), y)))
    return log_prior(w) - 0.5 * sum(r * r for r in residuals)


# ---- an HMM forward pass with functools.partial -----------------------------------------
def emission(means, x, scale):
    return np.exp(-0.5 * ((x - means) / scale) ** 2)


@case(mixed(floats((2,), scale=0.5), given(np.array([[0.9, 0.1], [0.2, 0.8]]),
                                          np.array([0.1, 0.7, -0.3, 0.4]))), wrt=0)
def hmm_log_likelihood(means, T, xs):
    emit = functools.partial(emission, scale=0.8)
    alpha = np.array([0.5, 0.5]) * emit(means, xs[0])
    log_like = 0.0
    for x in xs[1:]:
        alpha = (T.T @ alpha) * emit(means, x)
        norm = np.sum(alpha)
        log_like = log_like + np.log(norm)
        alpha = alpha / norm
    return log_like


# ---- a GAN's generator and discriminator losses -----------------------------------------
def discriminator(d_w, samples):
    return sigmoid(samples @ d_w)


@case(mixed(floats((2, 2), scale=0.5), floats((2,), scale=0.5),
            given(np.array([[0.2, -0.1], [0.4, 0.3], [-0.5, 0.6]]),
                  np.array([[1.0, 0.5], [0.8, -0.2], [0.3, 0.9]]))), wrt=(0, 1))
def gan_losses(g_w, d_w, noise, real):
    fake = np.tanh(noise @ g_w)
    d_real, d_fake = discriminator(d_w, real), discriminator(d_w, fake)
    d_loss = -np.mean(np.log(d_real) + np.log(1.0 - d_fake))
    g_loss = -np.mean(np.log(d_fake))
    return d_loss + g_loss


# ---- logistic regression with logging and a guarded log ---------------------------------
@case(mixed(floats((3,), scale=0.5), given(np.linspace(-1.0, 1.0, 12).reshape(4, 3),
                                          np.array([1.0, 0.0, 1.0, 0.0]))), wrt=0)
def logistic_regression_with_logging(w, X, y):
    p = sigmoid(X @ w)
    with np.errstate(divide="ignore"):
        nll = -np.sum(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))
    LOG.debug("nll %.4f", nll)
    if not np.isfinite(nll):
        warnings.warn("the loss is not finite")
    return nll + 0.01 * np.sum(w ** 2)


# ---- a Kalman filter with dict parameters and dict methods -------------------------------
@case(given({"q": 0.1, "r": 0.3, "a": 0.9}, np.array([0.2, 0.5, 0.1, -0.3, 0.4])), wrt=0)
def kalman_filter_nll(params, ys):
    mean, var = 0.0, 1.0
    nll = 0.0
    for y in ys:
        mean, var = params["a"] * mean, params["a"] ** 2 * var + params.get("q", 0.0)
        s = var + params["r"]
        gain = var / s
        nll = nll + 0.5 * (np.log(s) + (y - mean) ** 2 / s)
        mean, var = mean + gain * (y - mean), (1.0 - gain) * var
    return nll + 0.01 * sum(v * v for v in params.values())


# ---- gradient descent on a quadratic, early stop by loop else ---------------------------
@case(floats((3,), scale=0.5))
def unrolled_descent_with_early_stop(x0):
    x = x0
    for step in range(20):
        grad_x = 2.0 * x + np.sin(x)
        if (size := np.sqrt(np.sum(grad_x ** 2))) < 1e-8:
            break
        x = x - 0.1 * grad_x
    else:
        x = x * 1.0
    return np.sum(x ** 2) + size


# ---- a particle system whose state argument is updated in place -------------------------
@case(mixed(floats((4, 2), scale=0.5), given(0.05)), rtol=1e-4, atol=1e-6)
def particles_updated_in_place(state, dt):
    for step in range(4):
        forces = -state - 0.1 * state ** 3
        state[:] = state + dt * forces          # the caller's array is left alone
    kinetic: float = 0.5 * np.sum(state ** 2)
    return kinetic
