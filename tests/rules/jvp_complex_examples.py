"""Examples for the JVP checks of the rules whose values are complex (the transforms,
the parts of complex numbers, cmath): tests/rules/test_jvp_rules.py's MORE. The
VJP driver gives them none (tests/rules/test_every_rule_checked.py _COMPLEX); the FFTs
of a complex input are in tests/rules/test_jvp_variants.py."""

import numpy as np

from tests.rules.checks import rand

R = rand(3, 4, seed=41)
Z = rand(3, 4, seed=42) + 1j * rand(3, 4, seed=43)
H = rand(3, 3, seed=44) + 1j * rand(3, 3, seed=45)         # a half spectrum
Z0 = complex(0.7, -1.3)

FFT = {f"numpy.fft.{name}": ((R,), {}) for name in (
    "fft", "fft2", "fftn", "rfft", "rfft2", "rfftn", "ihfft")}
FFT.update({f"numpy.fft.{name}": ((Z,), {}) for name in ("ifft", "ifft2", "ifftn")})
FFT.update({f"numpy.fft.{name}": ((H,), {}) for name in ("irfft", "irfft2", "irfftn",
                                                            "hfft")})
PARTS = {"numpy.imag": ((Z,), {}), "numpy.sign": ((Z,), {}), "numpy.real": ((Z,), {}),
         "numpy.conjugate": ((Z,), {}),
         "numpy.complex128": ((R,), {}),
         "builtins.complex": ((0.7, -1.3), {})}
CMATH = {f"cmath.{name}": ((Z0,), {}) for name in (
    "cos", "cosh", "exp", "log", "sin", "sinh", "sqrt", "tan", "tanh", "phase")}
CMATH.update({("cmath.log", "base"): ((Z0, 2.5 + 0.5j), {}), "cmath.rect": ((1.7, 0.4), {})})
COMPLEX_MORE = {**FFT, **PARTS, **CMATH}
# the real inputs of the parts (a zero tangent for sign and imag) and of a complex result
REAL_MORE = {"numpy.imag": ((R,), {}), "numpy.sign": ((R,), {}), "numpy.real": ((R,), {}),
             "numpy.conjugate": ((R,), {}),
             "numpy.fft.ifft": ((R,), {}), "cmath.exp": ((0.3,), {}),
             "numpy.fft.irfft": ((R,), {})}
