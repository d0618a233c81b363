"""check_grads: compare compiled gradients with central finite differences.

    from transform.testing import check_grads
    check_grads(loss, W, b, x)                 # every float argument, three policies
    check_grads(layer, W, x, wrt="W")          # non-scalar output: vjp with random cotangents

The finite differences are computed in float64 by calling the plain function
(never the compiler), element by element for small arguments and along
`directions` random unit directions for large ones. Every array argument is
passed as a read-only copy, and compared with a saved copy afterwards, so a
function or rule that writes into its inputs is reported. On any mismatch an
AssertionError lists, per argument: the worst element, the compiled and the
finite-difference values, the relative error, the policy and where the
generated code lives.
"""
import inspect

import numpy as np

from . import api
from .public.checks import refuse_async
from .public.testing_values import (_is_float_valued, _leaves, _get, _replace, _map_leaves,
                                    _path_text, _guarded, _random_like, _as_float64,
                                    _same_structure)

__all__ = ["check_grads", "ELEMENTWISE_LIMIT"]

# Arguments with at most this many elements are checked element by element.
ELEMENTWISE_LIMIT = 64


def check_grads(fn, *args, wrt=None, policies=("loop", "eager", "flat"), rtol=1e-5,
                atol=1e-7, eps=1e-6, directions=3, seed=0, **kwargs):
    """Assert that fn's compiled gradients match finite differences under every policy.

    fn: a function with Python source, or a callable with a registered rule (np.sin, a
    user's `rrule`). wrt: parameter names/indices; default every float-valued positional
    argument (floats, float arrays, lists/tuples/dicts of those). Scalar outputs use
    transform.grad; other outputs transform.vjp with a random cotangent (`seed`). An
    argument of more than ELEMENTWISE_LIMIT elements is checked along `directions` random
    unit directions. Keyword arguments are passed to fn and not differentiated.
    Returns {argument name: gradient} as computed under the first policy.
    """
    __tracebackhide__ = True  # pytest shows the report, not check_grads' internals
    refuse_async(fn, "check_grads")    # before calling it: a coroutine never awaited
    target = _Target(fn)
    chosen = _wrt_positions(target, args, wrt)
    if isinstance(policies, str):
        policies = (policies,)
    rng = np.random.default_rng(seed)
    primal = _guarded(target, "calling the function", args,
                      lambda frozen: target.plain(*frozen, **kwargs))
    _check_output(target, primal)
    cotangent = None if api._is_scalar(primal) else _random_like(primal, rng)
    results = {p: _compiled_grads(target, args, kwargs, chosen, p, cotangent)
               for p in policies}
    check = _Check(target, args, chosen, policies, rtol, atol)
    check.primal(primal, results)
    check.against_fd(results, _finite_differences(target, args, kwargs, chosen, cotangent,
                                                  eps, directions, rng))
    check.policies_agree(results)
    check.raise_if_failed(eps)
    first = results[policies[0]][1]
    return {target.name_of(k): g for k, g in zip(chosen, first)}


def _check_output(target, primal):
    """A TypeError for an output with nothing to differentiate (None: `return` missing; a
    string), not a failure report of zeros or a float() error from a random cotangent."""
    bad = [leaf for _, leaf in _leaves(primal) if leaf is None or isinstance(leaf, (str, bytes))]
    if bad:
        raise TypeError(f"check_grads({target.label}) at {target.defined_at()}: the function "
                        f"returned {'None' if primal is None else type(bad[0]).__name__}"
                        f"{'' if primal is None or bad[0] is primal else ' inside its output'}; "
                        "return a float, a float array, or tuples, lists or dicts of them")


# ---- what is being differentiated ----------------------------------------------------
class _Target:
    """The user's callable, its plain function, parameters and registered rule (if any)."""

    def __init__(self, fn):
        self.fn = fn
        self.plain, _ = api._unwrap(fn)
        self.rule = api._rule_for(self.plain)
        self.params = api._params(self.plain)
        self.label = getattr(self.plain, "__name__", None) or repr(self.plain)

    def name_of(self, k):
        return self.params[k] if k < len(self.params) else f"args[{k}]"

    def location(self, k_list, policy):
        """Where the code computing the gradient lives, as one line of text."""
        if self.rule is not None:
            where = _defined_at(self.rule.custom) if self.rule.custom else None
            return f"registered rule {self.rule.name}" + (
                f" ({self.rule.custom.__name__} at {where})" if where else
                f" ({self.rule.kind})")
        names, _ = api._wrt_names(self.plain, tuple(k_list))
        rule = api.compiled(self.plain, names, policy)
        lines = rule.source.splitlines()
        first = next((n for n, text in enumerate(lines, 1) if text.startswith("def ")), 1)
        return f"generated rule {rule.filename}, line {first}: {lines[first - 1].strip()}"

    def defined_at(self):
        return _defined_at(self.plain)


