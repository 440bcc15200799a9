"""The installed package: how a host finds the game, what ships, what versions it records.

These tests need the project installed (``pip install -e .``), as CI does.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.resources
import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

import stawvs_ap
from stawvs_ap import StawvsError, StawvsGame, schemas

ROOT = Path(__file__).resolve().parent.parent


def test_the_entry_point_resolves_to_the_game_class() -> None:
    found = {ep.name: ep for ep in importlib.metadata.entry_points(group="abstractplay.games")}
    assert "stawvs" in found, "reinstall the project: pip install -e ."
    assert found["stawvs"].value == "stawvs_ap:StawvsGame"
    assert found["stawvs"].load() is StawvsGame


def test_the_distribution_is_stawvs_ap() -> None:
    distribution = importlib.metadata.distribution("stawvs-ap")
    assert distribution.metadata["Name"] == "stawvs-ap"
    assert distribution.version == stawvs_ap.__version__


def test_py_typed_ships_with_the_package() -> None:
    assert importlib.resources.files("stawvs_ap").joinpath("py.typed").is_file()


def test_the_schemas_ship_with_the_package() -> None:
    # Read from the checkout's schemas/ here; tests/test_installed.py reads them from
    # the wheel's stawvs_ap/schema_files/.
    for name, file in schemas.FILES.items():
        assert json.loads(schemas.text(name))["$id"].endswith(file.split(".")[0]), file


def test_the_wheel_lists_every_package_of_the_source_tree() -> None:
    # pyproject.toml names the packages (the schemas' data package is mapped from
    # schemas/): a new subpackage left out of the list would be missing from the wheel.
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
            "packages"
        ]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "stawvs_ap").rglob("__init__.py")
    }
    assert listed == found | {"stawvs_ap.schema_files"}


def _type_checking_only(node: ast.AST) -> bool:
    """An ``if TYPE_CHECKING:`` block: its imports never run."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


#: The modules that need the web extra (and the Abstract Play bot's, which also
#: needs the ap-bot extra); nothing else imports them.
WEB_MODULES = (
    "service/http.py",
    "service/webserver.py",
    "playground/*.py",
    "cli/webcli.py",
    "cli/apbotcli.py",
    "apbot/*.py",
)
AP_BOT_MODULES = ("apbot/*.py",)
#: The modules that need the rl extra (the research adapters); nothing else imports them.
RL_MODULES = ("encoding.py", "openspiel.py", "pettingzoo.py")


def _imported_top_level_modules(
    package: Path, *, web: bool = False, rl: bool = False, only: tuple[str, ...] = ()
) -> set[str]:
    """The top-level modules the package's code imports at run time (with
    ``web`` or ``rl``, the code of that extra's modules only; with ``only``, the
    code of the modules these patterns match)."""
    found: set[str] = set()
    web_files = {p for pattern in only or WEB_MODULES for p in package.glob(pattern)}
    web = web or bool(only)
    rl_files = {p for pattern in RL_MODULES for p in package.glob(pattern)}
    for path in package.rglob("*.py"):
        if (path in web_files) != web or (path in rl_files) != rl:
            continue
        todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
            if _type_checking_only(node):
                assert isinstance(node, ast.If)
                todo.extend(node.orelse)
            else:
                todo.extend(ast.iter_child_nodes(node))
    return found


def _requirement_name(requirement: str) -> str:
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


@pytest.mark.slow
def test_the_run_time_dependencies_are_exactly_what_the_package_imports() -> None:
    package = Path(str(importlib.resources.files("stawvs_ap")))
    third_party = {
        module
        for module in _imported_top_level_modules(package)
        if module not in sys.stdlib_module_names and module != "stawvs_ap"
    }
    distributions = importlib.metadata.packages_distributions()
    imported = {_requirement_name(d) for m in third_party for d in distributions.get(m, [m])}
    requires = importlib.metadata.requires("stawvs-ap") or []
    declared = {_requirement_name(r) for r in requires if "extra ==" not in r}
    assert declared == imported == {"pydantic", "pydantic-core"}


