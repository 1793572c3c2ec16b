"""The package layout is the map (ARCHITECTURE.md): no import circles, the oracle stays an oracle,
the trick rules exist once in Python.

Read from the source with ``ast``, so a function-level import counts like any other: a circle
broken by importing inside a function is still a circle. Imports under ``if TYPE_CHECKING:`` are
left out: they never run, they only name types for annotations.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pyanalyzer

PACKAGE = Path(pyanalyzer.__file__).resolve().parent


def module_files() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["pyanalyzer", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The pyanalyzer modules ``name`` imports anywhere in its source. The packages above an
    imported module count too (importing ``a.b`` runs ``a/__init__``), except those above ``name``
    itself, which Python has always begun to import before ``name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    own_packages = {".".join(name.split(".")[:k]) for k in range(1, name.count(".") + 1)}
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_checking_only = {id(inner) for node in ast.walk(tree)
                          if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
                          for statement in node.body for inner in ast.walk(statement)}
    for node in ast.walk(tree):
        if id(node) in type_checking_only:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            while target and target not in own_packages:
                found.add(target)
                target = target.rpartition(".")[0]
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_is_read_from_the_source():
    graph = import_graph()
    assert "pyanalyzer.model.layout" in graph["pyanalyzer.model.layout_io"]
    assert "pyanalyzer.engines.reference" in graph["pyanalyzer.engines.registry"]


def test_no_import_circles():
    assert cycles(import_graph()) == []


def test_only_the_engines_registry_imports_the_reference_solver():
    importers = sorted(name for name, targets in import_graph().items()
                       if "pyanalyzer.engines.reference" in targets)
    assert importers == ["pyanalyzer.engines.registry"]


def test_the_model_depends_on_nothing_above_it():
    """The model (cards, rules, layouts, the position) imports only the model and the errors."""
    for name, targets in import_graph().items():
        if name.startswith("pyanalyzer.model"):
            above = {t for t in targets if not t.startswith("pyanalyzer.model") and t != "pyanalyzer.errors"}
            assert not above, (name, above)


def test_the_trick_rules_are_written_once_in_python():
    """Deciding a trick's winner or the legal cards is done in model/play.py only: anything else
    with such a function delegates to it (names TrickRules)."""
    rule_functions = {"trick_winner", "legal_moves", "legal_cards", "beats"}
    for name, path in module_files().items():
        if name == "pyanalyzer.model.play":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in rule_functions:
                names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                names |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
                assert names & {"TrickRules", "trick_rules", "play_rules"}, (name, node.name)


def test_every_package_is_installed():
    """pyproject.toml lists the packages to install: a package folder left out of the list works
    from the checkout and is missing from every installed copy."""
    import pytest

    tomllib = pytest.importorskip("tomllib")  # (Python 3.11+)
    checkout = Path(__file__).resolve().parent.parent  # the sources, not the installed copy
    pyproject = tomllib.loads((checkout / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    folders = {".".join(["pyanalyzer", *init.parent.relative_to(checkout / "pyanalyzer").parts])
               for init in (checkout / "pyanalyzer").rglob("__init__.py")}
    assert folders <= listed, sorted(folders - listed)
    assert "pref_engine" in listed


#: The stages of the pipeline (ARCHITECTURE.md): a module imports only its own stage and those
#: below. ``render`` draws from the model alone, so the analyzers (puzzle sheets) may use it.
STAGES = {"errors": 0, "model": 0, "engines": 1, "render": 1, "analysis": 2, "preferans": 2, "whist": 2,
          "scoring": 2, "thousand": 2, "web": 3, "cli": 4, "__main__": 5}


def test_each_stage_imports_only_the_stages_below_it():
    def stage(module: str) -> int | None:
        parts = module.split(".")
        return STAGES[parts[1]] if len(parts) > 1 else None

    upward = [(name, target) for name, targets in import_graph().items() if stage(name) is not None
              for target in targets if stage(target) is not None and stage(target) > stage(name)]
    assert upward == []
    assert set(STAGES) == {module.split(".")[1] for module in module_files() if "." in module}
