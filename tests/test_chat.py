"""The chat log (CONTRACT §8): one sentence per result, in our own words."""

from __future__ import annotations

import pytest

from stawvs_ap import StawvsGame

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref

NAMES = ["Alice", "Bob", "Carol", "Dave"]
GAMES = ref.games()


def _log(game: dict) -> list[list[str]]:
    return StawvsGame(game["final"]).chat_log(NAMES)


def _entries_with_results(game: dict) -> list[tuple[str, list[dict]]]:
    """(name of who moved, results) for every ply that had results."""
    return [(NAMES[p["player"] - 1], p["results"]) for p in game["plies"] if p["results"]]


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_one_entry_per_move_with_results_with_the_same_timestamps(game):
    ours, theirs = _log(game), game["chatLog"]
    assert [e[0] for e in ours] == [e[0] for e in theirs]


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_one_sentence_per_result(game):
    ours = _log(game)
    assert [len(e) - 1 for e in ours] == [len(r) for _, r in _entries_with_results(game)]
    assert [len(e) for e in ours] == [len(e) for e in game["chatLog"]]


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_sentences_are_our_own_words(game):
    theirs = {s for entry in game["chatLog"] for s in entry[1:]}
    ours = [s for entry in _log(game) for s in entry[1:]]
    assert not theirs.intersection(ours)


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_sentences_name_the_player_and_the_squares(game):
    for entry, (actor, results) in zip(_log(game), _entries_with_results(game), strict=True):
        for sentence, result in zip(entry[1:], results, strict=True):
            kind = result["type"]
            assert sentence.endswith("."), sentence
            if kind == "place":
                assert sentence.startswith(f"{actor} placed a cap on ")
                assert sentence.endswith(f" {result['where']}.")
            elif kind == "move":
                assert sentence == (
                    f"{actor} moved from {result['from']} to {result['to']} and claimed "
                    f"{result['what']} at {result['how']}."
                )
            elif kind == "announce":
                assert sentence.startswith(actor) and "pass" in sentence
                assert all(name in sentence for name in result["payload"])
            elif kind == "pass":
                assert sentence == f"{actor} passed again."
            elif kind == "eog":
                assert "every player has passed" in sentence
            elif kind == "winners":
                assert all(NAMES[p - 1] in sentence for p in result["players"])
                assert "points" in sentence


def test_a_placement_names_the_pyramid_under_the_cap():
    g = StawvsGame(2, seed=1)
    g.move("b8")
    (entry,) = g.chat_log(["Ann", "Ben"])
    assert entry[1].startswith("Ann placed a cap on the ")
    assert entry[1].endswith(" pyramid at b8.")


def test_final_captures_are_announced_unless_finalfree():
    plain = next(g for g in GAMES if g["variants"] == [])
    free = next(g for g in GAMES if g["variants"] == ["finalfree"])
    assert "collects the pyramids under their caps" in _log(plain)[-1][-2]
    assert "caps stay where they are" in _log(free)[-1][-2]


def test_a_shared_win_names_every_winner():
    g = StawvsGame(3, seed=1).draw()
    assert g.chat_log(NAMES)[-1][-1] == "Alice, Bob and Carol shared the win."


def test_default_names_are_player_numbers():
    g = StawvsGame(2, seed=1)
    g.move(g.moves()[0])
    assert g.chat_log()[0][1].startswith("Player 1 placed")


def _ending(which: str, player: int | None = None) -> list[str]:
    g = StawvsGame(3, seed=4)
    g.move(g.moves()[0])
    method = getattr(g, which)
    (method(player) if player else method())
    return g.chat_log(NAMES)[-1][1:]


def test_chat_of_a_resignation_says_who_resigned_why_it_ended_and_who_won():
    assert _ending("resign", 2) == [
        "Bob resigned.",
        "The game is over by resignation.",
        "Alice and Carol shared the win.",
    ]


def test_chat_of_a_timeout():
    assert _ending("timeout", 1) == [
        "Alice ran out of time.",
        "The game is over because a player ran out of time.",
        "Bob and Carol shared the win.",
    ]


def test_chat_of_a_draw():
    assert _ending("draw") == [
        "Everyone agreed to end the game in a draw.",
        "The game is over by agreement.",
        "Alice, Bob and Carol shared the win.",
    ]


def test_chat_of_an_abandoned_game():
    assert _ending("abandoned") == [
        "The game was called off.",
        "The game is over: it was abandoned.",
        "Nobody won.",
    ]


@pytest.mark.parametrize(
    "line", [x for x in ref.extras("ending") if x["selected"] != "finished"][:8], ids=ref.extra_id
)
def test_endings_add_one_entry_with_as_many_sentences_as_the_reference(line):
    g = StawvsGame(line["state_before"])
    method = getattr(g, line["which"])
    (method(line["player"]) if line.get("player") else method())
    assert len(g.chat_log(NAMES)[-1]) == len(line["chatLog_last"])


@pytest.mark.parametrize("game", GAMES[::4], ids=ref.game_id)
def test_moves_in_words_are_the_chat_log_move_by_move(game):
    final = StawvsGame(game["final"])
    said = final.moves_in_words(NAMES)
    assert len(said) == sum(map(len, final.move_history()))
    pairs = list(zip(said, game["plies"], strict=True))
    assert [text for text, ply in pairs if ply["results"]] == [
        " ".join(entry[1:]) for entry in _log(game)
    ]
    assert all(text == "" for text, ply in pairs if not ply["results"])
