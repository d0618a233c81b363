"""Generator: complex values between real arguments and a real loss.

    complex_values:  def f(x, a):
                         z = np.fft.fft(a * x)              a complex intermediate
                         w = z * (1 + 2j) + np.conj(z)      complex arithmetic
                         return np.sum(np.abs(w) ** 2) + x  a real reduction

Sources of complex values: np.fft.fft/rfft/ifft of real arrays, `v * (1 + 2j)`,
`np.exp(1j * v)`, `v + 1j * w`. Steps on them: complex products and quotients, conj,
`z ** 2`, `.real`/`.imag`/`.conj()`, fft round trips (ifft of fft, irfft of rfft with n).
Real ends: np.abs (squared, or of values kept off zero), np.real/np.imag, np.angle of values
kept off the negative real axis, `(z * np.conj(z)).real`; np.var/np.std/np.linalg.norm of
z, also of complex rows (axis=1) then given to np.dot/np.einsum/np.concatenate/@ with complex
weights (a real output's complex cotangent); nested lists of complex entries given to
np.linalg det/inv/norm/svd/solve/slogdet/matrix_power; complex(...) of a complex sum, then
abs/cmath.phase/cmath.exp (session 27's bug classes). A derivative that drops an
imaginary part, or a rule reached by a complex value it cannot handle, shows as a wrong
gradient unless the compiler refuses it (TransformError).
"""
from .program import ARRAY, SCALAR


def complex_values(g, seed):
    x, a = g.param(SCALAR), g.param(ARRAY)
    env = {x: SCALAR, a: ARRAY}
    terms = [x]
    for _ in range(g.rng.randint(1, 2)):
        z = g.name("spectrum")
        g.line(f"{z} = {g.pick(_SOURCES)(g, env, x, a)}")
        for _ in range(g.rng.randint(0, 2)):
            g.line(f"{z} = {g.pick(_STEPS)(g, z, x, a)}")
        terms.append(g.pick(_REAL_ENDS)(g, z))
    return g.case("complex_values", seed, " + ".join(terms))


# ---- where complex values come from ----------------------------------------------------
def _fft(g, env, x, a):
    g.use("complex_fft")
    v = g.array(env, 1)
    return g.pick((f"np.fft.fft({v})", f"np.fft.rfft({v})", f"np.fft.ifft({v})",
                   f"np.fft.fft({v}, n={g.n + 1})", f"np.fft.rfft({v}, norm='ortho')"))


def _scaled(g, env, x, a):
    g.use("complex_arithmetic")
    v = g.array(env, 1)
    return g.pick((f"{v} * (1 + 2j)", f"(0.5 - 1j) * {v} + {x}", f"{v} + 1j * np.sin({v})",
                   f"np.exp(1j * {v})", f"{v} * {x} * 1j + 0.3"))


def _built(g, env, x, a):
    g.use("complex_arithmetic")
    v, w = g.array(env, 1), g.array(env, 1)
    return g.pick((f"np.array({v}, dtype=complex) * (2 - 1j)",
                   f"{v}.astype(np.complex128) + 1j * {w}",
                   f"np.asarray({v} + 0j) * {x}"))


_SOURCES = (_fft, _fft, _scaled, _built)


# ---- complex to complex ----------------------------------------------------------------
def _arith(g, z, x, a):
    g.use("complex_arithmetic")
    return g.pick((f"{z} * (1 + 2j)", f"{z} * np.conj({z}) * 0.5 + {z}",
                   f"{z} / (2.0 + 1j)", f"{z} ** 2 * 0.3 + {x} * {z}",
                   f"{z} * {z}.conj() + 1j * {z}", f"{z} - {z}.real * 0.5j"))


def _round_trip(g, z, x, a):
    g.use("complex_fft")
    return g.pick((f"np.fft.ifft(np.fft.fft({z}) * (1 + 0.5j))",
                   f"np.fft.fft({z}) / {g.n}", f"np.fft.ifft({z}) * {x}"))


_STEPS = (_arith, _arith, _round_trip)


# ---- back to a real scalar ---------------------------------------------------------------
def _power(g, z):
    g.use("complex_abs")
    return g.pick((f"np.sum(np.abs({z}) ** 2)", f"np.sum(({z} * np.conj({z})).real)",
                   f"np.sum(np.abs({z} + 3.0 * (1 + 1j) * np.max(np.abs({z}))))"))


def _parts(g, z):
    g.use("complex_parts")
    return g.pick((f"np.sum(np.real({z}) * np.imag({z}))", f"np.sum({z}.real - {z}.imag)",
                   f"np.mean(np.real(np.conj({z}) * {z}.imag))",
                   f"np.sum(np.tanh(np.real({z})))", f"np.real(np.sum({z}))"))


