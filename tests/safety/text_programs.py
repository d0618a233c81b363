"""Functions whose strings, names or helpers carry text that once reached the generated
source unquoted: the compiler's old comment-marker texts, and code after a newline
(tests/safety/test_generated_text.py)."""
import numpy as np

# The marker texts the compiler used to rewrite by a regex over the generated source.
OLD_MARKERS = ("__thunkgrad_comment_0__", "__thunkgrad_comment_1__", "__thunkgrad_eol_0__")
# A statement that, if it ever ran, leaves a mark (the tests check it never does).
PAYLOAD = "import builtins; builtins.THUNKGRAD_PWNED = True"
NAME_WITH_CODE = "f\nimport os; os.system('echo pwned')"


def marker_string_constant(x):
    s = "__thunkgrad_comment_0__"
    y = x * x
    return y + len(s)


def marker_lines_in_fstring(x):
    y = x * 3.0
    s = f"{y:.2f}\n'__thunkgrad_comment_0__'\n'__thunkgrad_eol_0__'\n"
    return y * len(s)


def marker_fstring_indented(x):
    y = np.sin(x)
    s = f"{x:.2f}\n    '__thunkgrad_comment_1__'\n\"\"\"__thunkgrad_comment_0__\"\"\"\n"
    return y * len(s)


def marker_docstring(x):
    "__thunkgrad_comment_0__"
    y = np.sin(x)
    return y * 2.0


def marker_string_statement(x):
    y = x * 3.0
    "__thunkgrad_eol_0__"
    '__thunkgrad_comment_0__'
    return y * x


def marker_in_loop(x):
    s = 0.0
    for k in range(3):
        t = f"{k}\n'__thunkgrad_comment_0__'\n"
        s = s + x * len(t)
    return s


def code_in_strings(x):
    s = "a\nimport builtins; builtins.THUNKGRAD_PWNED = True"
    y = x * 2.0
    t = f"{y:.2f}\nimport builtins; builtins.THUNKGRAD_PWNED = True\n"
    return y + len(s) * x + len(t)


def code_in_loop_over_fstring(x):
    s = 0.0
    n = 3
    for c in f"{n}\nimport builtins; builtins.THUNKGRAD_PWNED = True\n":
        s = s + x * 0.5
    return s


def named_with_code(x):
    y = x * x
    return np.sin(y) * 2.0


named_with_code.__qualname__ = NAME_WITH_CODE
named_with_code.__name__ = NAME_WITH_CODE


def named_with_payload(x):
    y = x * 3.0
    return y * x


named_with_payload.__qualname__ = "g\n" + PAYLOAD + "\r\x1b[2J\u2028\n"
named_with_payload.__name__ = named_with_payload.__qualname__


def helper_with_code(v):
    return v * v + 1.0


# A helper's __name__ became part of a generated global name, pasted as is.
helper_with_code.__name__ = "__import__('builtins').__setattr__('THUNKGRAD_PWNED', True) or h"


def calls_helper_with_code(x):
    y = helper_with_code(x)
    return y * 2.0


square = lambda v: v * v         # noqa: E731  (its __name__ is '<lambda>')


def calls_lambda_helper(x):
    return square(x) + 1.0
