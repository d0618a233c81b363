"""Every alias source x every write kind, written out as real functions in a module file
(the compiler reads source files): `a` is a fresh local array, `v` shares its memory
(a view, another name, a container holding it, a helper's result), one of them is
written and the other is read after the write.
"""
import importlib.util
import os
import tempfile

# name -> (statement making `v` share memory with `a`, an expression reading `v`)
SOURCES = {
    "rebind": ("v = a", "np.sum(v)"),
    "slice": ("v = a[:1]", "np.sum(v)"),
    "row": ("v = a[0]", "np.sum(v)"),
    "ellipsis": ("v = a[...]", "np.sum(v)"),
    "newaxis": ("v = a[None]", "np.sum(v)"),
    "T": ("v = a.T", "np.sum(v)"),
    "real": ("v = a.real", "np.sum(v)"),
    "imag": ("v = a.imag", "np.sum(v)"),
    "reshape": ("v = a.reshape(4)", "np.sum(v)"),
    "ravel": ("v = a.ravel()", "np.sum(v)"),
    "transpose": ("v = a.transpose()", "np.sum(v)"),
    "swapaxes": ("v = a.swapaxes(0, 1)", "np.sum(v)"),
    "squeeze": ("v = a.squeeze()", "np.sum(v)"),
    "view": ("v = a.view()", "np.sum(v)"),
    "diagonal": ("v = a.diagonal()", "np.sum(v)"),
    "np_asarray": ("v = np.asarray(a)", "np.sum(v)"),
    "np_asanyarray": ("v = np.asanyarray(a)", "np.sum(v)"),
    "np_reshape": ("v = np.reshape(a, 4)", "np.sum(v)"),
    "np_ravel": ("v = np.ravel(a)", "np.sum(v)"),
    "np_transpose": ("v = np.transpose(a)", "np.sum(v)"),
    "np_squeeze": ("v = np.squeeze(a)", "np.sum(v)"),
    "np_expand_dims": ("v = np.expand_dims(a, 0)", "np.sum(v)"),
    "np_atleast_2d": ("v = np.atleast_2d(a)", "np.sum(v)"),
    "np_broadcast_to": ("v = np.broadcast_to(a, (2, 2))", "np.sum(v)"),
    "np_moveaxis": ("v = np.moveaxis(a, 0, 1)", "np.sum(v)"),
    "np_diagonal": ("v = np.diagonal(a)", "np.sum(v)"),
    "np_flip": ("v = np.flip(a)", "np.sum(v)"),
    "chained_view": ("u = a[0]\n    v = u.reshape(1, 2)", "np.sum(v)"),
    "list": ("v = [a, 1.0]", "np.sum(v[0])"),
    "tuple": ("v = (a, 1.0)", "np.sum(v[0])"),
    "dict": ("v = {'k': a}", "np.sum(v['k'])"),
    "nested_list": ("v = [[a]]", "np.sum(v[0][0])"),
    "append": ("v = []\n    v.append(a)", "np.sum(v[0])"),
    "insert": ("v = [1.0]\n    v.insert(0, a)", "np.sum(v[0])"),
    "dict_setitem": ("v = {}\n    v['k'] = a", "np.sum(v['k'])"),
    "list_setitem": ("v = [0.0]\n    v[0] = a", "np.sum(v[0])"),
    "comprehension": ("v = [a for k in range(2)]", "np.sum(v[1])"),
    "helper_result": ("v = passthrough(a)", "np.sum(v)"),
    "ifexp": ("v = a if w > 0 else a[0]", "np.sum(v)"),
    "branch": ("v = np.ones(2)\n    if w > 0:\n        v = a[0]", "np.sum(v)"),
}
VIEWS = [k for k, (_, read) in SOURCES.items() if read == "np.sum(v)"]

# write kind -> statement writing into `{n}`
WRITES = {
    "item": "{n}[0] = w",
    "slice_item": "{n}[...] = w",
    "augmented_item": "{n}[0] += w",
    "augmented": "{n} += w",
    "fill": "{n}.fill(w)",
    "sort": "{n}.sort()",
    "copyto": "np.copyto({n}, w)",
    "add_at": "np.add.at({n}, 0, w)",
    "out": "np.multiply({n}, w, out={n})",
    "put": "np.put({n}, [0], w)",
}

HEADER = '''import numpy as np


def passthrough(t):
    return t
'''


def base_written(source, write):
    """`a` is written while `v` (sharing it) is read afterwards."""
    make, read = SOURCES[source]
    return (f"def f(X, w):\n    a = np.array(X)\n    {make}\n    {WRITES[write].format(n='a')}"
            f"\n    return np.sum(a) + {read}\n")


def alias_written(source, write):
    """`v` (sharing `a`) is written while `a` is read afterwards."""
    make, _ = SOURCES[source]
    return (f"def f(X, w):\n    a = np.array(X)\n    {make}\n    {WRITES[write].format(n='v')}"
            f"\n    return np.sum(a * a)\n")


def build(functions):
    """{key: source text of `def f`} -> {key: the function}, one module file per key
    (so every f has its own name and line numbers in its own file)."""
    folder = tempfile.mkdtemp(prefix="thunkgrad_alias_")
    out = {}
    for k, (key, text) in enumerate(sorted(functions.items())):
        path = os.path.join(folder, f"alias_case_{k}.py")
        with open(path, "w") as fh:
            fh.write(HEADER + "\n\n" + text)
        spec = importlib.util.spec_from_file_location(f"alias_case_{k}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out[key] = module.f
    return out
