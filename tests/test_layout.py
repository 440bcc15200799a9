"""The package's floors (docs/DEVELOPMENT.md, Floors): imports only point down,
and no module imports itself back through others. Every import counts, those
inside functions and under ``TYPE_CHECKING`` too, but one kind: a picture drawn
on demand (``_repr_svg_``, ``__str__``) imports the pictures inside that method,
as python-chess's ``Board._repr_svg_`` imports ``chess.svg``. Each floor has its
own rank (its place in :data:`ORDER`), from the top:

    python -m stawvs_ap  stawvs_ap.__main__
    command line         stawvs_ap.cli.*
    playground           stawvs_ap.playground.*
    Abstract Play bot    stawvs_ap.apbot.* (using the service)
    service              stawvs_ap.service.*
    research adapters    stawvs_ap.pettingzoo, then stawvs_ap.openspiel, then
                         stawvs_ap.encoding (what both share), three ranks
    pictures             stawvs_ap.pictures.* (svg, textboard, their words in messages)
    package root         stawvs_ap (re-exports the public API of the floors below)
    bots                 stawvs_ap.bots.*
    records and replay   stawvs_ap.records.*
    host contract        stawvs_ap.host.*
    state input/output   stawvs_ap.state.*
    rules core           stawvs_ap.core.*
    leaves               stawvs_ap.schemas, stawvs_ap.i18n (never imported by the
                         rules core), stawvs_ap.version and, at the bottom,
                         stawvs_ap.errors: a rank each
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "stawvs_ap"

#: The floors from the bottom up: each one's rank is its place in the list.
ORDER = (
    "stawvs_ap.errors",
    "stawvs_ap.version",
    "stawvs_ap.i18n",
    "stawvs_ap.schemas",
    "stawvs_ap.core",
    "stawvs_ap.state",
    "stawvs_ap.host",
    "stawvs_ap.records",
    "stawvs_ap.bots",
    # The root re-exports the public API: the game, records, the solver and the
    # review, and what is below (the version is a leaf of its own, which the
    # bots read).
    "stawvs_ap",
    # Pictures above every floor that has no need of them, so that nothing below
    # imports them but a picture asked for (drawn on demand); they draw a game,
    # and know it and the core only.
    "stawvs_ap.pictures",
    # The research adapters (the rl extra): the action numbers and planes both
    # share, then each library's; they draw the text board and pictures.
    "stawvs_ap.encoding",
    "stawvs_ap.openspiel",
    "stawvs_ap.pettingzoo",
    "stawvs_ap.service",
    # The Abstract Play bot: a door above the service, using it.
    "stawvs_ap.apbot",
    "stawvs_ap.playground",
    "stawvs_ap.cli",
    "stawvs_ap.__main__",
)
FLOORS = {name: rank for rank, name in enumerate(ORDER)}
#: The methods that draw on demand, and what they may import from above.
DRAWN_ON_DEMAND = frozenset({"_repr_svg_", "__str__"})
PICTURES = "stawvs_ap.pictures"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def floor(module: str) -> int:
    best = max(
        (name for name in FLOORS if module == name or module.startswith(name + ".")), key=len
    )
    return FLOORS[best]


def _drawing_imports(tree: ast.AST) -> set[int]:
    """The ids of the import nodes inside a method that draws on demand."""
    return {
        id(node)
        for method in ast.walk(tree)
        if isinstance(method, ast.FunctionDef) and method.name in DRAWN_ON_DEMAND
        for node in ast.walk(method)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def _targets(node: ast.Import | ast.ImportFrom, package: str) -> set[str]:
    """The stawvs_ap modules one import statement imports (in package ``package``)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name.split(".")[0] == "stawvs_ap"}
    if node.level:
        base = package.split(".")
        base = base[: len(base) - node.level + 1]
        target = ".".join([*base, *([node.module] if node.module else [])])
    else:
        target = node.module or ""
    if target.split(".")[0] != "stawvs_ap":
        return set()
    found = set()
    # "from pkg import module" imports the module itself when there is one.
    for alias in node.names:
        candidate = f"{target}.{alias.name}"
        is_module = (PACKAGE.parent / Path(*candidate.split("."))).with_suffix(".py")
        is_package = PACKAGE.parent / Path(*candidate.split(".")) / "__init__.py"
        found.add(candidate if is_module.exists() or is_package.exists() else target)
    return found


def _is_pictures(module: str) -> bool:
    return module == PICTURES or module.startswith(PICTURES + ".")


