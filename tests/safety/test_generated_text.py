"""Text taken from user objects reaches generated source only
quoted. Comment markers are nodes (not strings a regex finds in the text), so user
strings equal to the old marker texts keep their values; a __qualname__, __name__ or
helper __name__ holding a newline and code lands only in comments or not at all."""
import ast
import builtins
import io
import subprocess
import sys
import tokenize
from pathlib import Path

import gast
import pytest

import transform.api
from tests.gradcheck import POLICIES, check_grad
from tests.safety import text_programs as tp
from transform import adjoint_source, value_and_grad
from transform.ir.comments import comment_texts, marker
from transform.ir.quoting import identifier, single_line
from transform.ir.comments import mark_of
from transform.ir.recognize import is_comment
from transform.emit.render import render_rule

ROOT = Path(__file__).resolve().parents[2]
PWNED = "THUNKGRAD_PWNED"
# Words of the injected payloads that must never be code in the generated source.
PAYLOAD_WORDS = {"import", "os", "system", "builtins", PWNED, "__import__", "__setattr__"}


@pytest.fixture(autouse=True)
def never_pwned():
    yield
    ran = hasattr(builtins, PWNED)
    if ran:
        delattr(builtins, PWNED)
    assert not ran, "text from a user object ran as code"


def code_tokens(source):
    """The tokens of `source` outside comments and string literals."""
    skip = {tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE,
            tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    skip |= {getattr(tokenize, k) for k in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
             if hasattr(tokenize, k)}
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [t.string for t in tokens if t.type not in skip]


def assert_only_quoted(source):
    """No payload word is code; the module is one def with no import in it."""
    assert not PAYLOAD_WORDS & set(code_tokens(source)), source
    tree = ast.parse(source)
    assert len(tree.body) == 1 and isinstance(tree.body[0], ast.FunctionDef), source
    assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree))
    assert not {"\r", "\x1b", "\u2028"} & set(source), repr(source)


def sources(fn, explain=True):
    """The generated source under every policy, as grad runs it and as a rule."""
    return [adjoint_source(fn, policy=p, explain=explain, as_rule=r)
            for p in POLICIES for r in (False, True)]


MARKER_FUNCTIONS = [tp.marker_string_constant, tp.marker_lines_in_fstring,
                    tp.marker_fstring_indented, tp.marker_docstring,
                    tp.marker_string_statement, tp.marker_in_loop]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", MARKER_FUNCTIONS, ids=lambda f: f.__name__)
def test_old_marker_texts_keep_value_and_gradient(fn, policy):
    value, _ = value_and_grad(fn, policy=policy)(1.3)
    assert value == fn(1.3)
    check_grad(fn, [1.3], policy=policy)


# Python 3.12 tokenizes an f-string's text as FSTRING_MIDDLE tokens (PEP 701)
STRING_TOKENS = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


@pytest.mark.parametrize("fn", [tp.marker_lines_in_fstring, tp.marker_fstring_indented,
                                tp.marker_in_loop], ids=lambda f: f.__name__)
def test_old_marker_texts_stay_inside_their_strings(fn):
    for source in sources(fn):
        strings = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
                   if t.type in STRING_TOKENS]
        assert any("'__thunkgrad_comment_0__'" in t.string or
                   "'__thunkgrad_comment_1__'" in t.string for t in strings), source
        assert "# __thunkgrad" not in source


def test_comment_recognised_by_mark_not_by_text():
    for text in tp.OLD_MARKERS:
        assert not is_comment(gast.Expr(value=gast.Constant(value=text, kind=None)))
    assert is_comment(marker(0)) and not mark_of(marker(0)).end
    assert is_comment(marker(3, end=True)) and mark_of(marker(3, end=True)).end


@pytest.mark.parametrize("fn", [tp.named_with_code, tp.named_with_payload],
                         ids=["os_system", "payload"])
def test_qualname_with_code_lands_only_in_comments(fn):
    for source in sources(fn):
        assert_only_quoted(source)
        assert source.startswith("# thunkgrad: adjoint of " + single_line(fn.__qualname__))
        assert "\n" not in source.splitlines()[0]


def test_qualname_header_is_escaped_repr_style():
    source = adjoint_source(tp.named_with_code)
    first = source.splitlines()[0]
    assert first.startswith("# thunkgrad: adjoint of f\\nimport os; os.system('echo pwned') (")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [tp.named_with_code, tp.named_with_payload],
                         ids=["os_system", "payload"])
def test_function_named_with_code_still_differentiates(fn, policy):
    check_grad(fn, [0.7], policy=policy)


def test_linecache_filename_is_one_line():
    rule = transform.api.compiled(tp.named_with_payload, ("x",), "loop")
    assert rule.filename.isprintable(), repr(rule.filename)
    assert "\\n" in rule.filename and "\\r" in rule.filename
    import linecache
    assert linecache.getlines(rule.filename) == rule.text.splitlines(True)


