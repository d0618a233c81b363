"""Readable tangent statements: a template term that calls the rule's own function with
the rule's parameters in order shows only the arguments the user's call gave, by name
(docs/forward.md):

    t3 = np.sum(t2, axis=0)     t3_dot = np.sum(t2_dot, 0, None, None, False)
                                    ->   t3_dot = np.sum(t2_dot, axis=0)

An argument the user left out holds the parameter's default (lowering fills defaults
in), so dropping it, or a literal equal to that default, changes nothing. Anything else
in the template is kept, by keyword. Literal arithmetic in a tangent is folded as in the
backward sweep (optimize/constants.py): `h_dot * 2 * h ** (2 - 1)` -> `h_dot * 2 * h`.
"""
import ast
import inspect

import gast

from runtime import TEMPLATE_NAMESPACE

from ..optimize.constants import fold_constants


def folded(statement):
    """The tangent statement with its literal arithmetic folded (in place)."""
    fold_constants(None, [statement])
    return statement


def tidy_template(text, prim, s):
    """`text` with the default arguments of a call of the rule's own function dropped
    and the rest given by keyword (the template unchanged when it is anything else)."""
    rule, call = prim.rule, s.value
    try:
        tree = ast.parse(text, mode="eval").body
        fn = eval(ast.unparse(tree.func), TEMPLATE_NAMESPACE) \
            if isinstance(tree, ast.Call) else None
    except Exception:                   # noqa: BLE001  (a template it does not read)
        return text
    passed = _passed(call, prim)
    if fn is not rule.fn or tree.keywords or passed is None or \
            len(tree.args) > len(rule.params) or not _own_names(rule) or \
            any(isinstance(a, ast.Starred) for a in tree.args):
        return text
    params = rule.signature.parameters
    keywords = []
    for k, arg in enumerate(tree.args[1:], start=1):
        p = params[rule.params[k]]
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            return text
        if p.name not in passed and _is_default(arg, p):
            continue
        keywords.append(ast.keyword(arg=p.name, value=arg))
    tree.args, tree.keywords = tree.args[:1], keywords
    return ast.unparse(tree)


def _own_names(rule):
    """The rule's parameter names are its function's own (thunkgrad's helpers declare
    NumPy-style names, `answer` for a parameter the def calls `ans`): only then can its
    arguments be passed by keyword."""
    try:
        own = list(inspect.signature(rule.fn).parameters)
    except (TypeError, ValueError):     # a builtin without a signature: NumPy's names
        return True
    return own[:len(rule.params)] == list(rule.params)


def _is_default(arg, param):
    """The template's argument is the parameter itself (the user left it at its default)
    or a literal equal to the default."""
    if isinstance(arg, ast.Name) and arg.id == param.name:
        return True
    return isinstance(arg, ast.Constant) and param.default is not inspect.Parameter.empty \
        and type(arg.value) is type(param.default) and arg.value == param.default


def _passed(call, prim):
    """The parameters the user's call gives (a method's receiver is the first), or None
    when the call is not one it can read."""
    if not isinstance(call, gast.Call) or any(k.arg is None for k in call.keywords) or \
            any(isinstance(a, gast.Starred) for a in call.args):
        return None
    params = prim.rule.params
    count = len(call.args)
    if isinstance(call.func, gast.Attribute) and params and \
            (getattr(prim, "receiver_first", False) or
             call.func.value is prim.inputs.get(params[0])):
        count += 1          # `x.sum()`: x is the first (a copied node in a dispatch's
        #                     array branch: `else: t = x.sum(0)`, receiver_first)
    return set(params[:count]) | {k.arg for k in call.keywords}


def tangent_last(expr, name):
    """`g * a * b` -> `a * b * g` for an elementwise term whose product starts with the
    tangent `name` (the VJP template's `g` first): read as a derivative times a tangent,
    `h_dot * 2 * h ** (2 - 1)` -> `2 * h * h_dot` once folded. Two factors are left as
    they are; the product is the same up to rounding (factors of arrays commute)."""
    factors, node = [], expr
    while isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mult):
        factors.append(node.right)
        node = node.left
    factors.append(node)
    factors.reverse()
    first = factors[0]
    if len(factors) < 3 or not (isinstance(first, gast.Name) and first.id == name):
        return expr
    out = factors[1]
    for factor in factors[2:] + [first]:
        out = gast.BinOp(left=out, op=gast.Mult(), right=factor)
    return out
