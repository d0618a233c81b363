"""What reverse mode can take in generated forward-mode code it compiles again (hvp,
hessian, grad of grad): calls of runtime or compiler functions without a reverse rule
are refused before anything runs, at the user's `def` line (reverse mode would otherwise
compile the helper's own source)."""
import types

from runtime import registry

from .errors import TransformError


def refuse_helpers(plain, generated, entry="hvp/hessian"):
    """Refuse generated forward code that calls runtime or compiler functions reverse
    mode has no rule for (a try statement's block is reverse mode's own: it refuses a
    derivative through it itself)."""
    cells = dict(zip(generated.__code__.co_freevars,
                     [c.cell_contents for c in generated.__closure__ or ()]))
    for used in sorted(_names(generated.__code__)):
        value = cells[used] if used in cells else generated.__globals__.get(used)
        if isinstance(value, types.FunctionType) and registry.lookup(value) is None and \
                not getattr(value, "thunkgrad_block", False) and \
                (value.__module__ or "").split(".")[0] in ("runtime", "transform"):
            code = plain.__code__
            raise TransformError(
                f"{entry} of {plain.__name__}: its forward-mode code calls "
                f"{used}, which reverse mode cannot differentiate yet (a rule's "
                "derivative helper, a closure, a container operation)",
                filename=code.co_filename, line=code.co_firstlineno,
                hint="compute H v by finite differences of grad, or jacfwd of grad "
                "when it applies; or inline the construct in plain NumPy")


def _names(code):
    found = set(code.co_names) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found
