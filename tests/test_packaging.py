"""What an installed thunkgrad promises besides gradients: a version, a lazy import, and
public names that load on first use."""
import importlib.metadata
import subprocess
import sys

import pytest

import transform


def test_version_is_the_distribution_version():
    try:
        installed = importlib.metadata.version("thunkgrad")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("thunkgrad is not installed (tests run from a plain source tree)")
    assert transform.__version__ == installed


def test_import_loads_no_compiler_or_rules():
    """Only the layout check runs at import (is `runtime` ours?), and it imports nothing."""
    probe = ("import sys, transform; "
             "print(sorted(m for m in sys.modules if m.startswith(('transform.', 'runtime'))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['transform.layout']"


def test_public_names_load_on_use():
    for name in transform.__all__:
        assert getattr(transform, name) is not None
        assert name in dir(transform)
    from transform.api import grad
    assert transform.grad is grad


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'gradient'"):
        transform.gradient