def _defined_at(fn):
    """'file:line' of a function's definition, or None (builtins, ufuncs)."""
    try:
        return f"{inspect.getsourcefile(fn)}:{inspect.getsourcelines(fn)[1]}"
    except (OSError, TypeError):
        return None


def _wrt_positions(target, args, wrt):
    """Indices of the arguments to check: every float-valued one unless `wrt` says."""
    if wrt is None:
        chosen = [k for k, a in enumerate(args) if _is_float_valued(a)]
        if not chosen:
            raise TypeError(f"check_grads({target.label}): no float or float-array argument "
                            "to differentiate; pass wrt=")
        return chosen
    items = list(wrt) if isinstance(wrt, (tuple, list)) else [wrt]
    names, _ = api._wrt_names(target.plain, tuple(items))
    chosen = [target.params.index(n) if n in target.params else int(n)   # int: in *args
              for n in names]
    for k in chosen:
        if k >= len(args) or not _is_float_valued(args[k]):
            raise TypeError(f"check_grads({target.label}): argument {target.name_of(k)!r} "
                            "must be passed positionally as a float, a float array, or a "
                            "list/tuple/dict of those")
    return chosen


# ---- compiled gradients ---------------------------------------------------------------
def _compiled_grads(target, args, kwargs, chosen, policy, cotangent):
    """(output, tuple of gradients) from transform.grad/vjp, on read-only inputs."""
    __tracebackhide__ = True

    def call(frozen):
        if cotangent is None:
            return api.value_and_grad(target.fn, tuple(chosen), policy=policy)(*frozen,
                                                                               **kwargs)
        out, pullback = api.vjp(target.fn, *frozen, wrt=tuple(chosen), policy=policy,
                                **kwargs)
        return out, pullback(cotangent)
    what = f"the gradient computation (policy {policy!r}, {target.location(chosen, policy)})"
    try:
        return _guarded(target, what, args, call)
    except AssertionError:
        raise
    except Exception as exc:
        _add_note(exc, f"raised by check_grads({target.label}) in {what}")
        raise


def _add_note(exc, note):
    """exc.add_note(note); on Python 3.10 (no add_note) the same `__notes__` list, which
    pytest prints too."""
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    else:
        exc.__notes__ = [*getattr(exc, "__notes__", []), note]


# ---- finite differences -----------------------------------------------------------------
def _objective(target, kwargs, cotangent):
    """args -> float64 scalar: the output, or <cotangent, output> for non-scalar outputs."""
    def f(*xs):
        out = target.plain(*xs, **kwargs)
        if cotangent is None:
            return float(np.asarray(out, dtype=np.float64))
        return sum(float(np.sum(np.asarray(o, dtype=np.float64) * c))
                   for (_, o), (_, c) in zip(_leaves(out), _leaves(cotangent)))
    return f


def _finite_differences(target, args, kwargs, chosen, cotangent, eps, directions, rng):
    """{(k, path): (fd values, directions or None)} for every leaf of every checked arg."""
    f = _objective(target, kwargs, cotangent)
    base = [_map_leaves(_as_float64, a) for a in args]
    out = {}
    for k in chosen:
        for path, leaf in _leaves(base[k]):
            out[(k, path)] = _fd_leaf(f, base, k, path, np.asarray(leaf), eps, directions, rng)
    return out


def _fd_leaf(f, base, k, path, x, eps, directions, rng):
    def at(v):
        trial = list(base)
        trial[k] = _replace(base[k], path, v if x.ndim else np.float64(v))
        return f(*trial)
    if x.size <= ELEMENTWISE_LIMIT:
        fd = np.zeros(x.shape)
        for i in np.ndindex(x.shape):
            step = np.zeros(x.shape)
            step[i] = eps
            fd[i] = (at(x + step) - at(x - step)) / (2 * eps)
        return fd, None
    units = [u / np.linalg.norm(u) for u in (rng.standard_normal(x.shape)
                                             for _ in range(directions))]
    fd = np.array([(at(x + eps * u) - at(x - eps * u)) / (2 * eps) for u in units])
    return fd, units


# ---- comparison and the report ---------------------------------------------------------
def _worst(actual, expected, rtol, atol):
    """(index of the worst element, ratio of its error to the tolerance)."""
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        return None, np.inf
    err = np.abs(actual - expected) / (atol + rtol * np.abs(expected))
    err = np.where(np.isnan(err), np.inf, err)
    if err.size == 0:
        return (), 0.0
    i = np.unravel_index(int(np.argmax(err)), err.shape)
    return i, float(err[i])


def _relative(a, b):
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale else 0.0


def _fmt_index(label, i):
    return f"{label}[{', '.join(str(int(j)) for j in i)}]" if i else label


