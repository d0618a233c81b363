"""thunkgrad: show the adjoint code generated for a Python function.

    thunkgrad dump PATH.py:FUNC [--wrt NAMES] [--policy P] [--explain] [--as-rule]
                                [--memory-limit LIMIT] [--lowering plain]
    thunkgrad dump PATH.py:FUNC --mode forward [--wrt NAMES]

Every failure is reported without a traceback, exit status 2: one line
`file:line:col: message` (or `thunkgrad: error: message`), then the source line
and a caret where there is one, and `Instead:` with what to do.
"""
import argparse
import sys

from .api import adjoint_source
from .public.cli_load import CliError, load_function
from .errors import TransformError
from .analysis.accumulation import POLICIES
from .ir.quoting import single_line

DUMP_OPTIONS = """\
dump options (thunkgrad dump --help):
  PATH.py:FUNC    the file and the function in it; a method as Class.method
  --wrt NAMES     parameters to differentiate with respect to, names or indices
                  (default: the first), e.g. --wrt W,b
  --policy P      how cotangents accumulate: {policies} (default: the
                  function's own, else loop), e.g. --policy eager
  --explain       annotate each inserted unthunk and deferred adjoint
  --as-rule       show the rule other compiled code calls instead of grad's code
  --memory-limit LIMIT
                  as grad(..., memory_limit=LIMIT); with --explain the header says
                  which loops it checkpoints and how (e.g. --memory-limit 2GB)
  --lowering L    gast (the rule and its pullback, default) or plain (one function,
                  no closures, tapes read by index: the compiled backend's input;
                  lowering="numba" jits this same source), e.g. --lowering plain
  --mode M        reverse (the adjoint, default), forward (the tangent code jvp
                  and jacfwd run), e.g. --mode forward, or hvp (the tangent code and
                  the adjoint hvp runs over it)

"""

EXAMPLES = """\
examples:
  thunkgrad dump examples/quickstart.py:loss
      the code `grad(loss)` runs (wrt its first parameter)
  thunkgrad dump model.py:loss --wrt W,b
      differentiated with respect to W and b (names or indices: --wrt 0,1)
  thunkgrad dump model.py:rnn --policy eager
      the code under another accumulation policy ({policies})
  thunkgrad dump model.py:rnn --explain
      with a comment on every deferred adjoint and every inserted unthunk
  thunkgrad dump model.py:simulate --memory-limit 500MB --explain
      which loops memory_limit checkpoints, what the driver measures to choose
  thunkgrad dump model.py:Model.forward --as-rule
      a method, as the rule other compiled code calls (cotangents deferred)
  thunkgrad dump model.py:rnn --lowering plain
      the plain lowering grad(rnn, lowering="plain") runs: no closures, no del
  thunkgrad dump model.py:loss --mode forward
      the tangent code `jvp(loss, ...)` runs (forward mode)
  thunkgrad dump model.py:loss --mode hvp
      the code `hvp(loss, ...)` runs (route auto): the gradient as one function and
      forward mode's tangent code over it, else reverse mode over the tangent code
  thunkgrad dump model.py:loss --mode hvp --route reverse_over_forward
      the code `hvp(loss, ..., route="reverse_over_forward")` runs: the tangent code
      and the adjoint reverse mode runs over it
"""


