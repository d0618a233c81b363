"""Quickstart: differentiate a small NumPy loss, print the generated adjoint,
and check the gradient against central finite differences."""
import numpy as np

from transform import adjoint_source, differentiable, grad, value_and_grad, vjp


@differentiable
def loss(W, b, x):
    h = np.tanh(W @ x + b)
    return np.sum(h ** 2) + 0.1 * np.sum(W * W)


def layer(W, x):
    return np.tanh(W @ x)


def finite_difference(f, args, k, eps=1e-6):
    """Central differences for argument k, one element at a time."""
    x = args[k]
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        plus, minus = [a.copy() for a in args], [a.copy() for a in args]
        plus[k][i] += eps
        minus[k][i] -= eps
        out[i] = (f(*plus) - f(*minus)) / (2 * eps)
    return out


def main():
    rng = np.random.default_rng(0)
    W, b, x = rng.normal(size=(4, 3)), rng.normal(size=4), rng.normal(size=3)
    print("Generated adjoint of loss with respect to W and b:\n")
    print(adjoint_source(loss, wrt=("W", "b")))
    dW, db = grad(loss, wrt=("W", "b"))(W, b, x)
    value, _ = value_and_grad(loss, wrt=0)(W, b, x)
    print(f"loss = {value:.6f}")
    print("dW =\n", np.array2string(dW, precision=4))
    print("db =", np.array2string(db, precision=4))
    worst = max(np.abs(dW - finite_difference(loss, [W, b, x], 0)).max(),
                np.abs(db - finite_difference(loss, [W, b, x], 1)).max())
    print(f"largest difference to finite differences: {worst:.2e}")
    out, pullback = vjp(layer, W, x)
    dW_layer, dx_layer = pullback(np.ones_like(out))
    print("vjp of layer: output shape", out.shape, "-> cotangent shapes",
          dW_layer.shape, dx_layer.shape)
    if worst > 1e-6:
        raise SystemExit("gradient check failed")


if __name__ == "__main__":
    main()
