"""runtime/registry.py: a template rule given more templates than its signature has
parameters is refused (zip would silently drop the extra ones, and with them the
meaning of every template's position)."""
import pytest

from runtime.registry import defvjp


def scaled(x, k=2.0):
    return k * x


def test_more_templates_than_parameters_is_refused():
    with pytest.raises(ValueError, match="3 templates for 2 parameters"):
        defvjp(scaled, "x, k=2.0", "g * k", "g * x", None)
