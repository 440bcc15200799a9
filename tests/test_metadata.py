"""The game's metadata (CONTRACT §7) and the variants' display names."""

from __future__ import annotations

import json

import pytest

from stawvs_ap import ErrorCode, StawvsError, StawvsGame
from stawvs_ap.core.variants import SETUP_VARIANTS, VARIANTS
from stawvs_ap.host.metadata import (
    DEFAULT_SETUP_NAME,
    GAMEINFO,
    GameInfo,
    gameinfo_dict,
    variant_display_names,
    variant_ids_from_display_names,
)

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
    from upstream_schemas import errors
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref
    from tests.upstream_schemas import errors


def test_metadata_json_satisfies_the_upstream_gameinfo_schema():
    assert errors("gameinfo", gameinfo_dict()) == []


def test_info_returns_the_metadata_as_json():
    assert json.loads(StawvsGame.info()) == gameinfo_dict()
    assert json.loads(StawvsGame(2, seed=1).info())["uid"] == "stawvs"


def test_gameinfo_is_the_pydantic_model_on_the_class():
    assert isinstance(StawvsGame.gameinfo, GameInfo)
    assert StawvsGame.gameinfo is GAMEINFO


def test_identity_of_the_game():
    info = gameinfo_dict()
    assert info["name"] == "Stawvs"
    assert info["uid"] == "stawvs"
    assert info["playercounts"] == [2, 3, 4]
    assert info["version"] == StawvsGame(2, seed=1).version == "20251113"
    assert info["dateAdded"] == "2025-12-12"
    assert info["bggid"] == "130579"


def test_links_to_the_wiki_and_boardgamegeek():
    assert gameinfo_dict()["urls"] == [
        "https://looneypyramids.wiki/wiki/Stawvs",
        "https://boardgamegeek.com/boardgame/130579/stawvs",
    ]


def test_russ_williams_is_the_designer():
    assert gameinfo_dict()["people"] == [{"type": "designer", "name": "Russ Williams"}]


def test_flags_and_categories():
    info = gameinfo_dict()
    assert info["flags"] == ["scores", "autopass"]
    assert info["categories"] == [
        "goal>score>eog",
        "mechanic>set",
        "board>shape>rect",
        "components>pyramids",
        "other>2+players",
    ]


def test_every_variant_is_listed_with_a_name_and_description_for_players():
    listed = {v["uid"]: v for v in gameinfo_dict()["variants"]}
    assert set(VARIANTS) <= set(listed)
    for variant in listed.values():
        assert variant["name"] and len(variant["description"]) > 20
        assert variant["description"].endswith(".")


def test_setup_variants_share_the_group_setup_with_a_named_default():
    variants = gameinfo_dict()["variants"]
    setup = [v["uid"] for v in variants if v.get("group") == "setup"]
    assert setup == ["#setup", *SETUP_VARIANTS]
    others = [v for v in variants if v["uid"] not in setup]
    assert all("group" not in v for v in others)


def test_get_variants_names_the_default_setup_when_no_setup_variant_is_on():
    assert StawvsGame(2, seed=1).get_variants() == [DEFAULT_SETUP_NAME]
    assert StawvsGame(2, variants=["hey"], seed=1).get_variants() == [
        "Simpler captures",
        DEFAULT_SETUP_NAME,
    ]


def test_get_variants_with_a_setup_variant_has_no_default_setup():
    names = StawvsGame(2, variants=["hole", "hey"], seed=1).get_variants()
    assert names == ["Center hole", "Simpler captures"]


@pytest.mark.parametrize("game", ref.games(), ids=ref.game_id)
def test_display_names_are_those_of_the_reference_records(game):
    expected = game["record"]["header"]["game"]["variants"]
    assert variant_display_names(game["variants"]) == expected
    assert StawvsGame(game["final"]).get_variants() == expected


@pytest.mark.parametrize("game", ref.games(), ids=ref.game_id)
def test_display_names_map_back_to_variant_ids(game):
    names = variant_display_names(game["variants"])
    assert variant_ids_from_display_names(names) == game["variants"]


def test_unknown_variant_or_name_is_bad_variant():
    for unknown in (
        lambda: variant_display_names(["nosuch"]),
        lambda: variant_display_names(["#setup"]),
        lambda: variant_ids_from_display_names(["No such variant"]),
        lambda: GAMEINFO.variant("nosuch"),
    ):
        with pytest.raises(StawvsError) as refused:
            unknown()
        assert refused.value.code == ErrorCode.BAD_VARIANT


def test_the_model_refuses_a_malformed_date():
    data = {**GAMEINFO.model_dump(), "date_added": "12/12/2025"}
    with pytest.raises(ValueError):
        GameInfo(**data)
