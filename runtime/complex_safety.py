"""Rules written for real values only: a complex value reaching one is refused at run time.

docs/complex.md: a rule written as `g * f'(x)` or as a transpose holds for complex values
as it stands; the decompositions, the orderings (max/min) and the rules that take a real
part on the way (cov's transposes, logsumexp's weights) do not, and return wrong numbers
with no error. `registry.defvjp` guards each template of a function named in REAL_ONLY:

    svd_vjp(g, ans, a, ...)  ->  refuse_complex('np.linalg.svd', a, ans) or (svd_vjp(g, ans, a, ...))

refuse_complex returns None for real values (one dtype check each) and raises
ComplexRefused naming the function and what to do instead.
"""
import numpy as np

_DECOMP = ("a complex matrix's decomposition has no rule yet; build the loss from "
           "real matrices (the real and imaginary parts as a real block matrix "
           "[[A.real, -A.imag], [A.imag, A.real]]) or from the products, solve, inv and det")
_ORDER = ("order complex values by a real key: z[np.argmax(np.abs(z))] selects by index "
          "(indexing is complex-safe)")

# qualified name -> (the name the user wrote, what to do instead)
REAL_ONLY = {
    "numpy.linalg.svd": ("np.linalg.svd", _DECOMP),
    "numpy.linalg.svdvals": ("np.linalg.svdvals", _DECOMP),
    "numpy.linalg.eigh": ("np.linalg.eigh", _DECOMP),
    "numpy.linalg.eigvalsh": ("np.linalg.eigvalsh", _DECOMP),
    "numpy.linalg.cholesky": ("np.linalg.cholesky", _DECOMP),
    "numpy.linalg.qr": ("np.linalg.qr", _DECOMP),
    "numpy.linalg.lstsq": ("np.linalg.lstsq", "solve the normal equations with "
                           "np.linalg.solve(A.conj().T @ A, A.conj().T @ b)"),
    "numpy.linalg.slogdet": ("np.linalg.slogdet", "use np.linalg.det (complex-safe): "
                             "np.log(np.abs(np.linalg.det(A)))"),
    "scipy.linalg._decomp.eigh": ("scipy.linalg.eigh", _DECOMP),
    "scipy.linalg._decomp_svd.svd": ("scipy.linalg.svd", _DECOMP),
    "scipy.linalg._decomp_cholesky.cholesky": ("scipy.linalg.cholesky", _DECOMP),
    "scipy.linalg._decomp_cholesky.cho_factor": ("scipy.linalg.cho_factor", _DECOMP),
    "scipy.linalg._decomp_cholesky.cho_solve": ("scipy.linalg.cho_solve",
                                                "use scipy.linalg.solve (complex-safe)"),
    "scipy.special._logsumexp.logsumexp": ("scipy.special.logsumexp",
                                           "write np.log(np.sum(np.exp(z))) (holomorphic)"),
    "numpy.cov": ("np.cov", "write the covariance out: d = X - X.mean(axis=1, keepdims=True); "
                  "d @ d.conj().T / (n - 1)"),
    "numpy.corrcoef": ("np.corrcoef", "write the correlation out from the covariance"),
    "numpy.ptp": ("np.ptp", _ORDER),
}


class ComplexRefused(NotImplementedError):
    """A complex value reached a derivative rule written for real values (the public
    API raises it again as a TransformError at the user's line)."""


def guarded_templates(name, templates):
    """{param: template}, each guarded by refuse_complex over its parameter and `ans`."""
    if name not in REAL_ONLY:
        return templates
    return {p: f"refuse_complex({name!r}, {p}, ans) or ({t})" for p, t in templates.items()}


def refuse_complex(name, *values):
    """None when every value is real; raises ComplexRefused otherwise."""
    for value in values:
        if _is_complex(value):
            user_name, hint = REAL_ONLY[name]
            raise ComplexRefused(f"{user_name}'s derivative rule is for real values; a "
                                 f"complex value reaches it here. Instead: {hint}")
    return None


def _is_complex(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype.kind == "c"
    if isinstance(value, complex):
        return True
    if isinstance(value, (tuple, list)):    # every entry, at any depth: a cap let a 65-row
        return any(map(_is_complex, value))  # list of rows (or a stack) through unrefused
    return False
