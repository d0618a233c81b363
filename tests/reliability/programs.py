"""Large programs written to a file and imported (the compiler reads real source)."""
import importlib.util
import itertools

_COUNTER = itertools.count()


def load(tmp_path, source, name="f"):
    """The function `name` of a module with `source`, from a file under tmp_path."""
    module_name = f"generated_{next(_COUNTER)}"
    path = tmp_path / f"{module_name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def long_sum(terms):
    """f(x) = x * 0.0 + x * 1.0 + ... (one expression)."""
    return "def f(x):\n    return " + " + ".join(f"x * {k}.0" for k in range(terms)) + "\n"


def elif_chain(branches):
    """f(x, k) = x * x * (k + 1) for k < branches, by an if/elif chain on k."""
    lines = ["def f(x, k):"]
    for i in range(branches):
        lines.append(f"    {'if' if i == 0 else 'elif'} k == {i}:")
        lines.append(f"        y = x * {i + 1}.0")
    lines += ["    else:", "        y = x", "    return y * x", ""]
    return "\n".join(lines)


def elif_chain_with_calls(branches):
    """An elif chain whose conditions need several statements each."""
    lines = ["import numpy as np", "", "def f(x, k):", "    y = x"]
    for i in range(branches):
        test = "k == 0" if i == 0 else f"np.sum(np.sin(x)) * {i} > k + np.cos(y)"
        lines.append(f"    {'if' if i == 0 else 'elif'} {test}:")
        lines.append(f"        y = np.sin(y) * {i + 1}.0")
    lines += ["    else:", "        y = y * x", "    return y * x", ""]
    return "\n".join(lines)
