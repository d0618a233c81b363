"""The product's import graph: no cycle, and `runtime` never imports `transform`."""
import pytest

from .imports import cycles, import_graph, modules


def test_the_graph_is_read():
    graph = import_graph()
    assert "transform.api" in graph and "runtime.registry" in graph
    assert "transform.pipeline" in graph["transform.api"]         # a module-level import
    assert "transform.frontend.parse" in graph["transform.lowering.sequence_kinds"]  # a local one


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


# transform's phase packages, earliest first; the front end and the alias check are
# both stage 2's. The public face (transform/ itself, transform/public) comes last.
STAGE_ORDER = {"ir": 0, "frontend": 1, "alias": 1, "lowering": 3, "analysis": 5,
               "reverse": 6, "optimize": 7, "emit": 8}
# imports from a stage up to the public face's helpers (docs/architecture.md says why)
SIDEWAYS = {("transform.emit.emit", "transform.public.cache"),
            ("transform.analysis.shapes", "transform.public.boundary")}


def _rank(module):
    parts = module.split(".")
    if parts[0] != "transform":
        return -1                                   # runtime: below everything
    return STAGE_ORDER.get(parts[1], len(STAGE_ORDER) + 1) if len(parts) > 2 else 99


def test_stages_import_only_earlier_stages():
    graph = import_graph()
    late = sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                  if m.startswith("transform.") and _rank(t) > _rank(m)
                  and (m, t) not in SIDEWAYS and not t == "transform.errors")
    assert not late, late
