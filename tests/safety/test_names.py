"""Generated names cannot collide with user names (name capture).

Every name the generated code uses that the user did not write (the runtime's
helpers, NumPy as templates use it, loop builtins, the compiler's locals, adjoints,
temporaries, rule globals, callee pullbacks) is tried as a parameter, a local, a
loop-carried local, a module global the function reads, the name of a helper it
calls, and a local of a nested def, under every policy: the value must be the
primal's and the gradient the finite differences'. The vocabulary is read from the
product (the compiler's vocabulary and the names in generated source), not listed
by hand.
"""
import ast
import re
import tempfile

import numpy as np
import pytest

from tests.fd import numerical_grad
from tests.gradcheck import POLICIES, assert_close
from transform import adjoint_source, value_and_grad
from transform.ir.vocabulary import LOCAL_ROLES, vocabulary_objects

from .names_programs import POSITIONS, USER_NAMES, arguments, load, program

_DIR = tempfile.mkdtemp(prefix="thunkgrad_names_")
CHUNKS = 8           # names per program: len(VOCABULARY) / CHUNKS, all in one position


def _generated_names(source):
    """Every identifier a generated source binds or reads."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, ast.FunctionDef):
            found.add(node.name)
    return found


def _vocabulary():
    names = set(vocabulary_objects()) | set(LOCAL_ROLES)
    for position in POSITIONS:
        module = load(program(position, ["z_"]), _DIR, "baseline")
        wrt = tuple(range(len(arguments(position, ["z_"]))))
        for policy in POLICIES:
            names |= _generated_names(adjoint_source(module.f, wrt=wrt, policy=policy))
    names = {n for n in names - USER_NAMES if "z_" not in n}
    return sorted(n for n in names if not _late_in_family(n))


def _late_in_family(name):
    """t4, dt17, n3: numbered names past the third come from the same counter as t1."""
    match = re.fullmatch(r"(\D+?)(\d+)", name)
    return match is not None and int(match.group(2)) > 3


VOCABULARY = _vocabulary()


def check_value_and_grad(f, args, policy):
    """value_and_grad under `policy` against the primal and central differences."""
    wrt = tuple(range(len(args)))
    value, grads = value_and_grad(f, wrt=wrt, policy=policy)(*args)
    assert_close(value, f(*args), rtol=1e-12, atol=0)
    for k, g in zip(wrt, grads):
        assert_close(g, numerical_grad(f, args, k), rtol=1e-5, atol=1e-7)


def test_vocabulary_is_read_from_the_product():
    for name in ("tape", "pop", "pullback", "np", "math", "unbroadcast", "unreduce", "accum",
                 "own", "lookup", "part", "iterable", "popped", "shape_only", "unthunk",
                 "Thunk", "range", "reversed", "dw", "dx", "t1", "helper_rrule"):
        assert name in VOCABULARY, name
    assert any(name.endswith("_pullback") for name in VOCABULARY)


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_vocabulary_names_in_every_position(position, chunk):
    names = VOCABULARY[chunk::CHUNKS]
    module = load(program(position, names), _DIR, f"{position}_{chunk}")
    for policy in POLICIES:
        check_value_and_grad(module.f, arguments(position, names), policy)


@pytest.mark.parametrize("name", ["tape", "pop", "pullback", "reversed", "_", "range",
                                  "np", "unbroadcast", "t1_pullback"])
@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_one_name_in_one_position(position, name):
    """The names that crashed or changed results before, alone (a readable failure)."""
    module = load(program(position, [name]), _DIR, f"{position}_one")
    check_value_and_grad(module.f, arguments(position, [name]), "loop")


def test_a_user_name_gets_its_own_binding_in_the_dump():
    """The compiler's tape moves aside; the user's `tape` stays the user's."""
    module = load(program("local", ["tape"]), _DIR, "dump")
    source = adjoint_source(module.f, wrt=(0, 1))
    assert "tape_1 = []" in source and "tape_1.append(" in source
    assert "tape = w * 2.0" in source


def test_ordinary_dump_uses_the_plain_vocabulary():
    module = load(program("local", ["z_"]), _DIR, "plain")
    source = adjoint_source(module.f, wrt=(0, 1))
    for text in ("tape = []", "pop = tape_reader(tape)", "def pullback(", "np.cos(x)"):
        assert text in source, text
    assert "_1" not in source
