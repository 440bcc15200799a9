"""The words players and hosts read, in every language present: every verdict and
every kind of event worded with its arguments, each call that says words taking a
language, English unchanged, and what hosts parse the same in every language."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from english_words import english_words, fixture_text
from hostile import thinned
from positions import position_from_diagram
from service_support import finished_state
from test_move_validation import POSITION

from stawvs_ap import ErrorCode, IllegalMoveError, Move, Position, StawvsGame
from stawvs_ap.core.events import (
    Abandoned,
    DrawAgreed,
    Event,
    GameEnded,
    Moved,
    Passed,
    Placed,
    Resigned,
    TimedOut,
)
from stawvs_ap.core.pyramids import Pyramid
from stawvs_ap.core.squares import Square
from stawvs_ap.host import chat
from stawvs_ap.i18n import catalogue, languages
from stawvs_ap.pictures.svg import board_svg
from stawvs_ap.pictures.textboard import board_text
from stawvs_ap.service import methods as service

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [tag for tag in languages() if tag != "en"]

# Player 1: caps on a1 (can move) and c3 (boxed in). Player 2: a cap on h1.


def collection(**options: Any) -> StawvsGame:
    return position_from_diagram(POSITION, **options)


def boxed_in() -> StawvsGame:
    """Player 1's only cap (c3) cannot move: they must pass."""
    return position_from_diagram(POSITION.replace("PI1@1", "PI1"))


def middle() -> StawvsGame:
    """A game in the collection phase in which both players have claimed pyramids."""
    game = StawvsGame(2, seed=4)
    while min(map(len, game.position.captured)) < 2:
        game.move(game.moves()[0])
    return game


def finished() -> StawvsGame:
    over = position_from_diagram(POSITION.replace("PI2", "."), eliminated=[2])
    over.move("pass")
    return over


#: (what is judged, the game, the move, the code (None: accepted)).
VERDICTS: list[tuple[str, Any, object, ErrorCode | None]] = [
    ("game over", finished, "a1-b1,c1", ErrorCode.GAMEOVER),
    ("no move at all", collection, "zz", ErrorCode.MALFORMED),
    ("not text", collection, 42, ErrorCode.MALFORMED),
    ("too long", collection, "a" * 200, ErrorCode.MALFORMED),
    ("a broken Move", collection, Move(70), ErrorCode.MALFORMED),
    ("pass while placing", lambda: StawvsGame(2, seed=1), "pass", ErrorCode.NOPASS),
    ("pass with a move", collection, "pass", ErrorCode.NOPASS),
    ("a slide while placing", lambda: StawvsGame(2, seed=1), "b2-b3", ErrorCode.BAD_PLACEMENT),
    ("a capped square", lambda: StawvsGame(2, seed=1).move("b2"), "b2", ErrorCode.BAD_PLACEMENT),
    ("after passing", lambda: collection(eliminated=[1]), "a1-b1,c1", ErrorCode.MUST_PASS),
    ("not one's cap", collection, "h1-g1,h1", ErrorCode.BAD_START),
    ("out of reach", collection, "a1-e1,a1", ErrorCode.BAD_MOVE),
    ("simpler captures", lambda: collection(variants=["hey"]), "a1-b1,c1", ErrorCode.BAD_CLAIM_HEY),
    ("out of sight", collection, "a1-b1,g1", ErrorCode.BAD_CLAIM),
    ("a complete slide", collection, "a1-b1,c1", None),
    ("a pass", boxed_in, "pass", None),
    ("a placement", lambda: StawvsGame(2, seed=1), "b2", None),
    ("a cap chosen", collection, "a1", None),
    ("a cap and its landing", collection, "a1-b1", None),
    ("a landing with simpler captures", lambda: collection(variants=["hey"]), "a1-b1", None),
    ("nothing yet, placing", lambda: StawvsGame(2, seed=1), "", None),
    ("nothing yet, collecting", collection, "", None),
    ("nothing yet, boxed in", boxed_in, "", None),
    ("nothing yet, after passing", lambda: collection(eliminated=[1]), "", None),
]


