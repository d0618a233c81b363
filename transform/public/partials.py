"""A functools.partial object handed to grad, jvp, hvp, hessian, jacfwd, jacrev, vjp:
differentiated as a generated function calling the partial's own function,

    partial(loss, X=X, y=y)   ->   def loss(w, *, X=_X, y=_y, power=_power):
                                       return target(w, X=X, y=y, power=power)

its parameters the partial's (inspect.signature of it: the bound positional arguments
gone, the bound keywords keyword-only with the bound values as defaults, overridable as
partial's are), its text registered with linecache. The bound positional arguments are
constants in the call (globals of the generated function): a partial binding a position
its function differentiates is fine, that argument is simply not differentiated. wrt
counts and names the generated function's parameters, as calling the partial does.
"""
import functools
import inspect
import linecache

_KIND = inspect.Parameter


def unpartial(fn):
    """fn, or for a functools.partial the generated function calling its function."""
    if not isinstance(fn, functools.partial):
        return fn
    cached = fn.__dict__.get("thunkgrad_function")
    if cached is None:
        cached = fn.__dict__["thunkgrad_function"] = _generated(fn)
    return cached


def _generated(fn):
    """The function, compiled from text made from the partial's signature."""
    params = list(inspect.signature(fn).parameters.values())
    name = getattr(fn.func, "__name__", "f")
    name = name if name.isidentifier() and name not in [p.name for p in params] else "f"
    scope = {"target": fn.func, "__name__": getattr(fn.func, "__module__", None) or name}
    bound = []
    for k, value in enumerate(fn.args):
        scope[f"_bound{k}"] = value
        bound.append(f"_bound{k}")
    qualified = getattr(fn.func, "__qualname__", name)
    filename = f"<thunkgrad: functools.partial of {qualified}>"
    text = (f"def {name}({_parameters(params, scope)}):   # thunkgrad: functools.partial "
            f"of {qualified}\n    return target({', '.join(bound + _arguments(params))})\n")
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), scope)      # noqa: S102 (text made above)
    function = scope[name]
    function.__qualname__ = name
    function.__doc__ = getattr(fn.func, "__doc__", None)
    return function


def _parameters(params, scope):
    """The def's parameter list; a default is a global `_<name>` holding its value."""
    out, slash, star = [], False, False
    for p in params:
        if p.kind is _KIND.POSITIONAL_ONLY:
            slash = True
        elif slash:
            out.append("/")
            slash = False
        if p.kind is _KIND.KEYWORD_ONLY and not star:
            out.append("*")
            star = True
        text = {_KIND.VAR_POSITIONAL: "*", _KIND.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        star = star or p.kind is _KIND.VAR_POSITIONAL
        if p.default is not _KIND.empty:
            scope[f"_{p.name}"] = p.default
            text += f"=_{p.name}"
        out.append(text)
    return ", ".join(out + (["/"] if slash else []))


def _arguments(params):
    """The call's arguments: positional ones by position, the rest by keyword."""
    return [{_KIND.VAR_POSITIONAL: "*", _KIND.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
            if p.kind in (_KIND.POSITIONAL_ONLY, _KIND.POSITIONAL_OR_KEYWORD,
                          _KIND.VAR_POSITIONAL, _KIND.VAR_KEYWORD)
            else f"{p.name}={p.name}" for p in params]
