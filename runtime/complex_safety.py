"""Complex values reach only the rules declared right for them: an allow-list.

docs/complex.md: a rule written as `g * f'(x)` or as a transpose holds for complex values
as it stands; a rule whose math orders values, takes a real part on the way or has no
conjugates where the complex math needs them (the decompositions, cov, logsumexp) returns
wrong numbers with no error. So a rule says it is right for complex values, once, at its
definition (`defvjp(np.exp, "x", "g * ans", complex_ok=True)`, checked against complex
finite differences by tests/rules/test_complex_allow.py), and every other rule refuses a
complex value. The guard goes in front of each template where a complex value may reach it
(at run time: `Rule.rrule`; in compiled code: functions with a complex seed,
transform/analysis/complex_seeds.py):

    svd_vjp(g, ans, a, ...)  ->  refuse_complex('numpy.linalg.svd', a, ans) or (svd_vjp(...))

refuse_complex returns None for real values (one dtype check each) and raises
ComplexRefused naming the function and what to do instead.
"""
import numpy as np

_DECOMP = ("a complex matrix's decomposition has no rule yet; build the loss from "
           "real matrices (the real and imaginary parts as a real block matrix "
           "[[A.real, -A.imag], [A.imag, A.real]]) or from the products, solve, inv and det")
_ORDER = ("order complex values by a real key: z[np.argmax(np.abs(z))] selects by index "
          "(indexing is complex-safe)")
_EIG = ("the rule takes real matrices with real, distinct eigenvalues: complex "
        "eigenvalues or a complex matrix have no rule yet")
_GENERIC = ("take np.real, np.imag or np.abs of the value first, or write the function "
            "from rules that take complex values (docs/complex.md lists them)")

# qualified name -> (the name the user wrote, what to do instead), for rules known to be
# wrong for complex values; every rule without complex_ok refuses, these say more
INSTEAD = {
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
    "numpy.linalg.eig": ("np.linalg.eig", _EIG),
    "numpy.linalg.eigvals": ("np.linalg.eigvals", _EIG),
    "numpy.real_if_close": ("np.real_if_close", "its rule takes real input only: write "
                            "np.real(z) where the imaginary part is negligible"),
}


class RuleRefused(NotImplementedError):
    """A derivative rule refuses the values it got, found only when it runs (a norm
    order its second derivative has no rule for, a complex value): the public API
    raises it again as a TransformError at the user's line (transform/emit/tracebacks.py).
    The message may end with " Instead: what to do"."""


class SubscriptRefused(RuleRefused, TypeError):
    """`obj[i]` on a class with its own __getitem__ in reverse mode (accumulate.py): a
    TypeError to its callers, a TransformError at the user's line from the public API."""


class AttributeRefused(RuleRefused, TypeError):
    """An attribute read with no derivative, found when the code runs (a class's own
    __getattr__ answering a name that is no field): a TypeError to its callers, a
    TransformError at the user's line from the public API."""


class ComplexRefused(RuleRefused):
    """A complex value reached a derivative rule written for real values."""


def guarded(name, param, template):
    """`template` behind a refuse_complex over `param` and `ans`."""
    return f"refuse_complex({name!r}, {param}, ans) or ({template})"


def refuse_complex(name, *values):
    """None when every value is real; raises ComplexRefused otherwise."""
    for value in values:
        if _is_complex(value):
            raise refusal(name)
    return None


def refusal(name):
    """The ComplexRefused for the rule named `name` (a qualified name)."""
    user_name, hint = INSTEAD.get(name) or (user_facing(name), _GENERIC)
    return ComplexRefused(f"{user_name}'s rule takes real values only: a complex value "
                          "reaches it here, and its derivative is not declared right for "
                          f"complex values (docs/complex.md). Instead: {hint}")


def user_facing(name):
    """`numpy.linalg._linalg.svd` -> `np.linalg.svd`: the name as the user writes it."""
    parts = [p for p in name.split(".") if not p.startswith("_") or p.startswith("__")]
    if parts and parts[0] == "numpy":
        parts[0] = "np"
    return ".".join(parts) or name


def any_complex(values):
    """Whether any of `values` (or an entry of a container among them, at any depth) is complex."""
    return any(_is_complex(v) for v in values)


def _is_complex(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype.kind == "c"
    if isinstance(value, complex):
        return True
    if isinstance(value, (tuple, list)):    # every entry, at any depth: a cap let a 65-row
        return any(map(_is_complex, value))  # list of rows (or a stack) through unrefused
    if isinstance(value, dict):
        return any(map(_is_complex, value.values()))
    return False
