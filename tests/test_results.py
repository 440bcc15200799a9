"""Every result object (CONTRACT §5) satisfies the upstream move-results schema."""

from __future__ import annotations

import random

import pytest

from stawvs_ap import StawvsGame

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
    from upstream_schemas import errors
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref
    from tests.upstream_schemas import errors

VARIANT_SETS = [[], ["hole", "hey"], ["random", "finalfree", "pieces-2"]]


def _bad_results(results: list[dict]) -> list[str]:
    return [f"{r}: {e}" for r in results for e in errors("moveresults", r)]


def _play_randomly(game: StawvsGame, rng: random.Random) -> StawvsGame:
    while not game.gameover:
        game.move(game.random_move(rng))
    return game


@pytest.mark.parametrize("game", ref.games(), ids=ref.game_id)
def test_results_of_every_reference_game_satisfy_the_schema(game):
    g = StawvsGame(game["initial"])
    for ply in game["plies"]:
        g.move(ply["move"])
        assert _bad_results(g.results) == [], ply["move"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", VARIANT_SETS, ids=ref.variants_label)
def test_results_of_random_games_satisfy_the_schema(players, variants):
    rng = random.Random(f"{players}{variants}")
    g = _play_randomly(StawvsGame(players, variants=variants, seed=rng.randrange(2**63)), rng)
    for results in g.results_history():
        assert _bad_results(results) == []


@pytest.mark.parametrize("ending", ["resign", "timeout", "draw", "abandoned"])
def test_results_of_endings_outside_the_rules_satisfy_the_schema(ending):
    g = StawvsGame(3, seed=11)
    g.move(g.moves()[0])
    if ending in ("resign", "timeout"):
        getattr(g, ending)(2)
    else:
        getattr(g, ending)()
    types = [r["type"] for r in g.results]
    assert types[-2:] == ["eog", "winners"]
    assert _bad_results(g.results) == []


def test_results_of_partial_previews_satisfy_the_schema():
    rng = random.Random(3)
    g = StawvsGame(2, seed=3)
    while g.mode == "place":
        g.move(g.random_move(rng))
    move = g.random_move(rng)
    source, rest = move.split("-")
    for partial in (source, f"{source}-{rest.split(',')[0]}", move):
        assert _bad_results(g.clone().move(partial, partial=True).results) == [], partial


def test_the_first_pass_announces_the_pyramids_under_the_caps():
    game = ref.games()[0]
    g = StawvsGame(game["final"])
    announces = [r for rs in g.results_history() for r in rs if r["type"] == "announce"]
    assert announces
    for result in announces:
        for name in result["payload"]:
            assert name.startswith("a ") and name.endswith(" pyramid")
        assert _bad_results([result]) == []
