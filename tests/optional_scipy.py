"""SciPy is an optional extra (`make compat` has a row without it). A test module that
also checks SciPy's rules takes SciPy's submodules from here and drops those cases when
SciPy is missing, so the rest of the module still runs (2026-12-02, session 31 (lead))."""
import importlib


def scipy_module(name):
    """`scipy.<name>`, or None when SciPy is not installed."""
    try:
        return importlib.import_module(f"scipy.{name}")
    except ImportError:
        return None


HAVE_SCIPY = scipy_module("special") is not None


def if_scipy(*cases):
    """`cases` as a list when SciPy imports, else an empty list."""
    return list(cases) if HAVE_SCIPY else []
