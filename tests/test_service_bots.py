"""Bots over the service (``bot_move``, ``hint``) and what a page asks of it
(``svg``, ``summary``, ``undo``): each answer equals the in-process API, and
every budget is bounded. Through ``stawvs-ap serve`` where the transport
matters, in process (``stawvs_ap.service.call``) elsewhere."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator

import pytest
from hostile import scaled
from hypothesis import given, settings
from hypothesis import strategies as st
from service_support import (
    Clock,
    finished_state,
    stamps,
    start_server,
    state_after,
)
from stepping_clock import stepping_clock

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.bots import GreedyBot, MCTSBot, UCTBot
from stawvs_ap.bots.arena import BotSpec
from stawvs_ap.core.moves import Move
from stawvs_ap.core.scoring import group_collection
from stawvs_ap.host.preview import preview
from stawvs_ap.i18n import catalogue
from stawvs_ap.pictures.svg import board_svg
from stawvs_ap.service import APP_ERROR, SEARCHES, SERVER_BUSY, call
from stawvs_ap.service.bots import (
    MAX_SEARCH_ITERATIONS,
    MAX_SEARCH_SECONDS,
    SearchSlots,
    search_budget,
)
from stawvs_ap.service.client import Client
from stawvs_ap.service.hints import choice_note, hint_rows
from stawvs_ap.service.jsonrpc import INVALID_PARAMS, RpcError
from stawvs_ap.service.views import next_squares


@pytest.fixture(scope="module")
def server() -> Iterator[Client]:
    client = start_server()
    yield client
    assert client.close() == 0


def refusal(method: str, **params: object) -> tuple[int, str | None]:
    with pytest.raises(RpcError) as refused:
        call(method, params)
    return refused.value.rpc_code, (refused.value.data or {}).get("code")


# -- bot_move and hint ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "bot"),
    [
        ("greedy", lambda: GreedyBot(seed=4)),
        ("uct:iterations=60", lambda: UCTBot(seed=4, iterations=60)),
        ("mcts", lambda: MCTSBot(seed=4, iterations=80)),
    ],
)
@pytest.mark.slow
def test_a_bot_move_through_the_server_is_the_bots_choice_played(
    server: Client, spec: str, bot: object
) -> None:
    state = state_after(9, seed=6)
    params = {"state": state, "bot": spec, "seed": 4}
    if spec == "mcts":
        params["iterations"] = 80
    after = server.call("bot_move", params)
    chosen = bot().choose(StawvsGame(state))  # type: ignore[operator]
    assert after["move"] == str(chosen)
    game = StawvsGame(state, clock=Clock(*stamps(after["state"])))
    game.move(chosen)
    assert after == {
        "move": str(chosen),
        "state": game.serialize(),
        "results": game.results,
        "gameover": game.gameover,
        "winner": game.winner,
        "currplayer": game.currplayer,
    }


@pytest.mark.slow
def test_bots_over_the_service_play_a_whole_game_to_its_end(server: Client) -> None:
    state = server.new(3, ["hey"], 2)["state"]
    specs = ["greedy", "random", "uct:iterations=10"]
    for ply in range(500):
        after = server.call("bot_move", {"state": state, "bot": specs[ply % 3], "seed": ply})
        state = after["state"]
        if after["gameover"]:
            break
    assert StawvsGame(state).gameover


def test_a_hint_lists_the_bots_own_analysis(server: Client) -> None:
    state = state_after(14, seed=3)
    hint = server.call("hint", {"state": state, "iterations": 120, "seed": 9, "top": 3})
    game = StawvsGame(state)
    bot = MCTSBot(seed=9)
    expected = bot.analyse(game, iterations=120, top=3)
    rows = hint_rows(game, expected)  # the choice first, then by share
    note = choice_note(rows)
    assert hint == {
        "player": game.currplayer,
        "best": str(expected[0].move),
        "candidates": [
            row.to_dict(catalogue("en")) | {"value": round(row.share, 4)} for row in rows
        ],
        "note": None if note is None else catalogue("en").say(note),
        "proven": bot.last_exact,
    }


def test_a_finished_game_has_no_bot_move_and_no_hint() -> None:
    done = finished_state(2, seed=3)
    assert refusal("bot_move", state=done, bot="greedy") == (APP_ERROR, "GAMEOVER")
    assert refusal("hint", state=done) == (APP_ERROR, "GAMEOVER")


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"bot": "mcts", "seconds": MAX_SEARCH_SECONDS + 0.5}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "mcts", "iterations": MAX_SEARCH_ITERATIONS + 1}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "mcts", "iterations": 0}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "mcts:seconds=100"}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "mcts:iterations=100000000000000"}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "uct:iterations=1.5"}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "chess"}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "mcts:" + "x" * 300}, (APP_ERROR, "BAD_ARGUMENT")),
        ({"bot": "mcts", "seconds": 0}, (INVALID_PARAMS, None)),
        ({"bot": "mcts", "seconds": True}, (INVALID_PARAMS, None)),
        ({"bot": "mcts", "iterations": 2.5}, (INVALID_PARAMS, None)),
        ({"bot": 3}, (INVALID_PARAMS, None)),
    ],
)
def test_search_budgets_beyond_the_limits_are_refused_before_any_search(
    params: dict[str, object], expected: tuple[int, str | None]
) -> None:
    state = state_after(8)
    started = time.perf_counter()
    assert refusal("bot_move", state=state, **params) == expected
    assert refusal("hint", state=state, **params) == expected
    assert time.perf_counter() - started < 3.0  # a search would take MAX_SEARCH_SECONDS


@pytest.mark.parametrize("top", [0, -1, 21])
def test_a_hint_lists_one_to_twenty_candidates(top: int) -> None:
    assert refusal("hint", state=state_after(8), top=top) == (APP_ERROR, "BAD_ARGUMENT")


def test_the_budget_is_the_calls_else_the_specs_else_one_second() -> None:
    assert search_budget(BotSpec.parse("mcts")) == (1.0, None)
    assert search_budget(BotSpec.parse("mcts:seconds=0.2")) == (0.2, None)
    assert search_budget(BotSpec.parse("mcts:seconds=0.2"), iterations=50) == (5.0, 50)
    assert search_budget(BotSpec.parse("uct:iterations=50")) == (MAX_SEARCH_SECONDS, 50)
    assert search_budget(BotSpec.parse("uct:seconds=3,iterations=50")) == (3.0, 50)


@pytest.mark.slow
def test_a_time_budget_holds_over_the_service(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stepping_clock(monkeypatch)  # a millisecond a reading: 0.3 s is ~300 readings
    call("bot_move", {"state": state_after(6), "bot": "mcts", "seconds": 0.3})
    assert 300 <= clock.readings < 400


# -- search slots ------------------------------------------------------------------


def test_searches_beyond_the_slots_are_refused_at_once_and_the_slot_comes_back() -> None:
    slots = SearchSlots(limit=2)
    with slots.held(), slots.held():
        with pytest.raises(RpcError) as refused, slots.held():
            pass
        assert (refused.value.rpc_code, refused.value.data) == (SERVER_BUSY, {"limit": 2})
        assert refused.value.code == "SERVER_BUSY"
    with slots.held(), slots.held():
        pass  # both free again


def test_one_request_runs_at_most_its_share_of_searches() -> None:
    slots = SearchSlots(limit=8)
    with slots.per_request(2):
        with slots.held():
            pass
        with slots.held():
            pass
        with pytest.raises(RpcError), slots.held():
            pass
    with slots.held():
        pass  # outside a request: no share


@pytest.mark.slow
def test_a_search_over_the_limit_answers_server_busy_while_others_run() -> None:
    state = state_after(6)
    limit = SEARCHES.limit
    SEARCHES.set_limit(1)
    try:
        results: list[object] = []
        worker = threading.Thread(
            target=lambda: results.append(
                call("bot_move", {"state": state, "bot": "mcts", "seconds": 0.6})
            )
        )
        worker.start()
        time.sleep(0.2)
        assert refusal("hint", state=state, seconds=0.1)[0] == SERVER_BUSY
        assert call("moves", {"state": state})["moves"]  # other methods go on
        worker.join()
        assert results and "move" in results[0]  # type: ignore[operator]
    finally:
        SEARCHES.set_limit(limit)


@pytest.mark.parametrize("limit", [0, 65, True])
def test_the_search_limit_is_one_to_sixty_four(limit: int) -> None:
    with pytest.raises(StawvsError):
        SearchSlots(limit)


# -- what a page asks ----------------------------------------------------------------


def test_the_services_picture_is_the_one_drawing_with_click_squares() -> None:
    state = state_after(23, players=3, seed=4)
    game = StawvsGame(state)
    names = ["Ann", "Bob", "Cy"]
    assert call("svg", {"state": state, "names": names})["svg"] == board_svg(
        game, names=names, marks=True, squares=True, highlights={}
    )
    assert call("svg", {"state": state, "ply": 5, "marks": False, "size": 300})["svg"] == (
        board_svg(StawvsGame(state).load(5), 300, squares=True, highlights={})
    )


def test_a_chosen_cap_shows_where_it_can_go_and_a_moved_one_what_it_can_claim() -> None:
    state = state_after(12, seed=8)
    game = StawvsGame(state)
    move = random.Random(1).choice(game.legal_moves)
    source, dest = str(move.source), str(move.dest)
    legal = [m for m in game.legal_moves if str(m.source) == source]
    chosen = preview(game.position, Move.parse(source), complete=False)
    landed = preview(game.position, Move.parse(f"{source}-{dest}"), complete=False)
    assert chosen is not None and landed is not None
    assert next_squares(chosen) == {
        "selected": [source],
        "destinations": sorted({str(m.dest) for m in legal}),
    }
    assert next_squares(landed) == {
        "selected": [dest],
        "targets": sorted({str(m.target) for m in legal if str(m.dest) == dest}),
    }
    picture = call("svg", {"state": state, "move": f"{source.upper()}-{dest}"})["svg"]
    moved = game.position.with_cap_moved(move.source, move.dest)  # type: ignore[arg-type]
    assert picture == board_svg(
        moved, lastmove=game.lastmove, highlights=next_squares(landed), marks=True, squares=True
    )
    assert next_squares(preview(game.position, move, complete=True)) == {}  # type: ignore[arg-type]


def test_a_picture_of_an_illegal_partial_move_is_refused_with_its_verdict() -> None:
    state = state_after(12, seed=8)
    verdict = StawvsGame(state).validate_move("a1-h8")
    assert refusal("svg", state=state, move="a1-h8") == (APP_ERROR, verdict.code)


def test_hints_are_drawn_as_labelled_arrows() -> None:
    state = state_after(12, seed=8)
    moves = StawvsGame(state).moves()[:3]
    picture = call("svg", {"state": state, "hints": [{"move": m, "label": "0.5"} for m in moves]})
    for move in moves:
        assert f'<g class="hint" data-move="{move}">' in picture["svg"]
    assert refusal("svg", state=state, hints=[{"move": "nonsense"}]) == (APP_ERROR, "MALFORMED")
    assert refusal("svg", state=state, hints=[{"move": "c3"}] * 21)[0] == INVALID_PARAMS


def test_the_summary_is_the_game_panel_of_the_position_shown() -> None:
    state = finished_state(3, seed=5)
    game = StawvsGame(state)
    summary = call("summary", {"state": state})
    plies = sum(map(len, game.move_history()))
    assert summary["plies"] == summary["ply"] == plies
    assert (summary["gameover"], summary["winner"]) == (True, game.winner)
    assert [p["score"] for p in summary["players"]] == game.position.scores()
    assert all(p["passed"] for p in summary["players"])
    for player, collection in zip(summary["players"], game.position.captured, strict=True):
        stacks = group_collection(collection)
        assert [len(s["pyramids"]) for s in player["stacks"]] == [len(s) for s in stacks]
        assert sum(s["points"] for s in player["stacks"]) == player["score"]
    flat = [pair for round_ in game.move_history_with_sequence() for pair in round_]
    assert [(h["player"], h["move"]) for h in summary["history"]] == flat
    early = call("summary", {"state": state, "ply": 4})
    assert (early["ply"], early["plies"], early["gameover"]) == (4, plies, False)
    assert early["currplayer"] == StawvsGame(state).load(4).currplayer
    assert early["history"] == summary["history"]


def test_the_summary_says_what_each_move_did_in_the_players_names_and_language() -> None:
    state = finished_state(2, seed=3)
    game = StawvsGame(state)
    named = call("summary", {"state": state, "names": ["Ann", "Bob"], "locale": "de"})
    said = [entry["words"] for entry in named["history"]]
    assert said == game.moves_in_words(["Ann", "Bob"], locale="de")
    assert said[0].startswith(("Ann setzte auf ", "Bob setzte auf "))
    # The chat log's sentences, move by move: the last move tells the game's end.
    log = game.chat_log(["Ann", "Bob"], locale="de")
    assert said == [" ".join(sentences) for _, *sentences in log]
    assert "Ann" in said[-1] or "Bob" in said[-1]
    english = call("summary", {"state": state})
    assert english["history"][0]["words"].startswith("Player ")


def test_must_pass_is_told_when_pass_is_the_only_move() -> None:
    game, rng = StawvsGame(2, seed=2), random.Random(2)
    while game.moves() != ["pass"]:
        game.move(rng.choice(game.moves()))
    assert call("summary", {"state": game.serialize()})["must_pass"] is True
    assert call("summary", {"state": state_after(3)})["must_pass"] is False


def test_undo_takes_back_moves_as_the_game_does() -> None:
    state = state_after(15, seed=2)
    for plies in (1, 4, 15):
        game = StawvsGame(state)
        for _ in range(plies):
            game.undo()
        after = call("undo", {"state": state, "plies": plies})
        assert after["state"] == game.serialize()
        assert after["currplayer"] == game.currplayer
    assert refusal("undo", state=state, plies=16) == (APP_ERROR, "NO_UNDO")
    assert refusal("undo", state=state, plies=0) == (APP_ERROR, "NO_UNDO")
    assert refusal("undo", state=StawvsGame(2, seed=1).serialize()) == (APP_ERROR, "NO_UNDO")


# -- hostile search parameters ---------------------------------------------------------

_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
)
_SPECS = st.one_of(
    st.sampled_from(["random", "greedy", "", "mcts:", "greedy:seed=3", "uct:iterations=1.5"]),
    st.integers(1, 40).map(lambda n: f"uct:iterations={n}"),
    st.integers(-5, 10**9).map(lambda n: f"mcts:iterations={n}"),
    st.floats(-10, 1e9, allow_nan=False).map(lambda x: f"mcts:seconds={x}"),
    st.text(max_size=40),
)


@settings(max_examples=scaled(120), deadline=None)
@given(
    method=st.sampled_from(["bot_move", "hint"]),
    bot=_SPECS,
    extra=st.dictionaries(
        st.sampled_from(["seconds", "iterations", "top", "seed", "stray"]), _VALUES, max_size=3
    ),
)
def test_any_search_parameters_are_searched_within_bounds_or_refused_by_name(
    method: str, bot: str, extra: dict[str, object]
) -> None:
    params: dict[str, object] = {"state": SEARCH_STATE, "bot": bot, **extra}
    if isinstance(params.get("seconds"), int | float) and not isinstance(params["seconds"], bool):
        params["seconds"] = min(float(params["seconds"]), 0.05)  # keep accepted searches short
    started = time.perf_counter()
    try:
        result = call(method, params)
    except RpcError as refused:
        assert refused.rpc_code in (INVALID_PARAMS, APP_ERROR, SERVER_BUSY), refused.message
        if refused.rpc_code == APP_ERROR:
            assert (refused.data or {}).get("code") in {"BAD_ARGUMENT", "BAD_VARIANT"}
    else:
        assert ("move" in result) if method == "bot_move" else result["candidates"]
    assert time.perf_counter() - started < MAX_SEARCH_SECONDS + 2


SEARCH_STATE = state_after(9, seed=5)


# -- naming bots: resolved once --------------------------------------------------------


def test_unknown_bot_names_read_the_installed_entry_points_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stawvs_ap.bots import registry
    from stawvs_ap.service.methods import answer_line

    reads = []
    real = registry.entry_points

    def counted(**kwargs: str) -> object:
        reads.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(registry, "entry_points", counted)
    registry.refresh_plugins()
    try:
        batch = [
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": method,
                "params": {"state": "{}", "bot": f"nosuchbot{n}"},
            }
            for n in range(500)
            for method in ("bot_move", "hint")
        ]
        answers = json.loads(answer_line(json.dumps(batch).encode("ascii")) or "")
    finally:
        monkeypatch.undo()
        registry.refresh_plugins()
    assert len(reads) == 1
    assert {answer["error"]["message"].split(" (")[0][:11] for answer in answers} == {"unknown bot"}


def test_a_spec_text_is_read_once_and_gives_the_same_spec(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stawvs_ap.bots import spec as spec_module

    text = "mcts:seconds=0.25,temperature=3"
    fresh = BotSpec._read(text, False)
    spec_module._parse.cache_clear()
    reads = []
    real = BotSpec._read.__func__  # type: ignore[attr-defined]

    def counted(cls: type[BotSpec], text: str, allow_exec: bool) -> BotSpec:
        reads.append(text)
        return real(cls, text, allow_exec)  # type: ignore[no-any-return]

    monkeypatch.setattr(BotSpec, "_read", classmethod(counted))
    assert BotSpec.parse(text) == fresh
    assert BotSpec.parse(text) == fresh
    assert reads == [text]
    spec_module._parse.cache_clear()


def test_a_spec_refused_once_is_refused_again() -> None:
    for _ in range(2):
        with pytest.raises(StawvsError, match="samples"):
            BotSpec.parse("mcts:samples=0")
    with pytest.raises(StawvsError, match="not allowed"):
        BotSpec.parse("exec:true")


# -- a search that ignores its budget ---------------------------------------------------


class _Stubborn:
    """A plug-in's bot that thinks for as long as it likes."""

    def __init__(self, seconds: float) -> None:
        self.release = threading.Event()
        self.seconds = seconds

    def choose(self, game: StawvsGame, **budget: object) -> object:
        self.release.wait(self.seconds)
        return game.moves()[0]


