"""Programs that use one name of the generated code's vocabulary in one position.

`program(position, names)` is the source of a module whose `f` differentiates through
NumPy helpers, a callee, a `while` loop and a `for` loop, with the names as parameters,
locals, loop-carried locals, module globals the function reads, names of helper
functions it calls, or locals of a nested def (all of them at once: collisions between
them are tried too). The user's own names here
(USER_NAMES) are kept out of the vocabulary under test.
"""
import importlib.util
import itertools
import os

import numpy as np

USER_NAMES = frozenset({"numpy", "helper", "f", "x", "w", "y", "i", "k_", "v", "inner"})

_HEAD = '''import numpy


def helper(v):
    return v * numpy.tanh(v)
'''

_BODY = '''    y = numpy.sum(numpy.sin(x) * w) + helper(w) + {a}
    i = 0
    while i < 2:
        y = y + numpy.sum(x * y) * 0.1 + {b}
        {carry}
        i = i + 1
    for k_ in (0, 1):
        y = y * 0.9 + w * x[k_] * {c}
    return y * {d}
'''

def _mean(terms):
    return "(" + " + ".join(terms) + f") * {1.0 / len(terms)!r}"


def _parameter(names):
    return ("", ", ".join(["x", "w"] + names), "",
            dict(a=_mean(names), b=_mean(names) + " * w", c=_mean(names), d=_mean(names),
                 carry="; ".join(f"{n} = {n} * 0.5 + y * 0.1" for n in names)))


def _local(names, carry):
    before = "".join(f"    {n} = w * {2.0 + k / 10}\n" for k, n in enumerate(names))
    step = "; ".join(f"{n} = {n} + numpy.sin(y) * 0.1" for n in names) if carry else "pass"
    return ("", "x, w", before,
            dict(a=_mean(names), b=_mean(names) + " * w", c=_mean(names), d=_mean(names),
                 carry=step))


def _global(names):
    module = "".join(f"{n} = {0.5 + k / 100}\n" for k, n in enumerate(names))
    return (module, "x, w", "",
            dict(a=_mean(names), b=_mean(names) + " * w", c=_mean(names), d=_mean(names),
                 carry="pass"))


def _helper_name(names):
    module = "".join(f"\ndef {n}(v):\n    return v * numpy.cos(v)\n" for n in names)
    calls = lambda arg: _mean([f"{n}({arg})" for n in names])       # noqa: E731
    return (module, "x, w", "", dict(a=calls("w"), b=calls("y"), c=calls("w"), d="1.0",
                                     carry="pass"))


def _nested_def(names):
    chain = "".join(f"        {n} = {prev} * 0.5\n"
                    for prev, n in zip(["v"] + names, names))
    before = f"    def inner(v):\n{chain}        return {names[-1]} * v + v * v\n"
    return ("", "x, w", before, dict(a="inner(w)", b="inner(y)", c="inner(w)", d="1.0",
                                     carry="pass"))


# position -> names -> (module-level text, parameters, text before the body, body parts)
POSITIONS = {
    "parameter": _parameter,
    "local": lambda names: _local(names, carry=False),
    "loop_carried": lambda names: _local(names, carry=True),
    "global": _global,
    "helper_name": _helper_name,
    "nested_def": _nested_def,
}


def program(position, names):
    """The module source for `names` (a list) all in `position`."""
    module, params, before, parts = POSITIONS[position](list(names))
    return _HEAD + module + f"\n\ndef f({params}):\n" + before + _BODY.format(**parts)


def arguments(position, names):
    x = np.array([0.3, 0.7, 1.1])
    extra = tuple(0.7 + k / 100 for k in range(len(names))) if position == "parameter" else ()
    return (x, 0.4) + extra


_COUNTER = itertools.count()


def load(source, directory, stem):
    """Import `source` as a fresh module from a file (the compiler reads its source)."""
    path = os.path.join(directory, f"{stem}_{next(_COUNTER)}.py")
    with open(path, "w") as out:
        out.write(source)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