def _words_ok(tag: str, said: str, english: str) -> None:
    assert said and "{" not in said and "}" not in said and "Message(" not in said, said
    if tag != "en":
        assert said != english, f"{tag} says English: {said}"


@pytest.mark.parametrize("tag", languages())
@pytest.mark.parametrize(("what", "make", "move", "code"), VERDICTS, ids=[v[0] for v in VERDICTS])
def test_every_verdict_is_worded_in_every_language(
    tag: str, what: str, make: Any, move: object, code: ErrorCode | None
) -> None:
    game = make()
    english = game.validate_move(move)
    verdict = game.validate_move(move, locale=tag)
    assert verdict.code == english.code == code, what
    assert verdict._replace(message="") == english._replace(message="")
    _words_ok(tag, verdict.message, english.message)


#: Refusals raised by calls, by their code: the game, and the call.
REFUSALS: dict[ErrorCode, tuple[Any, Any]] = {
    ErrorCode.BAD_MOVE: (collection, lambda g: g.move("a1-e1,a1")),
    ErrorCode.INCOMPLETE: (collection, lambda g: g.move("a1")),  # a partial move played whole
    ErrorCode.GAMEOVER: (finished, lambda g: g.resign(1)),
}


@pytest.mark.parametrize("tag", languages())
@pytest.mark.parametrize("code", REFUSALS)
def test_refusals_of_moves_and_endings_are_in_the_games_language(tag: str, code: ErrorCode) -> None:
    make, attempt = REFUSALS[code]
    said = {}
    for language in ("en", tag):
        game = make()
        game.locale = language
        with pytest.raises(IllegalMoveError) as refused:
            attempt(game)
        assert refused.value.code == code
        said[language] = refused.value.message
    _words_ok(tag, said[tag], said["en"])
    if code is ErrorCode.INCOMPLETE:  # it says what the move still needs
        assert said[tag].endswith(collection().validate_move("a1", locale=tag).message)


@pytest.mark.parametrize("tag", languages())
@pytest.mark.parametrize(("move", "row", "col"), [("", 9, 9), ("a1-b1,c1", 0, 0), ("", 7, 0)])
def test_clicks_are_answered_in_the_language(tag: str, move: str, row: int, col: int) -> None:
    game = collection()
    english = game.handle_click(move, row, col)
    worded = game.handle_click(move, row, col, locale=tag)
    assert worded._replace(message="") == english._replace(message="")
    _words_ok(tag, worded.message, english.message)


def _after() -> Position:
    return collection().position


#: One of each kind of event (the result types of Abstract Play), with what ends the move.
EVENTS: dict[str, tuple[Event, ...]] = {
    "place": (Placed(1, Square.parse("d5"), Pyramid.BLUE_LARGE),),
    "move": (
        Moved(1, Square.parse("c3"), Square.parse("f6"), Square.parse("f2"), Pyramid.PINK_SMALL),
    ),
    "announce": (Passed(1, True, (Pyramid.BLUE_LARGE, Pyramid.PINK_SMALL, Pyramid.GREEN_MEDIUM)),),
    "announce, no caps": (Passed(1, True, ()),),
    "pass": (Passed(1, False),),
    "eog, one winner": (Passed(2, False), GameEnded((1,))),
    "eog, shared": (Passed(2, False), GameEnded((1, 2))),
    "eog, nobody": (Passed(2, False), GameEnded(())),
    "resigned": (Resigned(1), GameEnded((2,))),
    "timeout": (TimedOut(2), GameEnded((1,))),
    "drawagreed": (DrawAgreed(), GameEnded((1, 2))),
    "gameabandoned": (Abandoned(), GameEnded(())),
}