def test_the_web_extra_is_what_the_web_modules_import_beyond_the_rest() -> None:
    package = Path(str(importlib.resources.files("stawvs_ap")))
    third_party = {
        module
        for module in _imported_top_level_modules(package, web=True)
        if module not in sys.stdlib_module_names and module != "stawvs_ap"
    }
    requires = importlib.metadata.requires("stawvs-ap") or []
    web = {_requirement_name(r) for r in requires if 'extra == "web"' in r}
    # anyio comes with Starlette (its own dependency), which the web modules build on;
    # cryptography is the ap-bot extra's (the test below).
    assert web == {"starlette", "uvicorn"}
    assert third_party - {"cryptography"} == web | {"anyio"}


def test_the_ap_bot_extra_is_the_web_extra_and_what_the_bot_imports_beyond_it() -> None:
    package = Path(str(importlib.resources.files("stawvs_ap")))
    third_party = {
        module
        for module in _imported_top_level_modules(package, only=AP_BOT_MODULES)
        if module not in sys.stdlib_module_names and module != "stawvs_ap"
    }
    with (ROOT / "pyproject.toml").open("rb") as fh:
        extras = tomllib.load(fh)["project"]["optional-dependencies"]
    declared = {_requirement_name(r) for r in extras["ap-bot"]}
    assert declared == {"stawvs-ap", "cryptography"}
    assert "stawvs-ap[web]" in extras["ap-bot"]
    assert third_party == {"cryptography", "starlette", "anyio"}
    assert "stawvs-ap[ap-bot]" in extras["test"]  # so that CI runs the bot's tests


def test_the_rl_extra_is_what_the_research_adapters_import() -> None:
    package = Path(str(importlib.resources.files("stawvs_ap")))
    third_party = {
        module
        for module in _imported_top_level_modules(package, rl=True)
        if module not in sys.stdlib_module_names and module != "stawvs_ap"
    }
    # Read from pyproject.toml: an editable install's metadata may predate the extra.
    project = tomllib.loads((package.parent / "pyproject.toml").read_text(encoding="utf-8"))
    rl = {_requirement_name(r) for r in project["project"]["optional-dependencies"]["rl"]}
    # OpenSpiel's distribution holds both pyspiel and open_spiel.
    assert rl == {"open-spiel", "pettingzoo", "gymnasium", "numpy"}
    assert third_party == {"pyspiel", "pettingzoo", "gymnasium", "numpy"}


def test_the_public_names_import_from_the_package() -> None:
    assert issubclass(StawvsError, Exception)
    assert {"StawvsGame", "StawvsError"} <= set(stawvs_ap.__all__)


def test_gameinfo_names_the_game_and_engine_version() -> None:
    assert StawvsGame.gameinfo.uid == "stawvs"
    assert StawvsGame.gameinfo.version == "20251113"


def test_every_stack_entry_records_the_engine_version() -> None:
    game = StawvsGame(2, seed=1)
    for move in ["b2", "b3", "b4", "b5", "b6", "b7"]:
        game.move(move)
    game.resign(1)
    assert [entry["_version"] for entry in game.stack] == ["20251113"] * 8
    assert [entry["_version"] for entry in game.state()["stack"]] == ["20251113"] * 8


def test_the_classifiers_claim_no_system_the_command_line_cannot_start_on() -> None:
    # The command line locks files with fcntl and blocks signals, which only POSIX
    # systems have: the package does not claim to be "OS Independent" while it does.
    classifiers = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "classifiers"
    ]
    safe_io = (ROOT / "stawvs_ap" / "cli" / "safe_io.py").read_text("utf-8")
    if re.search(r"^import fcntl$", safe_io, re.M):
        assert "Operating System :: OS Independent" not in classifiers
        assert "Operating System :: POSIX" in classifiers
