"""`thunkgrad dump PATH.py:FUNC [--wrt NAMES] [--policy P] [--explain]`."""
import argparse
import importlib.util
import sys
from pathlib import Path

from .api import adjoint_source
from .errors import TransformError
from .loop_pass import POLICIES
from .quoting import single_line


class CliError(Exception):
    """A user mistake reported as one line on stderr, exit status 2."""


def load_function(spec):
    path, sep, name = spec.rpartition(":")
    if not sep or not path or not name:
        raise CliError(f"expected PATH.py:FUNC, got {spec!r}")
    file = Path(path)
    if not file.is_file():
        raise CliError(f"{path}: no such file")
    sys.path.insert(0, str(file.resolve().parent))
    module_spec = importlib.util.spec_from_file_location(file.stem, file)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[file.stem] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:                     # the user's module failed to import
        raise CliError(f"{path}: importing it failed: {type(exc).__name__}: {exc}") from None
    fn = module
    for part in name.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise CliError(f"{path}: no function named {name!r}")
    if not callable(fn):
        raise CliError(f"{path}: {name!r} is not a function")
    return fn


def parse_wrt(text):
    if text is None:
        return 0
    items = [w.strip() for w in text.split(",") if w.strip()]
    if not items:
        raise CliError("--wrt needs at least one parameter name or index")
    items = [int(w) if w.isdigit() else w for w in items]
    return items[0] if len(items) == 1 else tuple(items)


def build_parser():
    parser = argparse.ArgumentParser(prog="thunkgrad", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    dump = sub.add_parser("dump", help="print the generated adjoint source of a function")
    dump.add_argument("target", metavar="PATH.py:FUNC")
    dump.add_argument("--wrt", help="comma-separated parameter names or indices (default 0)")
    dump.add_argument("--policy", choices=POLICIES, default=None)
    dump.add_argument("--explain", action="store_true",
                      help="annotate each inserted unthunk and each deferred adjoint")
    dump.add_argument("--as-rule", action="store_true",
                      help="show the rule other compiled code calls (cotangents deferred) "
                           "instead of the code grad runs")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        fn = load_function(args.target)
        print(adjoint_source(fn, wrt=parse_wrt(args.wrt), policy=args.policy,
                             explain=args.explain, as_rule=args.as_rule), end="")
    except TransformError as exc:
        return _error(exc.one_line())
    except (CliError, TypeError, ValueError) as exc:
        return _error(str(exc))
    return 0


def _error(message):
    """One line on stderr, exit status 2. The message may quote a user's names or an
    exception's text: newlines and terminal control characters are escaped."""
    print(f"thunkgrad: error: {single_line(message)}", file=sys.stderr)
    return 2