@pytest.mark.parametrize("tag", languages())
@pytest.mark.parametrize("kind", EVENTS)
def test_every_kind_of_result_is_worded_in_every_language(tag: str, kind: str) -> None:
    names = {1: "Ann", 2: "Bo"}
    for after in (_after(), collection(variants=["finalfree"]).position):
        said = chat.move_sentences(EVENTS[kind], "Ann", names, after)
        english = [catalogue("en").say(p) for p in said]
        worded = [catalogue(tag).say(p) for p in said]
        assert len(worded) == len(english) >= 1
        for sentence, source in zip(worded, english, strict=True):
            _words_ok(tag, sentence, source)
            for name in names.values():
                assert (name in sentence) == (name in source), (sentence, source)


@pytest.mark.slow
def test_english_words_are_byte_identical_to_those_before_the_catalogues() -> None:
    now = json.dumps(english_words(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    assert now == fixture_text(), "English changed: run python tests/english_words.py only if meant"


# -- every call that says words takes a language -------------------------------------------


@pytest.mark.parametrize("tag", TRANSLATED)
def test_the_games_language_and_each_calls_language(tag: str) -> None:
    def clock() -> str:  # both games stamp alike, so that their logs differ only in words
        return "2025-12-12T00:00:00.000Z"

    game = StawvsGame(2, seed=1, locale=tag, clock=clock)
    assert game.locale == tag
    english = StawvsGame(2, seed=1, clock=clock)
    for g in (game, english):
        for move in ("b2", "c3", "d4", "e5", "f6", "g7"):
            g.move(move)
    assert game.validate_move("zz").message == english.validate_move("zz", locale=tag).message
    assert game.validate_move("zz", locale="en").message == english.validate_move("zz").message
    assert game.chat_log() == english.chat_log(locale=tag) != english.chat_log()
    assert game.render() == english.render(locale=tag)
    assert game.sidebar_scores() == english.sidebar_scores(locale=tag)
    assert game.description() == english.description(locale=tag) != english.description()
    assert game.get_variants() == english.get_variants(locale=tag) != english.get_variants()
    assert StawvsGame.allvariants(locale=tag) != StawvsGame.allvariants()
    assert board_text(game) == board_text(english, locale=tag) != board_text(english)
    assert board_svg(game) == board_svg(english, locale=tag) != board_svg(english)
    assert game.clone().locale == tag
    assert StawvsGame(game.serialize()).locale == "en"  # a state carries no language
    assert StawvsGame.from_state(game.serialize(), locale=tag).locale == tag


def test_a_language_tag_never_fails() -> None:
    game = StawvsGame(2, seed=1, locale="de-AT")
    assert game.locale == ("de" if "de" in languages() else "en")
    game.locale = "pt"
    assert game.locale == ("pt-BR" if "pt-BR" in languages() else "en")
    game.locale = "tlh"
    assert game.locale == "en"
    game.locale = None
    assert game.locale == "en"


@pytest.mark.parametrize("tag", TRANSLATED)
def test_the_render_says_its_labels_in_the_language_and_nothing_else_changes(tag: str) -> None:
    game = StawvsGame(2, seed=4)
    while not game.gameover:
        game.move(game.moves()[0])
    english, worded = game.render(), game.render(locale=tag)
    labels = [a.pop("label") for a in worded.get("areas", [])]
    english_labels = [a.pop("label") for a in english.get("areas", [])]
    assert worded == english
    assert labels and all(a != b for a, b in zip(labels, english_labels, strict=True))
    for prefix in Move.parse(middle().moves()[0]).prefixes:
        shown = middle().move(str(prefix), partial=True)
        english, worded = shown.render(), shown.render(locale=tag)
        assert [a["label"] for a in english["areas"]] != [a["label"] for a in worded["areas"]]
        assert english["annotations"] == worded["annotations"]
        assert shown.results == middle().move(str(prefix), partial=True).results


@pytest.mark.slow
@pytest.mark.parametrize("tag", TRANSLATED)
def test_what_hosts_parse_is_the_same_in_every_language(tag: str) -> None:
    english = StawvsGame(3, seed=5, clock=lambda: "2025-12-12T00:00:00.000Z")
    worded = english.clone()
    worded.locale = tag
    while not english.gameover:
        move = english.moves()[-1]
        english.move(move)
        worded.move(move)
        assert worded.results == english.results
    assert worded.serialize() == english.serialize()
    assert worded.state() == english.state()
    assert worded.results_history() == english.results_history()
    assert worded.moves() == english.moves() and worded.winner == english.winner
    players = [{"name": n} for n in ("A", "B", "C")]
    assert worded.gen_record(uid="x", players=players) == english.gen_record(
        uid="x", players=players
    )
    assert json.loads(StawvsGame.info(locale=tag))["variants"][0]["uid"] == "#setup"
    info, english_info = json.loads(StawvsGame.info(locale=tag)), json.loads(StawvsGame.info())
    for key in ("name", "uid", "urls", "version", "flags", "categories", "playercounts"):
        assert info[key] == english_info[key]
    assert [v["uid"] for v in info["variants"]] == [v["uid"] for v in english_info["variants"]]
    assert {str(code) for code in ErrorCode} == {code.value for code in ErrorCode}


# -- the tools floor: the text board, the picture, the play game, the command line ----------


@pytest.mark.slow
@pytest.mark.parametrize("tag", thinned(TRANSLATED, 4))
def test_the_play_game_speaks_the_language(tag: str) -> None:
    # Every line of a longer game: tests/test_play.py.
    typed = "help\nmoves\nzz\nundo\nb2\nundo\n" + "x" * 5000 + "\n"
    play = ("play", "--bot", "random", "--seed", "2", "--verbose")
    english = _cli(*play, stdin=typed).replace("\n    ", " ").splitlines()
    lines = _cli(*play, "--lang", tag, stdin=typed).replace("\n    ", " ").splitlines()
    assert len(lines) == len(english)
    worded = [a for a, b in zip(lines, english, strict=True) if a != b]
    assert len(worded) >= 12
    assert "[MALFORMED]" in "\n".join(lines) and "  moves  " in "\n".join(lines)


_LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _cli(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in _LANGUAGE_VARIABLES}
    done = subprocess.run(
        [sys.executable, "-m", "stawvs_ap", *args],
        env={**clean, "PYTHONPATH": str(ROOT), **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow  # a command-line process per language and environment
def test_the_command_line_takes_lang_and_follows_the_environment(tmp_path: Path) -> None:
    tag = TRANSLATED[0]
    state = tmp_path / "game.json"
    state.write_text(StawvsGame(2, seed=1).serialize(), encoding="utf-8")
    english = _cli("show", str(state))
    assert english == _cli("show", str(state), env={"LANG": "C.UTF-8"})
    worded = _cli("show", str(state), "--lang", tag)
    assert worded != english
    assert worded == _cli("--lang", tag, "show", str(state))
    assert worded == _cli("show", str(state), env={"LANG": f"{tag}_XX.UTF-8"})
    assert worded == _cli("show", str(state), env={"LANGUAGE": f"tlh:{tag}"})
    assert english == _cli("show", str(state), "--lang", "tlh")
    verdict = json.loads(_cli("validate", str(state), "zz", "--lang", tag))
    assert verdict["code"] == "MALFORMED"
    assert verdict["message"] == StawvsGame(2, seed=1).validate_move("zz", locale=tag).message


# -- the service -----------------------------------------------------------------------------


@pytest.mark.parametrize("tag", TRANSLATED)
def test_the_services_word_methods_take_a_locale(tag: str) -> None:
    state = StawvsGame(2, seed=1).serialize()
    for method, params in [
        ("validate", {"state": state, "move": "zz"}),
        ("click", {"state": state, "move": "", "row": 1, "col": 1}),
        ("render", {"state": middle().serialize()}),
        ("chat_log", {"state": StawvsGame(2, seed=1).move("b2").serialize()}),
        ("info", {}),
        ("variants", {"state": state}),
        ("preview", {"state": middle().serialize(), "move": middle().moves()[0]}),
    ]:
        english = service.call(method, params)
        worded = service.call(method, {**params, "locale": tag})
        assert worded != english, method
        assert service.call(method, {**params, "locale": "tlh"}) == english, method
    refused = {}
    for locale in ("en", tag):
        with pytest.raises(service.RpcError) as error:
            service.call("move", {"state": state, "move": "a1-b1,c1", "locale": locale})
        refused[locale] = error.value
    assert refused["en"].data == refused[tag].data == {"code": ErrorCode.BAD_PLACEMENT}
    assert refused["en"].message != refused[tag].message
    played = [
        service.call("move", {"state": state, "move": "b2", **extra})
        for extra in ({"locale": tag}, {})
    ]
    for answer in played:  # the new entry's time is the clock's
        entries = json.loads(answer.pop("state"))["stack"]
        answer["moves"] = [(e.get("lastmove"), e["_results"]) for e in entries]
    assert played[0] == played[1]
    scores = service.call("scores", {"state": state, "locale": tag})
    assert scores["sidebar"] == StawvsGame(state).sidebar_scores(locale=tag)
    with pytest.raises(service.RpcError, match="language tag"):
        service.call("validate", {"state": state, "move": "b2", "locale": 7})


@pytest.mark.parametrize("tag", TRANSLATED)
def test_the_pages_methods_take_a_locale_and_their_refusals_are_worded(tag: str) -> None:
    state = middle().serialize()
    english = service.call("svg", {"state": state, "move": middle().moves()[0][:2]})
    worded = service.call("svg", {"state": state, "move": middle().moves()[0][:2], "locale": tag})
    assert worded != english
    assert service.call("svg", {"state": state, "locale": "tlh"}) == service.call(
        "svg", {"state": state}
    )
    done, fresh = finished_state(2, seed=3), StawvsGame(2, seed=1).serialize()
    for method, params in [
        ("bot_move", {"state": done, "bot": "random"}),
        ("hint", {"state": done, "iterations": 10}),
        ("undo", {"state": fresh}),
        ("undo", {"state": state, "plies": 999}),
        ("svg", {"state": state, "move": "a1-b1,c1"}),
    ]:
        refused = {}
        for locale in ("en", tag):
            with pytest.raises(service.RpcError) as error:
                service.call(method, {**params, "locale": locale})
            refused[locale] = error.value
        assert refused["en"].data == refused[tag].data, method
        assert refused["en"].message != refused[tag].message, method
    # The panel's summary words what each move did; its numbers, codes and moves
    # are the same in every language.
    said = {
        locale: service.call("summary", {"state": state, "locale": locale})
        for locale in ("en", tag)
    }
    assert [e["words"] for e in said["en"]["history"]] != [e["words"] for e in said[tag]["history"]]
    for answer in said.values():
        for entry in answer["history"]:
            del entry["words"]
    assert said["en"] == said[tag]


@pytest.mark.parametrize("tag", TRANSLATED)
def test_a_call_without_a_locale_is_english_whatever_language_made_its_state(tag: str) -> None:
    # The service keeps the games of recent states: never with an earlier call's language.
    state = StawvsGame(2, seed=TRANSLATED.index(tag)).serialize()
    after = service.call("move", {"state": state, "move": "b2", "locale": tag})["state"]
    verdict = service.call("validate", {"state": after, "move": "b2"})["message"]
    assert verdict == StawvsGame(after).validate_move("b2").message
    assert service.call("render", {"state": after}) == {"render": StawvsGame(after).render()}


def test_a_record_names_a_player_given_without_a_name_alike_in_every_language() -> None:
    # The page sends its players' seats, and names only those a loaded record gave.
    players = [{"is_ai": True}, {"name": "Bo"}]
    record = service.call("record", {"state": finished_state(2, seed=3), "players": players})
    header = record["record"]["header"]["players"]
    assert [(p["name"], p.get("is_ai", False)) for p in header] == [
        ("Player 1", True),
        ("Bo", False),
    ]