class _Check:
    """Collects failures; raises one AssertionError listing all of them."""

    def __init__(self, target, args, chosen, policies, rtol, atol):
        self.target, self.args, self.chosen, self.policies = target, args, chosen, policies
        self.rtol, self.atol = rtol, atol
        self.lines = []
        self.by_policy = {}  # failure text -> policies showing it (reported grouped)

    def _leaf_grad(self, grads, k, path):
        return _get(grads[self.chosen.index(k)], path)

    def _label(self, k, path):
        return self.target.name_of(k) + _path_text(path)

    def primal(self, primal, results):
        for policy, (out, _) in results.items():
            ok = _same_structure(out, primal) and all(
                np.allclose(np.asarray(o, float), np.asarray(p, float), self.rtol, self.atol,
                            equal_nan=True) for (_, o), (_, p) in zip(_leaves(out),
                                                                      _leaves(primal)))
            if not ok:
                text = (f"- the output differs from calling {self.target.label} directly: "
                        f"{_short(out)} vs {_short(primal)}")
                self.by_policy.setdefault(text, []).append(policy)

    def against_fd(self, results, fds):
        for (k, path), (fd, units) in fds.items():
            for policy, (_, grads) in results.items():
                g = self._leaf_grad(grads, k, path)
                line = self._fd_line(k, path, g, fd, units)
                if line:
                    self.by_policy.setdefault(line, []).append(policy)

    def _fd_line(self, k, path, g, fd, units):
        label = self._label(k, path)
        shape = fd.shape if units is None else units[0].shape
        if g is None or np.shape(g) != shape:
            return (f"- argument {label!r}: compiled gradient has shape {np.shape(g)}, "
                    f"expected {shape}")
        g = np.asarray(g, dtype=np.float64)
        compiled = g if units is None else np.array([np.sum(g * u) for u in units])
        i, ratio = _worst(compiled, fd, self.rtol, self.atol)
        if ratio <= 1:
            return None
        a, b = float(compiled[i]), float(fd[i])
        where = (f"worst element {_fmt_index(label, i)}" if units is None else
                 f"worst of {len(units)} random directions (#{i[0]}; {g.size} elements, "
                 "so directional derivatives <gradient, u> are compared)")
        return (f"- argument {label!r}: {where}: compiled {a:.10g}, finite difference "
                f"{b:.10g}, relative error {_relative(a, b):.3g}")

    def policies_agree(self, results):
        policies = list(results)
        for k in self.chosen:
            for path, _ in _leaves(self.args[k]):
                first = self._leaf_grad(results[policies[0]][1], k, path)
                for other in policies[1:]:
                    g = self._leaf_grad(results[other][1], k, path)
                    self._agree(k, path, (policies[0], first), (other, g))

    def _agree(self, k, path, left, right):
        (p, a), (q, b) = left, right
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        i, ratio = _worst(a, b, self.rtol, self.atol)
        if ratio <= 1:
            return
        label = self._label(k, path)
        detail = (f"shapes {a.shape} vs {b.shape}" if i is None else
                  f"worst element {_fmt_index(label, i)}: {float(a[i]):.10g} vs "
                  f"{float(b[i]):.10g}")
        self.lines.append(f"- argument {label!r}: policies {p!r} and {q!r} disagree, {detail}")

    def _rules(self):
        """User rules the generated code calls (suspects when a gradient is wrong)."""
        names, _ = api._wrt_names(self.target.plain, tuple(self.chosen))
        rule = api.compiled(self.target.plain, names, self.policies[0]).rrule
        found = []
        for name, value in sorted(rule.__globals__.items()):
            if name.endswith("_rrule") and name != rule.__name__ and \
                    inspect.isfunction(value):
                found.append(f"{value.__name__} ({_defined_at(value)})")
        return found

    def _grouped(self):
        """Per-policy failures, one entry per text with its policies and generated code."""
        out = []
        for text, policies in self.by_policy.items():
            names = ", ".join(repr(p) for p in policies)
            where = dict.fromkeys(self.target.location(self.chosen, p) for p in policies)
            word = "policy" if len(policies) == 1 else "policies"
            out.append(f"{text}; {word} {names}" + "".join(f"\n    {w}" for w in where))
        return out

    def raise_if_failed(self, eps):
        __tracebackhide__ = True
        self.lines = self._grouped() + self.lines
        if not self.lines:
            return
        head = (f"check_grads({self.target.label}) failed (rtol={self.rtol:g}, "
                f"atol={self.atol:g}, eps={eps:g}):")
        where = self.target.defined_at()
        if where:
            head += f"\n  {self.target.label} defined at {where}"
        if self.target.rule is None:
            names = tuple(self.target.name_of(k) for k in self.chosen)
            head += (f"\n  see the generated code with transform.adjoint_source("
                     f"{self.target.label}, wrt={names!r}, policy=...)")
            head += "".join(f"\n  it calls the registered rule {r}" for r in self._rules())
        raise AssertionError("\n".join([head] + self.lines))


def _short(value):
    text = np.array2string(np.asarray(value), precision=6, threshold=8) \
        if not isinstance(value, (list, tuple, dict)) else repr(value)
    return text if len(text) < 80 else text[:77] + "..."
