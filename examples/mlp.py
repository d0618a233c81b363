"""A two-layer MLP classifier trained by plain gradient descent with thunkgrad.

The parameters live in a dict, {"W1", "b1", "W2", "b2"}; each layer is one call
to the module-level helper `dense`, which thunkgrad compiles to its own rule.
The loss is a numerically stable softmax cross-entropy (the row maximum is
subtracted before exponentiating), with integer class labels picked out by
fancy indexing -- the labels are integers, so they get no adjoint.

`grad(loss, wrt="params")` returns a gradient with the parameters' structure:
a dict with the same keys and arrays of the same shapes and dtypes, so one
step of gradient descent is a dict comprehension.

The data set is three Gaussian blobs in 2-D (300 points, fixed seed), made
here; 200 steps bring the loss down by well over 90 percent.

Run:  .venv/bin/python examples/mlp.py
"""
import numpy as np

from transform import grad

CLASSES = 3
HIDDEN = 32
LEARNING_RATE = 0.5
PRINT_EVERY = 20


def make_blobs(points=300, seed=0):
    """(X of shape (points, 2), integer labels of shape (points,)): three blobs."""
    rng = np.random.default_rng(seed)
    angles = 2.0 * np.pi * np.arange(CLASSES) / CLASSES
    centres = 2.0 * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    labels = np.arange(points) % CLASSES
    X = centres[labels] + 0.5 * rng.standard_normal((points, 2))
    return X, labels


def init_params(hidden=HIDDEN, seed=1):
    rng = np.random.default_rng(seed)
    return {
        "W1": rng.standard_normal((2, hidden)) / np.sqrt(2.0),
        "b1": np.zeros(hidden),
        "W2": 0.1 * rng.standard_normal((hidden, CLASSES)) / np.sqrt(hidden),
        "b2": np.zeros(CLASSES),
    }


def dense(W, b, x):
    """One affine layer on a batch of rows."""
    return x @ W + b


def log_softmax(logits):
    """Row-wise log-softmax, stable: subtract each row's maximum first."""
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))


def loss(params, X, labels):
    """Mean softmax cross-entropy of the MLP on (X, labels)."""
    hidden = np.tanh(dense(params["W1"], params["b1"], X))
    logits = dense(params["W2"], params["b2"], hidden)
    log_probs = log_softmax(logits)
    n = X.shape[0]
    return -np.sum(log_probs[np.arange(n), labels]) / n


loss_grad = grad(loss, wrt="params")


def accuracy(params, X, labels):
    hidden = np.tanh(dense(params["W1"], params["b1"], X))
    return float(np.mean(np.argmax(dense(params["W2"], params["b2"], hidden), axis=1) == labels))


def train(params, X, labels, steps, lr=LEARNING_RATE, verbose=True):
    """Plain gradient descent; returns (final params, losses before each step and at the end)."""
    losses = []
    for step in range(steps):
        value = float(loss(params, X, labels))
        losses.append(value)
        if verbose and step % PRINT_EVERY == 0:
            print(f"  step {step:4d}   loss {value:.4f}")
        g = loss_grad(params, X, labels)
        params = {name: params[name] - lr * g[name] for name in params}
    losses.append(float(loss(params, X, labels)))
    return params, losses


def main(steps=200, verbose=True):
    """Train for `steps` steps; returns (first loss, last loss)."""
    X, labels = make_blobs()
    params = init_params()
    if verbose:
        print(f"MLP 2 -> {HIDDEN} (tanh) -> {CLASSES}, {X.shape[0]} points, "
              f"learning rate {LEARNING_RATE}, {steps} steps of gradient descent")
    params, losses = train(params, X, labels, steps, verbose=verbose)
    first, last = losses[0], losses[-1]
    if verbose:
        print(f"  step {steps:4d}   loss {last:.4f}")
        print(f"Loss fell from {first:.4f} to {last:.4f} "
              f"({100.0 * (first - last) / first:.1f} percent); "
              f"training accuracy {100.0 * accuracy(params, X, labels):.1f} percent")
    return first, last


if __name__ == "__main__":
    main()
