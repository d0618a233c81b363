"""The workloads of benchmarks/run.py written for the peer AD systems.

Each peer is optional: `available()` lists the ones that import. For every
workload key ("W1".."W6") and peer, `build(peer, key, args)` returns a
dict of name -> zero-argument callable giving the gradient as NumPy values
shaped like the hand-written gradient (one array, a float, or a tuple):

    autograd      autograd.grad, the same NumPy program on autograd.numpy
    jax           jax.grad, run eagerly (op by op)
    jax.jit       jax.jit(jax.grad(...)); its first call (the compile) is
                  made by the caller and timed separately
    torch         loss.backward() on leaf tensors, CPU

The programs keep the structure of the thunkgrad versions (Python loops over
the same items), with one exception: JAX's W5 uses `lax.fori_loop`, because
tracing 10,000 unrolled Python iterations into one XLA program takes minutes.
Conversions of the inputs to each framework's arrays happen once, outside
the timed callables; converting the gradient back to NumPy is inside.
"""
import importlib
import importlib.metadata

import numpy as np

PEERS = ("autograd", "jax", "torch")
_MODULES = {}


def _load(name):
    if name not in _MODULES:
        try:
            _MODULES[name] = importlib.import_module(name)
        except Exception as exc:          # noqa: BLE001 - any import failure skips the peer
            _MODULES[name] = exc
    return _MODULES[name]


def available():
    """{peer: version or the reason it is skipped}."""
    out = {}
    for name in PEERS:
        module = _load(name)
        out[name] = module if not isinstance(module, Exception) else None
    return out


def versions():
    out = {}
    for name in PEERS:
        module = _load(name)
        if isinstance(module, Exception):
            out[name] = "not installed"
            continue
        version = getattr(module, "__version__", None)
        if version is None:
            try:
                version = importlib.metadata.version(name)
            except Exception:             # noqa: BLE001
                version = "?"
        out[name] = version
    return out


# ---- autograd ----------------------------------------------------------------
def _autograd(key, args):
    import autograd
    import autograd.numpy as anp

    if key == "W1":
        def f(W, xs):
            return sum((W @ xi)[0] for xi in xs)
        g = autograd.grad(f, 0)
        return lambda: g(*args)
    if key == "W2":
        def f(w, x):
            return anp.sum(w @ x) + anp.linalg.norm(w)
        g = autograd.grad(f, 0)
        return lambda: g(*args)
    if key == "W3":
        def f(W, b, x, n):
            s = 0.0
            for i in range(n):
                s = s + anp.sum(anp.tanh(W @ x + b))
            return s
        g = autograd.grad(f, 1)
        return lambda: g(*args)
    if key == "W4":
        def f(W1, b1, W2, b2, X, Y):
            h = anp.tanh(X @ W1 + b1)
            z = h @ W2 + b2
            m = anp.max(z, axis=1, keepdims=True)
            lse = m + anp.log(anp.sum(anp.exp(z - m), axis=1, keepdims=True))
            return anp.mean(lse - anp.sum(Y * z, axis=1, keepdims=True))
        g = autograd.grad(f, (0, 1, 2, 3))
        return lambda: tuple(g(*args))
    if key == "W5":
        def f(x, n):
            for i in range(n):
                x = x * 0.999 + 0.001 * anp.sin(x)
            return x
        g = autograd.grad(f, 0)
        return lambda: float(g(*args))
    if key == "W6":
        def f(Wh, Wx, b, xs, h0):
            h = h0
            for x in xs:
                h = anp.tanh(Wh @ h + Wx @ x + b)
            return anp.sum(h * h)
        g = autograd.grad(f, (0, 1, 2))
        return lambda: tuple(g(*args))
    raise KeyError(key)


# ---- JAX ---------------------------------------------------------------------
def _jax_functions(key, args):
    """(function, argnums, jax-side args, how to convert the gradient back)."""
    import jax.numpy as jnp
    from jax import lax

    def to_np(g):
        if isinstance(g, tuple):
            return tuple(np.asarray(x) for x in g)
        return np.asarray(g)

    if key == "W1":
        W, xs = args

        def f(W, xs):
            return sum((W @ xi)[0] for xi in xs)
        return f, 0, (jnp.asarray(W), [jnp.asarray(x) for x in xs]), to_np
    if key == "W2":
        def f(w, x):
            return jnp.sum(w @ x) + jnp.linalg.norm(w)
        return f, 0, tuple(jnp.asarray(a) for a in args), to_np
    if key == "W3":
        W, b, x, n = args

        def f(W, b, x):
            s = 0.0
            for i in range(n):
                s = s + jnp.sum(jnp.tanh(W @ x + b))
            return s
        return f, 1, (jnp.asarray(W), jnp.asarray(b), jnp.asarray(x)), to_np
    if key == "W4":
        def f(W1, b1, W2, b2, X, Y):
            h = jnp.tanh(X @ W1 + b1)
            z = h @ W2 + b2
            m = jnp.max(z, axis=1, keepdims=True)
            lse = m + jnp.log(jnp.sum(jnp.exp(z - m), axis=1, keepdims=True))
            return jnp.mean(lse - jnp.sum(Y * z, axis=1, keepdims=True))
        return f, (0, 1, 2, 3), tuple(jnp.asarray(a) for a in args), to_np
    if key == "W5":
        x0, n = args

        def f(x):
            return lax.fori_loop(0, n, lambda i, x: x * 0.999 + 0.001 * jnp.sin(x), x)
        return f, 0, (jnp.asarray(x0, dtype=jnp.float64),), lambda g: float(g)
    if key == "W6":
        Wh, Wx, b, xs, h0 = args

        def f(Wh, Wx, b, xs, h0):
            h = h0
            for t in range(xs.shape[0]):
                h = jnp.tanh(Wh @ h + Wx @ xs[t] + b)
            return jnp.sum(h * h)
        return f, (0, 1, 2), tuple(jnp.asarray(a) for a in args), to_np
    raise KeyError(key)


