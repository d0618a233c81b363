"""thunkgrad: reverse-mode AD for Python and NumPy by source transformation.

The public names load on first use (PEP 562), so `import transform` (and the pytest
plugin, which every pytest run in the environment loads) costs nothing until then.
"""
import importlib

from .layout import check_runtime_is_ours

__version__ = "0.1.0"

check_runtime_is_ours()       # before `runtime` is first imported: is it ours? (no import)

# public name -> the module defining it
_EXPORTS = {
    "differentiable": ".api", "grad": ".api", "value_and_grad": ".api", "vjp": ".api",
    "adjoint_source": ".api", "TransformError": ".errors",
    "stop_gradient": "runtime.gradient_stop", "jacrev": ".jacobians", "jacobian": ".jacobians",
    "jvp": ".forward_api", "jacfwd": ".jacobians", "hvp": ".hessians", "hessian": ".hessians",
    "rrule": "runtime", "Thunk": "runtime", "unthunk": "runtime", "thunk_stats": "runtime",
    "checkpointed": "runtime", "checkpoint_stats": "runtime",
    "checkpointed_while": "runtime",
    "LINEAR": "runtime.jvp", "JOINT": "runtime.jvp",
}

__all__ = list(_EXPORTS)


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    globals()[name] = value              # later lookups skip this function
    return value


def __dir__():
    return sorted([*globals(), *__all__])
