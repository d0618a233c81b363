"""The CLI's target `PATH.py:FUNC`: the user's file imported, the function found in it.

The file is imported under a private module name (`_thunkgrad_target_<stem>`), never
its own stem: a file named `runtime.py` or `gast.py` must not replace the compiler's
modules in sys.modules. Every way this can fail is a CliError or a located
TransformError (an exception raised while importing points at the user's line).
"""
import importlib.util
import inspect
import linecache
import sys
import traceback
from pathlib import Path

import runtime
from ..errors import TransformError
from ..ir.quoting import identifier

EXAMPLE = "thunkgrad dump examples/quickstart.py:loss"


class CliError(Exception):
    """A user mistake reported as one line (and an `Instead:` line) on stderr."""

    def __init__(self, message, hint=None):
        super().__init__(message)
        self.message, self.hint = message, hint


def load_function(spec):
    """The function `spec` (PATH.py:FUNC, FUNC possibly dotted: Model.forward) names."""
    path, sep, name = spec.rpartition(":")
    if not sep or not path or not name:
        raise CliError(f"expected PATH.py:FUNC, got {spec!r}",
                       hint=f"name a file and a function in it, e.g. {EXAMPLE}")
    module = import_file(_checked_file(path))
    return _function(module, path, name)


def _checked_file(path):
    file = Path(path)
    if file.is_dir():
        raise CliError(f"{path}: is a directory, not a Python file",
                       hint=f"name a .py file in it and a function, e.g. {EXAMPLE}")
    if not file.exists():
        raise CliError(f"{path}: no such file", hint=f"check the path, e.g. {EXAMPLE}")
    if file.suffix != ".py":
        raise CliError(f"{path}: not a Python source file (.py)",
                       hint="name the .py file that defines the function")
    return file


def import_file(file):
    """Import `file` under a private module name; its folder goes first on sys.path so
    that it imports its neighbours as `python FILE.py` would."""
    name = f"_thunkgrad_target_{identifier(file.stem)}"
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(file.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except SystemExit as exc:
        raise CliError(f"{file}: the module called sys.exit({exc.code!r}) while being "
                       "imported", hint="guard the script part of the file with "
                                        "`if __name__ == \"__main__\":`") from None
    except SyntaxError as exc:
        raise _syntax_error(file, exc) from None
    except Exception as exc:                   # noqa: BLE001 - any failure of user code
        raise _import_error(file, exc) from None
    return module


def _syntax_error(file, exc):
    col = (exc.offset - 1) if exc.offset else None
    return TransformError(f"the file does not parse: {exc.msg}",
                          filename=str(file), line=exc.lineno, col=col,
                          source_line=(exc.text or "").rstrip("\n") or None,
                          hint="fix the syntax error; the file must import on its own")


def _import_error(file, exc):
    """The exception at the user's line that raised it (the last frame in the file)."""
    target = str(file.resolve())
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if Path(f.filename).resolve().as_posix() == Path(target).as_posix()]
    where = frames[-1] if frames else None
    col = getattr(where, "colno", None) if where else None
    return TransformError(
        f"importing the file failed: {type(exc).__name__}: {exc}",
        filename=str(file), line=where.lineno if where else None, col=col,
        source_line=linecache.getline(where.filename, where.lineno).rstrip("\n")
        if where else None,
        hint="the file must import without errors: run `python FILE.py` to see why")


def _function(module, path, name):
    fn = module
    for part in name.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise CliError(f"{path}: no function named {name!r}",
                           hint=f"name one of: {_functions_in(module)}")
    if inspect.isclass(fn):
        methods = [m for m, v in vars(fn).items() if inspect.isfunction(v)][:3]
        example = f"{path}:{name}.{methods[0]}" if methods else f"{path}:{name}.method"
        raise CliError(f"{path}: {name!r} is a class, not a function",
                       hint=f"name one of its methods, e.g. {example}")
    if not callable(fn):
        raise CliError(f"{path}: {name!r} is not a function ({type(fn).__name__})",
                       hint=f"name one of: {_functions_in(module)}")
    if getattr(inspect.unwrap(fn), "__code__", None) is None:
        raise CliError(_no_source(path, name, fn),
                       hint="dump shows the code generated for Python functions: name "
                            "one defined in the file")
    return fn


def _no_source(path, name, fn):
    what = getattr(fn, "__module__", None) or \
        ("numpy" if type(fn).__name__ == "ufunc" else type(fn).__name__)   # NumPy 1 ufuncs
    label = f"{what}.{getattr(fn, '__name__', name)}"
    if runtime.lookup(fn) is not None:
        return f"{path}: {name!r} is {label}, which has a derivative rule and no Python " \
               "source: nothing is generated for it"
    return f"{path}: {name!r} is {label}, not a Python function: it has no source"


def _functions_in(module):
    names = [n for n, v in vars(module).items() if inspect.isfunction(v)
             and getattr(v, "__module__", None) == module.__name__]
    return ", ".join(names[:8]) if names else "(no functions defined in the file)"
