"""The import names `transform` and `runtime` are the product's layout, and common
names: a user's own `runtime/` folder (or an unrelated `runtime` distribution) first
on sys.path would be imported in place of ours and fail far from the cause
("cannot import name 'rrule' from 'runtime'"). Checked once, at `import transform`.
"""
import importlib.util
import sys
from pathlib import Path

_OURS = Path(__file__).resolve().parent.parent / "runtime"


def check_runtime_is_ours():
    """ImportError naming the other module's path and the fix, if `runtime` is not ours."""
    module = sys.modules.get("runtime")
    if module is not None:
        found = getattr(module, "__file__", None) or _search_path(module)
    else:
        try:
            spec = importlib.util.find_spec("runtime")
        except (ImportError, ValueError):
            return                         # importing it will say what is wrong
        if spec is None:
            return
        found = spec.origin if spec.origin not in (None, "namespace") else \
            next(iter(spec.submodule_search_locations or []), None)
    if found is not None and not _is_ours(found):
        raise ImportError(_message(found))


def _search_path(module):
    return next(iter(getattr(module, "__path__", []) or []), None)


def _is_ours(found):
    path = Path(found).resolve()
    return path == _OURS or _OURS in path.parents


def _message(found):
    return (f"thunkgrad's `transform` needs its own `runtime` package ({_OURS}), but "
            f"`import runtime` finds another module: {found}. "
            "Instead: rename that module or folder (for example to myproject_runtime), "
            "or run Python from a directory where it is not importable as `runtime`, "
            f"so that {_OURS.parent} comes first on sys.path")