@pytest.mark.parametrize("policy", POLICIES)
def test_helper_name_with_code_never_runs(policy):
    check_grad(tp.calls_helper_with_code, [0.9], policy=policy)
    for source in sources(tp.calls_helper_with_code):
        assert_only_quoted(source)


@pytest.mark.parametrize("policy", POLICIES)
def test_lambda_helper(policy):
    check_grad(tp.calls_lambda_helper, [0.9], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [tp.code_in_strings, tp.code_in_loop_over_fstring],
                         ids=lambda f: f.__name__)
def test_code_in_user_strings_stays_quoted(fn, policy):
    value, _ = value_and_grad(fn, policy=policy)(1.1)
    assert value == fn(1.1)
    check_grad(fn, [1.1], policy=policy)
    for source in sources(fn):
        assert_only_quoted(source)


def test_comment_texts_are_one_line():
    tree = gast.parse('t = f"{y}\\nimport os\\n"\n'
                      'for c in f"{n}\\nimport os":\n    pass\n'
                      "u = 'a\\x1bb'\n"
                      'if f"{a}\\nb":\n    x = 1\nelse:\n    x = 2\n')
    texts = comment_texts(tree.body + ["note\nimport os\r\u2028", "plain note"])
    assert texts == ['t = f"""{y}\\nimport os\\n"""',
                     'for c in f"""{n}\\nimport os""":  (iterations in reverse)',
                     "u = 'a\\x1bb'", 'if f"""{a}\\nb""":',
                     "note\\nimport os\\r\\u2028", "plain note"]


def test_single_line_and_identifier():
    assert single_line("a b é") == "a b é"
    assert single_line("a\nb\tc\x00\x1b\x85\u2028") == "a\\nb\\tc\\x00\\x1b\\x85\\u2028"
    assert identifier("<lambda>") == "_lambda_"
    assert identifier("f\nimport os") == "f_import_os"
    assert identifier("") == "fn" and identifier(None) == "fn"
    assert identifier("1x") == "_1x" and identifier("class") == "class_"
    assert identifier("ok_name") == "ok_name"


RENDER_CASES = {
    "branches": """
        def f(x, *, k=None):
            if x > 0:
                y = x
            elif x < -1:
                y = -x
            elif x < -2:
                pass
            elif f"{x}\\n  z":
                for c in f"{x}\\n":
                    y = f"{c}\\n    "
            else:
                if x:
                    y = 0
                else:
                    y = 1
            return y
        """,
    "loops": """
        def f(xs):
            for a, (b, c) in zip(xs, xs):
                while a < 1:
                    a += 1
                else:
                    break
            else:
                a = 2
            for i in range(3):
                continue
            return a
        """,
    "nested_defs_and_strings": """
        @decorated
        def f(x, *args, **kwargs):
            '''doc string
            on two lines'''
            'not a docstring'
            s = f"{x}\\n  indented\\n'__thunkgrad_comment_0__'\\n"
            t = "a\\nb" + 'c'

            def inner(y=1) -> int:
                return y
            z: int = 3
            del t
            return (s, inner)
        """,
}


@pytest.mark.parametrize("name", sorted(RENDER_CASES))
def test_render_without_markers_equals_unparse(name):
    import textwrap
    tree = gast.parse(textwrap.dedent(RENDER_CASES[name]))
    assert render_rule(tree.body[0], []) == gast.unparse(tree)


def test_render_places_comments():
    tree = gast.parse("def f(x):\n    y = x\n    if y:\n        z = y\n    return z\n")
    fn = tree.body[0]
    fn.body.insert(1, marker(0, end=True))
    fn.body[2].body.insert(0, marker(1))
    fn.body.insert(0, marker(2))
    text = render_rule(fn, ["save y", "z = y", "first"])
    assert text == ("def f(x):\n    # first\n    y = x  # save y\n    if y:\n"
                    "        # z = y\n        z = y\n    return z")


SUBPROCESS = """
import sys
sys.path.insert(0, {root!r})
from tests.safety import text_programs as tp
from transform import adjoint_source
for name in {names!r}:
    print(repr(adjoint_source(getattr(tp, name), explain=True)))
"""


def test_comments_deterministic_across_processes():
    names = ["marker_in_loop", "marker_lines_in_fstring", "code_in_loop_over_fstring",
             "calls_helper_with_code"]
    here = [repr(adjoint_source(getattr(tp, n), explain=True)) for n in names]
    assert here == [repr(adjoint_source(getattr(tp, n), explain=True)) for n in names]
    out = subprocess.run([sys.executable, "-c", SUBPROCESS.format(root=str(ROOT), names=names)],
                         capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.splitlines() == here
