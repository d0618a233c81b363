"""Issue 18: an error raised inside generated code names the user's line, and the
generated frames' text shows on Python's default excepthook (as notes)."""
import subprocess
import sys
import textwrap
import traceback

import numpy as np
import pytest

import transform


def model(W, x):
    h = np.tanh(W @ x)
    return np.sum(h * h)


def root_sum(x):
    y = np.sqrt(x)
    return np.sum(y)


def line_of(fn, text):
    """The line in this file of fn's source line containing `text`."""
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if text in line)


def notes(exc):
    return "\n".join(getattr(exc, "__notes__", []))


def test_a_shape_mismatch_in_the_forward_names_the_users_line():
    with pytest.raises(ValueError) as info:
        transform.grad(model)(np.ones((3, 4)), np.ones(3))
    text = notes(info.value)
    assert f"from {__file__}, line {line_of(model, 'W @ x')}:" in text
    assert "h = np.tanh(W @ x)" in text and "in code generated for model" in text


@pytest.mark.parametrize("entry", ["grad", "value_and_grad", "vjp"])
def test_a_floating_point_error_in_the_pullback_names_the_users_line(entry):
    x = np.array([0.0, 1.0])
    with np.errstate(all="raise"), pytest.raises(FloatingPointError) as info:
        if entry == "vjp":
            transform.vjp(root_sum, x)[1](1.0)
        else:
            getattr(transform, entry)(root_sum)(x)
    assert f"from {__file__}, line {line_of(root_sum, 'np.sqrt')}:" in notes(info.value)


def test_the_note_is_added_once():
    gradient = transform.grad(model)
    with pytest.raises(ValueError) as info:
        gradient(np.ones((3, 4)), np.ones(3))
    assert len(info.value.__notes__) == 1


def test_generated_frames_have_their_text_in_linecache():
    with pytest.raises(ValueError) as info:
        transform.grad(model)(np.ones((3, 4)), np.ones(3))
    frames = traceback.extract_tb(info.value.__traceback__)
    generated = [f for f in frames if f.filename.startswith("<thunkgrad ")]
    assert generated and all(f.line for f in generated)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="Python 3.10's default hook does not "
                    "print exception notes (PEP 678 is 3.11)")
def test_the_default_excepthook_shows_the_generated_and_the_users_line(tmp_path):
    (tmp_path / "user_model.py").write_text(textwrap.dedent("""\
        import numpy as np


        def model(W, x):
            h = np.tanh(W @ x)
            return np.sum(h * h)
        """))
    script = "import numpy as np, transform, user_model\n" \
             "transform.grad(user_model.model)(np.ones((3, 4)), np.ones(3))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 1
    assert "in code generated for model" in proc.stderr
    assert "user_model.py, line 5:" in proc.stderr
    assert proc.stderr.count("h = np.tanh(W @ x)") >= 2     # generated and user's line
