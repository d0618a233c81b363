"""User objects whose names the generated code could capture or paste:
a module-level `range`, an `np` that is not NumPy, lambda helpers, helpers whose
__name__ / __qualname__ is not an identifier."""
import tempfile

import pytest

from tests.fd import numerical_grad
from tests.gradcheck import POLICIES, assert_close
from transform import adjoint_source, value_and_grad

from .names_programs import load
from .test_names import check_value_and_grad

_DIR = tempfile.mkdtemp(prefix="thunkgrad_name_sources_")

USER_RANGE = '''
import numpy


def range(n):
    return [0]                        # not the builtin: a while loop must not replay with it


def f(x):
    y = x
    i = 0
    while i < 3:
        y = y * numpy.sin(y) + x
        i = i + 1
    for j in range(4):                # the user's range: one iteration
        y = y * x
    return y
'''

NP_CLASS = '''
import numpy


class _Np:
    @staticmethod
    def sin(v):
        return v * v                  # `np.sin` here is not NumPy's


np = _Np()


def f(x):
    return np.sin(x) + numpy.cos(x) * np.sin(x)
'''

NP_MATH = '''
import math as np
import numpy


def f(x):
    return np.sin(x) * numpy.tanh(x) + np.exp(x)
'''

LAMBDA_HELPER = '''
import numpy

sq = lambda v: v * v                   # noqa: E731
cube = lambda v: v * sq(v)             # noqa: E731


def f(x):
    y = sq(x) + 1.0
    for k in range(2):
        y = y + cube(y) * 0.1
    return y
'''

KEYWORDS = '''
import numpy


def f(x, *, pop=0.5, tape=0.25):
    y = x
    for i in range(3):
        y = y * pop + numpy.sin(y) * tape
    return y
'''

CLOSURE = '''
import numpy


def make():
    unbroadcast = 3.0                  # free variables named like helpers
    np = numpy

    def f(x):
        s = np.sin(x) * unbroadcast
        for i in range(2):
            s = s * np.tanh(s)
        return s
    return f


f = make()
'''

ODD_NAMES = '''
import numpy


def helper(v):
    return v * numpy.sin(v)


def other(v):
    return v * v


helper.__name__ = {name!r}
helper.__qualname__ = {qualname!r}
other.__name__ = "_rrule"


def f(x):
    y = helper(x) + other(x)
    for k in range(2):
        y = y + helper(y) * 0.1
    return y
'''


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("source", [USER_RANGE, NP_CLASS, NP_MATH, LAMBDA_HELPER, KEYWORDS,
                                    CLOSURE],
                         ids=["def_range", "np_class", "import_math_as_np", "lambda_helper",
                              "keyword_only", "closure"])
def test_user_bindings_of_vocabulary_names(source, policy):
    module = load(source, _DIR, "bindings")
    check_value_and_grad(module.f, (0.7,), policy)


def test_generated_code_keeps_its_own_range_and_numpy():
    module = load(USER_RANGE, _DIR, "range_dump")
    source = adjoint_source(module.f)
    assert "range_1(" in source                # the compiler's range, beside the user's
    module = load(NP_CLASS, _DIR, "np_dump")
    source = adjoint_source(module.f)
    assert "np_1." in source and "np.sin(x)" in source


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", ["x; import os", "a\nimport os", "<lambda>", "def",
                                  "helper rrule", "x)\n__import__('os')#"])
def test_a_callee_name_is_never_pasted_unquoted(name, policy):
    module = load(ODD_NAMES.format(name=name, qualname="helper"), _DIR, "odd")
    check_value_and_grad(module.f, (0.7,), policy)
    source = adjoint_source(module.f, policy=policy)
    assert "import" not in source and "<lambda>" not in source
    compile(source, "<check>", "exec")


def test_a_lambda_helper_rule_is_named_after_its_binding():
    module = load(LAMBDA_HELPER, _DIR, "lambda_dump")
    assert "sq_rrule(" in adjoint_source(module.f)


def test_a_callee_qualname_is_never_pasted_unquoted():
    module = load(ODD_NAMES.format(name="helper", qualname="a\nimport os"), _DIR, "odd_q")
    check_value_and_grad(module.f, (0.7,), "loop")


@pytest.mark.parametrize("policy", POLICIES)
def test_keyword_parameters_keep_the_users_names(policy):
    """Callers pass keywords: the adjoint's signature is the user's, `pop` and `tape`
    included, and the compiler's own pop and tape move aside."""
    module = load(KEYWORDS, _DIR, "keywords")
    value, (dx,) = value_and_grad(module.f, wrt=(0,), policy=policy)(1.3, pop=0.4, tape=0.3)
    assert_close(value, module.f(1.3, pop=0.4, tape=0.3), rtol=1e-12, atol=0)
    assert_close(dx, numerical_grad(lambda x: module.f(x, pop=0.4, tape=0.3), [1.3], 0),
                 rtol=1e-5, atol=1e-7)