def _angle(g, z):
    """np.angle away from its cut: the argument is moved into the right half-plane."""
    g.use("complex_angle")
    return f"np.sum(np.angle({z} / (1.0 + np.max(np.abs({z}))) + 2.0))"


def _irfft(g, z):
    g.use("complex_fft")
    return f"np.sum(np.sin(np.fft.irfft({z}[:{g.n // 2 + 1}], n={g.n})))"


# ---- session 27's bug classes: a complex value's cotangent through real outputs --------
def _statistic(g, z):
    """np.var/np.std/np.linalg.norm of a complex value: a real value of complex input."""
    g.use("complex_statistic")
    spread = f"np.concatenate([{z}, [1.0 + 2j]])"        # std and norm kept off zero
    return g.pick((f"np.var({z})", f"np.std({spread})", f"np.linalg.norm({spread})",
                   f"np.var({z}, ddof=1)", f"np.std({spread} * 1j + 0.5)",
                   f"np.linalg.norm({spread}, ord=1)", f"np.nanvar({z})",
                   f"np.linalg.vector_norm({spread})"))


_WEIGHTS = ("np.array([1 + 2j, 0.5 - 1j])", "np.array([-0.5j, 2.0 + 0.3j])")


def _weighted_statistic(g, z):
    """Real statistics of complex rows fed to dot/concatenate/einsum with complex weights:
    the real output hands back a complex cotangent whose imaginary part must be dropped."""
    g.use("complex_weighted_statistic")
    rows, stats, w = g.name("rows"), g.name("stats"), g.pick(_WEIGHTS)
    g.line(f"{rows} = np.stack([np.concatenate([{z}, [1.0 + 2j]]), "
           f"np.concatenate([{z} * {g.pick(('(1 - 1j)', '1j', '0.5'))}, [-1j]])])")
    reduce = g.pick(("np.std", "np.var", "np.linalg.norm", "np.mean"))
    g.line(f"{stats} = {reduce}({rows}, axis=1)" if reduce != "np.mean"
           else f"{stats} = np.abs(np.mean({rows}, axis=1))")
    combined = g.pick((f"np.dot({stats}, {w})", f"np.einsum('i,i->', {stats}, {w})",
                       f"np.sum(np.concatenate([{stats}, {stats} * 0.5]) * "
                       f"np.concatenate([{w}, {w}]))", f"{stats} @ {w}"))
    return g.pick((f"np.abs({combined})", f"np.real({combined})", f"({combined}).imag"))


def _nested_linalg(g, z):
    """A nested list of complex entries given to a linalg function (a list argument is
    read entry by entry, at any depth: complex entries must reach the complex path)."""
    g.use("complex_nested_linalg")
    u = g.name("unit")
    g.line(f"{u} = {z} / (1.0 + np.max(np.abs({z})))")
    m = (f"[[{u}[0] + 3.0, {u}[1]], [{g.pick(('1j', '0.5', '-2j'))} * {u}[1], "
         f"{g.pick(('3.0', '2.5j', '-3.0'))} - {u}[0]]]")
    return g.pick((f"np.abs(np.linalg.det({m}))", f"np.sum(np.abs(np.linalg.inv({m})))",
                   f"np.linalg.norm({m})", f"np.sum(np.linalg.svd({m}, compute_uv=False))",
                   f"np.sum(np.abs(np.linalg.solve({m}, [{u}[0], 1.0])))",
                   f"np.linalg.slogdet({m})[1]", f"np.linalg.norm([{u}, {u} * 1j], axis=1)[0]",
                   f"np.abs(np.trace(np.linalg.matrix_power({m}, 2)))",
                   f"np.sum(np.abs(np.linalg.det([{m}, {m}])))",          # a stack, 3 deep
                   f"np.sum(np.linalg.svd([{m}, {m}], compute_uv=False))",
                   f"np.linalg.norm({_LONG.format(u=u)})",             # complex past 64 rows
                   f"np.sum(np.linalg.svd({_LONG.format(u=u)}, compute_uv=False))"))


_LONG = "[[0.5, 2.0]] * 66 + [[{u}[0] + 3.0, 1.0]]"


def _python_complex(g, z):
    """complex(...) of a complex value, then abs/cmath.phase/.real (a Python complex)."""
    g.use("complex_builtin")
    if "import cmath" not in g.imports:
        g.imports.append("import cmath")
    c = f"complex(np.sum({z}) * 0.1 + 3.0)"              # off the cut and off zero
    return g.pick((f"abs({c})", f"cmath.phase({c})", f"({c} * (1 - 2j)).imag",
                   f"abs(cmath.exp({c} * 0.1j))"))


_REAL_ENDS = (_power, _power, _parts, _parts, _angle, _irfft, _statistic, _weighted_statistic,
              _nested_linalg, _python_complex)
