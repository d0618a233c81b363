"""Complex examples for every registered rule: the rule tests' own real examples
(tests/rules/rule_examples.py and test_every_rule_checked.py's EXTRA) with each float
argument the rule differentiates given an imaginary part. tests/rules/test_complex_allow.py
drives every rule with them: a rule declared complex_ok must match complex central
differences, every other must refuse."""
import numpy as np

import runtime
from runtime import registry
from tests.fd import assert_close
from tests.rules.complex_checks import expected_cotangent, paired, random_cotangent


def complexified(value, seed):
    """A float value with an imaginary part of its own (not a multiple of the real part,
    so the real and imaginary directions are independent); None for other values."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, float) or isinstance(value, np.floating):
        return np.complex128(complex(value, 0.3 + 0.1 * seed))
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        imag = 0.5 * np.cos(np.arange(value.size).reshape(value.shape) * 1.7 + seed)
        return value + 1j * imag
    if isinstance(value, (list, tuple)) and value and all(
            complexified(v, seed) is not None for v in value):
        return type(value)(complexified(v, seed + k) for k, v in enumerate(value))
    return None


def complex_example(rule, args, kwargs):
    """(complex args, positions made complex) for one real example, or None when no
    argument the rule differentiates is a float."""
    params = rule.params or list(rule.templates)
    out, positions = list(args), []
    for k, value in enumerate(args):
        if rule.kind != "custom" and (k >= len(params) or params[k] not in rule.templates):
            continue
        made = complexified(value, k)
        if made is not None:
            out[k] = made
            positions.append(k)
    return (tuple(out), tuple(positions)) if positions else None


def examples():
    """{rule: [(complex args, kwargs, positions)]} for every rule with a template or a
    custom pullback that one of the tables gives an example for."""
    from tests.rules.rule_examples import gathered
    from tests.rules.test_every_rule_checked import EXTRA
    registry._load_pending()
    table = gathered()
    for fn, calls in EXTRA.items():
        table.setdefault(fn, []).extend((tuple(c), {}) for c in calls)
    out = {}
    for fn, calls in table.items():
        rule = runtime.lookup(fn)
        if rule is None or rule.kind == "nondiff":
            continue
        for args, kwargs in calls:
            made = complex_example(rule, args, kwargs)
            if made is not None:
                out.setdefault(rule, []).append((made[0], kwargs, made[1]))
    return out


def differentiable_rules():
    """Every registered rule that gives cotangents (templates or a custom pullback)."""
    registry._load_pending()
    return sorted({r for r in registry._RULES.values() if r.kind != "nondiff"},
                  key=lambda r: r.name)


# float32 rounding in the forward: differences see it
TOLERANCE = {np.complex64: 5e-2}


def check_complex(fn, args, kwargs, positions, rtol=1e-5, atol=1e-7):
    """fn's rule against central differences of L = Re(sum(G * fn(...))) (complex_checks.py):
    each argument at `positions`, an array or a list of arrays, gets dL/da - i dL/db."""
    rtol = max(rtol, TOLERANCE.get(fn, 0.0))
    out, pullback = runtime.lookup(fn).rrule(*args, **kwargs)
    G = random_cotangent(np.asarray(out))
    cots = pullback(G)
    loss = paired(lambda *a: _joined(fn(*a, **kwargs)), G)
    for k in positions:
        got = runtime.unthunk(cots[k])
        if isinstance(args[k], (list, tuple)):
            for j in range(len(args[k])):
                part = None if got is None else runtime.unthunk(got[j])
                _compare(part, _entry_loss(loss, args, k, j), args[k][j], rtol, atol)
        else:
            _compare(got, lambda *a: loss(*a), args, rtol, atol, k)


def _joined(out):
    return np.asarray(out) if not isinstance(out, (list, tuple)) else np.asarray(out)


def _entry_loss(loss, args, k, j):
    """The loss as a function of entry j of the list args[k]."""
    def of_entry(v):
        entries = list(args[k])
        entries[j] = v
        at = list(args)
        at[k] = type(args[k])(entries)
        return loss(*at)
    return of_entry


def _compare(got, loss, where, rtol, atol, k=None):
    args, k = (where, k) if k is not None else ([where], 0)
    want = expected_cotangent(loss, list(args), k)
    if got is None:
        got = np.zeros(np.shape(args[k]), dtype=complex)
    assert np.shape(got) == np.shape(args[k]), (np.shape(got), np.shape(args[k]))
    assert_close(np.real(got), np.real(want), rtol=rtol, atol=atol)
    if np.iscomplexobj(args[k]):    # a real value's cotangent: its real part counts (the
        assert_close(np.imag(got), np.imag(want), rtol=rtol, atol=atol)   # boundary's)


def _z(*shape, seed=0):
    r = np.random.default_rng([seed, *shape])
    return r.uniform(-1, 1, shape) + 1j * r.uniform(-1, 1, shape)


def _x(*shape, seed=0):
    return np.random.default_rng([seed, 7, *shape]).uniform(0.5, 1.5, shape)


def complex_only_examples():
    """{fn: [(args, kwargs, positions)]} for rules made for complex values, whose real
    tables (test_fft.py, test_complex_parts.py) the gathering above does not read."""
    import cmath
    fft = np.fft
    z, zz, x = _z(6), _z(3, 4), _x(6)
    w = np.complex128(0.6 + 0.4j)
    table = {fn: [((w,), {}, (0,))] for fn in (
        cmath.exp, cmath.log, cmath.sqrt, cmath.sin, cmath.cos, cmath.tan, cmath.sinh,
        cmath.cosh, cmath.tanh, cmath.phase)}
    table[cmath.log].append(((w, 2.5), {}, (0, 1)))
    table[cmath.rect] = [((0.7, 0.4), {}, (0, 1))]
    table[complex] = [((0.7, -0.4), {}, (0, 1))]
    for fn in (np.complex128, np.complex64):
        table[fn] = [((x,), {}, (0,))]
    table[np.complex128].append(((z,), {}, (0,)))
    for fn in (np.real, np.imag, np.conjugate, np.abs, np.sign, np.angle):
        table[fn] = [((z,), {}, (0,)), ((zz,), {}, (0,))]
    table[np.angle].append(((z, True), {}, (0,)))
    for fn in (fft.fft, fft.ifft, fft.hfft, fft.irfft):
        table[fn] = [((z,), {}, (0,)), ((z, 8), {"norm": "ortho"}, (0,))]
    for fn in (fft.rfft, fft.ihfft):
        table[fn] = [((x,), {}, (0,)), ((x, 4), {"norm": "forward"}, (0,))]
    for fn in (fft.fftn, fft.ifftn, fft.fft2, fft.ifft2, fft.irfftn, fft.irfft2):
        table[fn] = [((zz,), {}, (0,)), ((zz, (4, 6)), {}, (0,))]
    for fn in (fft.rfftn, fft.rfft2):
        table[fn] = [((_x(3, 4),), {}, (0,))]
    for fn in (fft.fftshift, fft.ifftshift):
        table[fn] = [((zz,), {}, (0,)), ((zz, 1), {}, (0,))]
    for fn in (fft.fftfreq, fft.rfftfreq):
        table[fn] = [((7, 0.3), {}, (1,))]
    return table
