"""The installed package: how a host finds the game, what ships, what versions it records.

These tests need the project installed (``pip install -e .``), as CI does.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources

import stawvs_ap
from stawvs_ap import StawvsError, StawvsGame


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
