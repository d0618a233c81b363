"""The product's import graph: no cycle, and `runtime` never imports `transform`."""
import pytest

from .imports import cycles, import_graph, modules


def test_the_graph_is_read():
    graph = import_graph()
    assert "transform.api" in graph and "runtime.registry" in graph
    assert "transform.pipeline" in graph["transform.api"]         # a module-level import
    assert "transform.frontend.check" in graph["transform.public.parameters"]  # a local one


def test_no_import_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles (module level or inside functions):\n" + \
        "\n".join(" <-> ".join(c) for c in found)


def test_the_cycle_detector_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_runtime_never_imports_transform():
    graph = import_graph()
    bad = sorted(f"{m} -> {t}" for m in graph if m.startswith("runtime")
                 for t in graph[m] if t.startswith("transform"))
    assert not bad, bad


def test_every_module_is_in_a_listed_package():
    """pyproject.toml lists the packages a wheel ships: a new subpackage must be listed."""
    tomllib = pytest.importorskip("tomllib")          # Python 3.11+
    from .imports import ROOT
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    packages = {name.rpartition(".")[0] if not path.name == "__init__.py" else name
                for name, path in modules().items()}
    assert packages <= listed, sorted(packages - listed)