def imports_of(path: Path, name: str | None = None, *, on_demand: bool = True) -> set[str]:
    """Every stawvs_ap module ``path`` (module ``name``) imports, wherever the
    import stands; with ``on_demand=False``, leaving out the pictures that a
    method drawing on demand (``_repr_svg_``, ``__str__``) imports inside itself."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    drawing = set() if on_demand else _drawing_imports(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            targets = _targets(node, package)
            if id(node) in drawing:
                targets = {t for t in targets if not _is_pictures(t)}
            found |= targets
    found.discard(name)
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
#: What each module imports, but for the pictures drawn on demand.
GRAPH = {name: imports_of(path, on_demand=False) for name, path in MODULES.items()}


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


def test_every_floor_has_a_rank_of_its_own() -> None:
    assert len(set(FLOORS.values())) == len(FLOORS)
    assert floor("stawvs_ap.host.game") < floor("stawvs_ap.pictures.svg")
    assert floor("stawvs_ap.bots.mcts") < floor("stawvs_ap.pictures.svg")
    assert floor("stawvs_ap.records.replay") < floor("stawvs_ap.pictures.textboard")


def beyond_what_pictures_know(imported: set[str]) -> list[str]:
    """What a picture module imports beyond the rules, the errors, the words and
    the game it draws."""
    return sorted(
        t
        for t in imported
        if not _is_pictures(t)
        and t != "stawvs_ap.host.game"
        and t.split(".")[1] not in {"core", "errors", "i18n"}
    )


def test_the_pictures_know_the_game_and_the_rules_but_no_words_of_another_floor() -> None:
    # The text board once took its players' names from host.messages, an arrow
    # sideways when host and pictures shared a floor: the pictures word what they
    # draw with their own messages and the translation layer's.
    for name in MODULES:
        if _is_pictures(name):
            assert not beyond_what_pictures_know(GRAPH[name]), name


def test_below_the_pictures_only_a_picture_asked_for_imports_them() -> None:
    lazy = {
        name: sorted(t for t in imports_of(path) if _is_pictures(t))
        for name, path in MODULES.items()
        if floor(name) < floor(PICTURES)
    }
    lazy = {name: found for name, found in lazy.items() if found}
    # The game's print and notebook picture, and a position's notebook picture.
    assert lazy == {
        "stawvs_ap.core.position": ["stawvs_ap.pictures.svg"],
        "stawvs_ap.host.game": ["stawvs_ap.pictures.svg", "stawvs_ap.pictures.textboard"],
    }


@pytest.mark.slow
def test_making_and_playing_a_game_imports_no_picture() -> None:
    code = (
        "import sys\n"
        "from stawvs_ap import StawvsGame\n"
        "game = StawvsGame(2, seed=1)\n"
        "game.move(game.moves()[0])\n"
        "game.render(); game.serialize(); game.validate_move('a1')\n"
        "assert not [m for m in sys.modules if m.startswith('stawvs_ap.pictures')]\n"
        "assert str(game).startswith('8 ') and game._repr_svg_().startswith('<svg')\n"
        "assert game.position._repr_svg_().startswith('<svg')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_layout_check_sees_the_old_tangle_of_host_and_pictures(tmp_path: Path) -> None:
    # The game importing its pictures when it is imported, and the text board
    # reading the host's words: both were there when host and pictures shared a floor.
    game = (PACKAGE / "host" / "game.py").read_text(encoding="utf-8")
    planted = tmp_path / "game.py"
    planted.write_text("from ..pictures.svg import board_svg  # planted\n" + game, "utf-8")
    found = imports_of(planted, "stawvs_ap.host.game", on_demand=False)
    assert [t for t in found if floor(t) > floor("stawvs_ap.host.game")] == [
        "stawvs_ap.pictures.svg"
    ]
    board = (PACKAGE / "pictures" / "textboard.py").read_text(encoding="utf-8")
    planted = tmp_path / "textboard.py"
    planted.write_text("from ..host.messages import SCORES  # planted\n" + board, "utf-8")
    found = imports_of(planted, "stawvs_ap.pictures.textboard", on_demand=False)
    assert beyond_what_pictures_know(found) == ["stawvs_ap.host.messages"]


#: What ``import stawvs_ap`` may load: the engine's floors and the leaves they use.
ENGINE = ("stawvs_ap.core", "stawvs_ap.state", "stawvs_ap.host", "stawvs_ap.records")
LEAVES = ("stawvs_ap.errors", "stawvs_ap.version", "stawvs_ap.i18n")


def loaded_by(code: str) -> list[str]:
    """The package's modules a fresh interpreter has loaded after running ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys\nprint(*sorted(sys.modules))"],
        cwd=PACKAGE.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [name for name in done.stdout.split() if name.split(".")[0] == "stawvs_ap"]


@pytest.mark.slow
def test_importing_the_package_loads_the_engine_alone() -> None:
    loaded = loaded_by("import stawvs_ap")
    beyond = [
        name for name in loaded if name != "stawvs_ap" and not name.startswith(ENGINE + LEAVES)
    ]
    assert beyond == []
    assert "stawvs_ap.host.game" in loaded


@pytest.mark.slow
def test_the_solver_and_the_review_load_when_first_asked_for() -> None:
    loaded = loaded_by(
        "import stawvs_ap\n"
        "assert 'solve' in dir(stawvs_ap) and 'Review' in stawvs_ap.__all__\n"
        "from stawvs_ap import solve, Solution\n"
        "assert solve(stawvs_ap.StawvsGame(2, seed=1), nodes=1).__class__ is Solution\n"
        "assert stawvs_ap.review.__module__ == 'stawvs_ap.bots.review'\n"
        "try:\n"
        "    stawvs_ap.no_such_name\n"
        "except AttributeError as error:\n"
        "    assert 'no_such_name' in str(error)\n"
        "else:\n"
        "    raise AssertionError('an unknown name was found')\n"
    )
    assert "stawvs_ap.bots.solver" in loaded and "stawvs_ap.bots.review" in loaded