def build_parser():
    parser = argparse.ArgumentParser(
        prog="thunkgrad", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Show the adjoint code thunkgrad (reverse-mode AD by source "
                    "transformation) generates for a Python function.",
        epilog=(DUMP_OPTIONS + EXAMPLES).format(policies=", ".join(POLICIES)))
    parser.add_argument("--version", action="version", version=f"thunkgrad {version()}",
                        help="print the version and exit (e.g. thunkgrad --version)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    dump = sub.add_parser(
        "dump", formatter_class=argparse.RawDescriptionHelpFormatter,
        help="print the generated adjoint source of a function "
             "(e.g. thunkgrad dump model.py:loss)",
        description="Print the adjoint source generated for FUNC in PATH.py.",
        epilog=EXAMPLES.format(policies=", ".join(POLICIES)))
    _dump_options(dump)
    return parser


def _dump_options(dump):
    dump.add_argument("target", metavar="PATH.py:FUNC",
                      help="the file and the function in it; a method as Class.method "
                           "(e.g. model.py:loss, model.py:Model.forward)")
    dump.add_argument("--wrt", metavar="NAMES",
                      help="comma-separated parameter names or indices to differentiate "
                           "with respect to; default: the first parameter (e.g. --wrt W,b)")
    dump.add_argument("--policy", choices=POLICIES, default=None,
                      help="how cotangents accumulate: " + ", ".join(POLICIES) +
                           "; default: the function's own, else loop (e.g. --policy eager)")
    dump.add_argument("--explain", action="store_true",
                      help="annotate each inserted unthunk and each deferred adjoint "
                           "(e.g. --explain)")
    dump.add_argument("--as-rule", action="store_true",
                      help="show the rule other compiled code calls (cotangents deferred) "
                           "instead of the code grad runs (e.g. --as-rule)")
    dump.add_argument("--memory-limit", metavar="LIMIT", default=None,
                      help="as grad's memory_limit: the outermost loops checkpointed when "
                           "their tape would exceed LIMIT; with --explain the header says "
                           "what happens to each loop (e.g. --memory-limit 2GB)")
    dump.add_argument("--lowering", choices=("gast", "plain"), default="gast",
                      help="gast: the rule and its pullback (default); plain: one function "
                           "with no closures, tapes read by index, the source "
                           "lowering='numba' jits (e.g. --lowering plain)")
    dump.add_argument("--mode", choices=("reverse", "forward", "hvp"), default="reverse",
                      help="reverse: the adjoint grad runs (default); forward: the "
                           "tangent code jvp runs (e.g. --mode forward); hvp: the tangent "
                           "code and the adjoint hvp runs over it")
    dump.add_argument("--route", choices=("auto", "reverse_over_forward", "forward_over_reverse"),
                      default=None,
                      help="with --mode hvp: the route hvp takes (default: hvp's "
                           "default, auto: forward_over_reverse where it compiles, "
                           "else reverse_over_forward after a comment saying why), e.g. "
                           "--route reverse_over_forward: the tangent code and the adjoint "
                           "reverse mode runs over it")


def version():
    """transform.__version__, else the installed distribution's version."""
    import transform
    found = getattr(transform, "__version__", None)
    if found:
        return found
    from importlib import metadata
    try:
        return metadata.version("thunkgrad")
    except metadata.PackageNotFoundError:
        return "unknown"


def parse_wrt(text):
    if text is None:
        return 0
    items = [w.strip() for w in text.split(",") if w.strip()]
    if not items:
        raise CliError("--wrt needs at least one parameter name or index",
                       hint="e.g. --wrt W,b or --wrt 0")
    items = [int(w) if w.isdigit() else w for w in items]
    return items[0] if len(items) == 1 else tuple(items)


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        fn = load_function(args.target)
        text = _source(fn, args)
    except TransformError as exc:
        return _report(_lines_of(exc))
    except CliError as exc:
        return _report([f"thunkgrad: error: {single_line(exc.message)}"], exc.hint)
    except (TypeError, ValueError) as exc:
        return _report([f"thunkgrad: error: {single_line(str(exc))}"],
                       "check --wrt against the function's parameters")
    except KeyboardInterrupt:
        return _report(["thunkgrad: interrupted"], status=130)
    except Exception as exc:                    # noqa: BLE001 - never a traceback
        return _report([f"thunkgrad: internal error: {type(exc).__name__}: "
                        f"{single_line(str(exc))}"],
                       "please report this with the function's source")
    sys.stdout.write(text)
    return 0


def _source(fn, args):
    if args.mode in ("forward", "hvp"):
        given = [o for o, v in (("--policy", args.mode == "forward" and args.policy),
                                ("--explain", args.explain), ("--as-rule", args.as_rule),
                                ("--memory-limit", args.memory_limit),
                                ("--lowering", args.lowering != "gast"),
                                ("--route", args.mode == "forward" and args.route)) if v]
        if given:
            raise CliError(f"{given[0]} does not apply to --mode {args.mode}",
                           hint=f"drop it, or leave out --mode {args.mode}")
    if args.mode == "forward":
        from .forward_api import jvp_source
        return jvp_source(fn, wrt=parse_wrt(args.wrt))
    if args.mode == "hvp":
        from .hessians import hvp_source
        return hvp_source(fn, wrt=parse_wrt(args.wrt), policy=args.policy, route=args.route)
    if args.route:
        raise CliError("--route applies to --mode hvp only", hint="add --mode hvp")
    limit = int(args.memory_limit) if (args.memory_limit or "").isdigit() else \
        args.memory_limit
    return adjoint_source(fn, wrt=parse_wrt(args.wrt), policy=args.policy,
                          explain=args.explain, as_rule=args.as_rule, memory_limit=limit,
                          lowering=args.lowering)


def _lines_of(exc):
    """A TransformError's lines: location and message, source line, caret, advice."""
    first = single_line(exc.one_line()) if exc.location else \
        f"thunkgrad: error: {single_line(exc.message)}"
    lines = [first]
    if exc.source_line is not None:
        source = single_line(exc.source_line.rstrip())
        lines.append("    " + source)
        if exc.col is not None:
            lines.append("    " + " " * exc.col + "^")
    if exc.hint:
        lines.append("Instead: " + single_line(exc.hint))
    return lines


def _report(lines, hint=None, status=2):
    """The lines on stderr (each quoting user text made one line), exit status 2."""
    if hint:
        lines = lines + ["Instead: " + single_line(hint)]
    print("\n".join(lines), file=sys.stderr)
    return status
