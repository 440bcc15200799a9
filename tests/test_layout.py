"""The package's floors (README, Development): imports only point down, and no
module imports itself back through others. Every import counts, those inside
functions and under ``TYPE_CHECKING`` too.

    command line         stawvs_ap.cli.*
    playground           stawvs_ap.playground.*
    service              stawvs_ap.service.*
    bots                 stawvs_ap.bots.*, and beside them the research adapters
                         stawvs_ap.encoding, stawvs_ap.openspiel, stawvs_ap.pettingzoo
    records and replay   stawvs_ap.records.*
    host contract        stawvs_ap.host.*, and beside it
    pictures             stawvs_ap.pictures.* (svg, textboard, their words in messages)
    state input/output   stawvs_ap.state.*
    rules core           stawvs_ap.core.*
    errors, schemas,     stawvs_ap.errors, stawvs_ap.schemas, stawvs_ap.collector
    collector            (leaves every floor may use)
    words                stawvs_ap.i18n (a leaf every floor but the rules core may use)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "stawvs_ap"

FLOORS = {
    "stawvs_ap.errors": 0,
    "stawvs_ap.collector": 0,
    "stawvs_ap.i18n": 0,
    "stawvs_ap.core": 1,
    "stawvs_ap.state": 2,
    "stawvs_ap.host": 3,
    # Pictures of a position: below the command line, so that a game draws itself.
    "stawvs_ap.pictures": 3,
    "stawvs_ap.records": 4,
    "stawvs_ap.bots": 5,
    # The research adapters (the rl extra): the bots' floor, beside them.
    "stawvs_ap.encoding": 5,
    "stawvs_ap.openspiel": 5,
    "stawvs_ap.pettingzoo": 5,
    "stawvs_ap.service": 6,
    "stawvs_ap.playground": 7,
    "stawvs_ap.cli": 8,
    "stawvs_ap.__main__": 9,
    "stawvs_ap.schemas": 0,
    # The root re-exports the public API from the floors below the tools.
    "stawvs_ap": 5,
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def floor(module: str) -> int:
    best = max(
        (name for name in FLOORS if module == name or module.startswith(name + ".")), key=len
    )
    return FLOORS[best]


def imports_of(path: Path, name: str | None = None) -> set[str]:
    """Every stawvs_ap module ``path`` (module ``name``) imports, wherever the
    import stands."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "stawvs_ap")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.split(".")[0] != "stawvs_ap":
                continue
            # "from pkg import module" imports the module itself when there is one.
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*candidate.split("."))).with_suffix(".py")
                is_package = PACKAGE.parent / Path(*candidate.split(".")) / "__init__.py"
                found.add(candidate if is_module.exists() or is_package.exists() else target)
    found.discard(name)
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {name: imports_of(path) for name, path in MODULES.items()}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_nothing_from_a_floor_above_it(module: str) -> None:
    above = sorted(t for t in GRAPH[module] if floor(t) > floor(module))
    assert not above, f"{module} (floor {floor(module)}) imports {above}"


def test_no_module_imports_itself_back() -> None:
    # Tarjan-free: a depth-first search that reports the first cycle it meets.
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(GRAPH.get(module, ())):
            if target not in GRAPH:
                continue
            if state.get(target) == 1:
                cycle = [*path[path.index(target) :], target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)


def test_the_rules_core_knows_no_json_files_garbage_collector_or_wording_modules() -> None:
    for name, path in MODULES.items():
        if not name.startswith("stawvs_ap.core"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            a.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.Import)
            for a in n.names
        } | {
            (n.module or "").split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and not n.level
        }
        forbidden = {"json", "pydantic", "pathlib", "io", "os", "gc", "gettext"}
        assert not imported & forbidden, (name, imported)
        assert not any(t.startswith("stawvs_ap.i18n") for t in GRAPH[name]), name


def test_the_layout_check_sees_a_planted_upward_import(tmp_path: Path) -> None:
    source = (PACKAGE / "core" / "squares.py").read_text(encoding="utf-8")
    planted = tmp_path / "squares.py"
    planted.write_text(
        source + "\n\ndef _late() -> None:\n    from ..host import game  # planted\n",
        encoding="utf-8",
    )
    found = imports_of(planted, "stawvs_ap.core.squares")
    assert "stawvs_ap.host.game" in found
    assert floor("stawvs_ap.host.game") > floor("stawvs_ap.core.squares")
