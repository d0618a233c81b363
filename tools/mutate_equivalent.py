"""The mutants judged equivalent (tools/equivalent_mutants.txt): changes no test can
tell apart from the original, each with the reason, so that `make mutate` reports them
as such instead of as survivors, and never spends a test run on them.

An entry is the mutant's key (file, change, and the mutated line as the mutant reads),
then the reason on the next line, indented:

    runtime/accumulate.py: reversed(s) -> s [for part in parts:]
        FlatSum._sum: only the order of a sum of floats (and of forcing its parts) changes

A key that no longer matches any mutant (the code changed) is simply unused: the mutant
it named, if it still exists, is judged by the tests again.
"""
import os

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "equivalent_mutants.txt")


def key(path, description, changed):
    return f"{path}: {description} [{changed}]"


def load(path=FILE):
    """{key: reason} from the equivalents file."""
    if not os.path.exists(path):
        return {}
    out, current = {}, None
    with open(path) as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith((" ", "\t")) and current is not None:
                out[current] = (out[current] + " " + line.strip()).strip()
            else:
                current = line.strip()
                out[current] = ""
    return out
