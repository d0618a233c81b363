"""Every ```python block of README.md runs as pasted: each is saved as its own file (thunkgrad
reads source, so a newcomer runs it from a file too) and run by a fresh interpreter in an
empty directory, with nothing defined beforehand."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def python_blocks():
    """(first line number, source) of each ```python block."""
    text = README.read_text()
    return [(text.count("\n", 0, m.start()) + 2, m.group(1))
            for m in PYTHON_BLOCK.finditer(text)]


def test_readme_has_python_blocks():
    assert len(python_blocks()) >= 5


@pytest.mark.parametrize("line, source", python_blocks(),
                         ids=[f"line{line}" for line, _ in python_blocks()])
def test_block_runs_as_pasted(tmp_path, line, source):
    (tmp_path / "block.py").write_text(source)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}        # this checkout's thunkgrad
    result = subprocess.run([sys.executable, "block.py"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"README.md line {line}:\n{source}\n{result.stderr}"
