"""The compiler's faster ast->gast converter and in-order walk give what gast's give: the
same tree (node types, fields, field order, locations, hence the same text from
gast.unparse), the same order (the syntax check reports the first offending node)."""
import ast
from pathlib import Path

import gast
import pytest

from transform.ir.nodes import walk_in_order
from transform.frontend.to_gast import ast_to_gast

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "transform").glob("*.py")) + sorted((ROOT / "runtime").glob("*.py")) \
    + sorted((ROOT / "tests" / "corpus").glob("*.py"))

# constructs the compiler refuses but must still convert and print like gast
ODDITIES = '''
async def f(a, /, b: int = 1, *c, d, e=2, **g) -> "r":
    global q
    try:
        x: int = yield from h
    except (E, F) as err:
        del err
    else:
        pass
    finally:
        raise X from Y
    async with m as (p, q), n:
        await z
    async for i, *j in k:
        continue
    match v:
        case [1, *rest] | {"k": _, **kw} if rest:
            lambda u, *w, t=3: u if t else not -w ** -2
        case Point(x=0, y=y) as pt:
            break
    print(f"{a!r:>{b}} {c=}", b"\\x00", 1e400, -0.0, 3 .real, (1,), (), {*()}, {1: 2, **d})
    return [i async for i in y if i for j in z], {k: v for k, v in w}, {s for s in t}
@dec(1)
class C(B, metaclass=M):
    """doc"""
    x = a[1:2, ::3, ...][b:] @ c | d ^ e & f << g >> h // i % j
    y = (a := 1) < b <= c is not d not in e
'''


def _same(a, b, path="tree"):
    assert type(a) is type(b), path
    if isinstance(a, list):
        assert len(a) == len(b), path
        for k, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{k}]")
    elif isinstance(a, gast.AST):
        assert list(vars(a)) == list(vars(b)), path
        for field in vars(a):
            _same(getattr(a, field), getattr(b, field), f"{path}.{field}")
    else:
        assert repr(a) == repr(b), path


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_converts_like_gast(path):
    tree = ast.parse(path.read_text())
    before = ast.dump(tree, include_attributes=True)
    _same(gast.ast_to_gast(tree), ast_to_gast(tree))
    assert ast.dump(tree, include_attributes=True) == before      # the input is untouched


def test_converts_oddities_like_gast():
    tree = ast.parse(ODDITIES)
    _same(gast.ast_to_gast(tree), ast_to_gast(tree))


def test_converted_nodes_are_new():
    tree = ast.parse("y = x")
    new = ast_to_gast(tree)
    assert isinstance(new.body[0].targets[0], gast.Name)
    assert new.body[0].targets[0].ctx is not new.body[0].value.ctx


@pytest.mark.parametrize("text", [ODDITIES, (ROOT / "transform" / "pipeline.py").read_text()])
def test_walks_in_gast_order(text):
    tree = gast.parse(text)
    assert [id(n) for n in walk_in_order(tree)] == [id(n) for n in gast.walk(tree)]