@pytest.mark.slow
def test_a_search_past_its_budget_and_grace_loses_its_slot_and_is_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from stawvs_ap.service import bots as service_bots

    monkeypatch.setattr(service_bots, "GRACE_SECONDS", 0.2)
    monkeypatch.setattr(service_bots, "_OVERRUN_LOGGED", set())
    stubborn = _Stubborn(30)
    monkeypatch.setattr(BotSpec, "make", lambda self, seed: stubborn)
    state = state_after(6)
    try:
        for _ in range(2):
            start = time.monotonic()
            with pytest.raises(RpcError) as caught:
                call("bot_move", {"state": state, "bot": "greedy", "seconds": 0.1})
            took = time.monotonic() - start
            assert caught.value.data == {"code": "BOT_FAILED"}
            assert took < 0.1 + 0.2 + 0.5
        # Every slot is free again: as many searches as there are slots can hold one.
        holds = [SEARCHES.held() for _ in range(SEARCHES.limit)]
        for hold in holds:
            hold.__enter__()
        for hold in holds:
            hold.__exit__(None, None, None)
    finally:
        stubborn.release.set()
    overruns = [r for r in caplog.records if "past its budget" in r.getMessage()]
    assert len(overruns) == 1


def test_a_search_within_its_budget_answers_through_the_guard() -> None:
    from stawvs_ap.service.bots import within_budget

    assert within_budget("greedy", 0.1, lambda: 42) == 42
    with pytest.raises(ValueError, match="boom"):
        within_budget("greedy", 0.1, lambda: (_ for _ in ()).throw(ValueError("boom")))