def _jax_eager(key, args):
    import jax
    f, argnums, jargs, back = _jax_functions(key, args)
    g = jax.grad(f, argnums=argnums)
    return lambda: back(jax.block_until_ready(g(*jargs)))


def jax_jit_factory(key, args):
    """A function making a fresh jax.jit(jax.grad(f)) callable (nothing compiled yet)."""
    import jax
    f, argnums, jargs, back = _jax_functions(key, args)

    def fresh():
        g = jax.jit(jax.grad(f, argnums=argnums))
        return lambda: back(jax.block_until_ready(g(*jargs)))
    return fresh


# ---- PyTorch -----------------------------------------------------------------
def _torch(key, args):
    import torch

    def leaf(a):
        return torch.tensor(np.asarray(a), requires_grad=True)

    def const(a):
        return torch.as_tensor(np.asarray(a))

    def run(loss_fn, leaves):
        def call():
            for p in leaves:
                p.grad = None
            loss_fn().backward()
            grads = tuple(p.grad.numpy() for p in leaves)
            return grads[0] if len(grads) == 1 else grads
        return call

    if key == "W1":
        W, xs = args
        tW, txs = leaf(W), [const(x) for x in xs]
        return run(lambda: sum((tW @ xi)[0] for xi in txs), [tW])
    if key == "W2":
        w, x = args
        tw, tx = leaf(w), const(x)
        return run(lambda: torch.sum(tw @ tx) + torch.linalg.norm(tw), [tw])
    if key == "W3":
        W, b, x, n = args
        tW, tb, tx = const(W), leaf(b), const(x)

        def loss():
            s = 0.0
            for i in range(n):
                s = s + torch.sum(torch.tanh(tW @ tx + tb))
            return s
        return run(loss, [tb])
    if key == "W4":
        W1, b1, W2, b2, X, Y = args
        leaves = [leaf(W1), leaf(b1), leaf(W2), leaf(b2)]
        tX, tY = const(X), const(Y)

        def loss():
            tW1, tb1, tW2, tb2 = leaves
            h = torch.tanh(tX @ tW1 + tb1)
            z = h @ tW2 + tb2
            m = torch.amax(z, dim=1, keepdim=True)
            lse = m + torch.log(torch.sum(torch.exp(z - m), dim=1, keepdim=True))
            return torch.mean(lse - torch.sum(tY * z, dim=1, keepdim=True))
        return run(loss, leaves)
    if key == "W5":
        x0, n = args
        tx = torch.tensor(x0, dtype=torch.float64, requires_grad=True)

        def loss():
            x = tx
            for i in range(n):
                x = x * 0.999 + 0.001 * torch.sin(x)
            return x
        call = run(loss, [tx])
        return lambda: float(call())
    if key == "W6":
        Wh, Wx, b, xs, h0 = args
        leaves = [leaf(Wh), leaf(Wx), leaf(b)]
        txs, th0 = const(xs), const(h0)

        def loss():
            tWh, tWx, tb = leaves
            h = th0
            for x in txs:
                h = torch.tanh(tWh @ h + tWx @ x + tb)
            return torch.sum(h * h)
        return run(loss, leaves)
    raise KeyError(key)


def build(peer, key, args):
    """{implementation name: callable} for one peer and workload (jax.jit excluded)."""
    if peer == "autograd":
        return {"autograd": _autograd(key, args)}
    if peer == "jax":
        return {"jax": _jax_eager(key, args)}
    if peer == "torch":
        return {"torch": _torch(key, args)}
    raise KeyError(peer)


def configure(threads=0):
    """Settings the comparisons need: JAX in float64 where the workload is float64;
    PyTorch limited to `threads` intra-op threads (0: its default)."""
    jax = _load("jax")
    if not isinstance(jax, Exception):
        jax.config.update("jax_enable_x64", True)
    torch = _load("torch")
    if threads and not isinstance(torch, Exception):
        torch.set_num_threads(threads)


__all__ = ["PEERS", "available", "versions", "build", "jax_jit_factory", "configure"]
