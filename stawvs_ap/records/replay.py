"""Replaying a game record (docs/CONTRACT.md §8): :func:`from_record`, the one way in.

Every move is validated as a host would; a record that cannot be read or
replayed, or whose header says something the replay does not give, raises
:class:`~stawvs_ap.errors.InvalidRecordError` (code ``BAD_RECORD``) saying
where and why.
"""

from __future__ import annotations

import json
from typing import Any, Final

from ..core.events import ENDINGS
from ..core.invariants import miscounted_kinds, start_fault
from ..core.moves import normalise
from ..core.notation import parse_board
from ..core.position import Position
from ..core.squares import SQUARE_NAMES
from ..core.variants import check_variants, rules_for
from ..errors import ErrorCode, InvalidRecordError, StawvsError, excerpt
from ..host.game import StawvsGame
from ..host.metadata import GAMEINFO, variant_ids_from_display_names
from ..host.record import notable_results, ranks, record_time
from ..i18n import printable
from ..state.format import MAX_STATE_BYTES
from ..state.timestamps import utc_now

__all__ = [
    "apply_move_or_ending",
    "from_record",
    "game_of",
    "parse_starting_position",
    "record_in",
]

_ENDING_RESULT: Final = {"resign": "resigned", "timeout": "timeout"}
#: The most characters of a player's name an error shows.
NAME_SHOWN: Final = 40


class _ReplayClock:
    """Timestamps for replayed moves: the record's start for every move but the
    last, its end for the last (the record keeps no other times), then the real
    time for anything played after the replay. With ``start_first``, the first
    call stamps the starting position, with the record's start."""

    def __init__(self, start: str, end: str, plies: int, *, start_first: bool = False) -> None:
        self.start, self._end, self._left = start, end, plies
        self._start_first = start_first

    def __call__(self) -> str:
        if self._start_first:
            self._start_first = False
            return self.start
        self._left -= 1
        if self._left > 0:
            return self.start
        return self._end if self._left == 0 else utc_now()


def from_record(
    record: object,
    *,
    initial: str | bytes | dict[str, Any] | None = None,
    allow_unfinished: bool = False,
) -> StawvsGame:
    """The game a record describes, every move replayed and validated.

    The starting position comes from ``header.startingPosition`` (a board, or
    a whole position notation), or from ``initial`` (a serialized state, whose
    first stack entry is used) for records without one, such as the Abstract
    Play engine's. Display names are mapped back to variant ids; the player
    count is that of ``header.players``. Endings (``resign``, ``timeout``,
    ``draw``, ``abandoned``) are applied with the player their result names.

    After the replay the header must agree with it: each player's ``score``,
    ``result`` (1 for a winner) and ``rank``. A record of an unfinished game
    is refused unless ``allow_unfinished``, and then its players may claim no
    result or rank.
    """
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record is a JSON object, not {type(record).__name__}")
    header, rounds = record.get("header"), record.get("moves")
    if not isinstance(header, dict):
        raise InvalidRecordError("the record has no 'header' object")
    if not isinstance(rounds, list) or not all(isinstance(r, list) for r in rounds):
        raise InvalidRecordError("the record's 'moves' must be a list of rounds (lists)")
    names = _player_names(header)
    variants = _variants(header)
    plies = sum(len(r) for r in rounds)
    start = _date(header, "date-start")
    end = _date(header, "date-end")
    if _is_position(header.get("startingPosition")):
        # A game set up from a whole position stamps its first entry as a move.
        clock = _ReplayClock(start, end, plies + 1)
    else:
        clock = _ReplayClock(start, end, plies, start_first=initial is None)
    game = _starting_game(header, initial, len(names), variants, clock)
    for number, moves in enumerate(rounds, start=1):
        if len(moves) > len(names):
            raise InvalidRecordError(
                f"round {number} has {len(moves)} moves, but there are {len(names)} players"
            )
        for entry in moves:
            _replay_entry(game, entry, number, names)
    _check_header(game, header, names, allow_unfinished)
    return game


def record_in(value: object) -> dict[str, Any] | None:
    """The game record ``value`` is (an object with a ``header``) or wraps (a
    golden fixture file keeps its game's record under ``record``); None for
    anything else, such as a state."""
    if isinstance(value, dict) and "header" not in value:
        value = value.get("record")
    return value if isinstance(value, dict) and "header" in value else None


def game_of(
    state_or_record: str | dict[str, Any], initial: str | dict[str, Any] | None = None
) -> StawvsGame:
    """The game a state's text or a record (as :func:`record_in` finds it) holds:
    the state loaded, or the record replayed, a game in progress too, from the
    state ``initial`` when it has no starting board. ``initial`` with a state is
    refused (``BAD_ARGUMENT``): it would be dropped."""
    if isinstance(state_or_record, str):
        if initial is not None:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, "an initial state goes with a record, not with a state"
            )
        return StawvsGame(state_or_record)
    record = record_in(state_or_record)
    return from_record(
        state_or_record if record is None else record, initial=initial, allow_unfinished=True
    )


def _player_names(header: dict[str, Any]) -> list[str]:
    """The players' names as the record's errors name them (shown safely, cut short)."""
    players = header.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise InvalidRecordError("the record's header.players must list the 2 to 4 players")
    names = []
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise InvalidRecordError(f"player {seat} of the record has no name")
        names.append(printable(player["name"], limit=NAME_SHOWN))
    return names


def _variants(header: dict[str, Any]) -> list[str]:
    game = header.get("game")
    if not isinstance(game, dict) or game.get("name") != GAMEINFO.name:
        name = game.get("name") if isinstance(game, dict) else None
        raise InvalidRecordError(
            f"the record is not of a game of {GAMEINFO.name} ({excerpt(name)})"
        )
    shown = game.get("variants", [])
    if not isinstance(shown, list) or not all(isinstance(v, str) for v in shown):
        raise InvalidRecordError("header.game.variants must be a list of variant names")
    try:
        ids = variant_ids_from_display_names(shown)
    except StawvsError as exc:  # a name that is no variant's, said as it is
        raise InvalidRecordError(exc.message) from None
    try:
        return check_variants(ids)
    except StawvsError as exc:
        raise InvalidRecordError(f"the record's variants do not go together: {exc}") from None


def _date(header: dict[str, Any], key: str) -> str:
    """A header date in the state's form; the present time when it is missing."""
    value = header.get(key)
    if value is None:
        return utc_now()
    try:
        return record_time(value, key)
    except StawvsError:
        raise InvalidRecordError(f"header.{key} is not a date-time: {excerpt(value)}") from None


def _starting_game(
    header: dict[str, Any],
    initial: str | bytes | dict[str, Any] | None,
    numplayers: int,
    variants: list[str],
    clock: _ReplayClock,
) -> StawvsGame:
    given = header.get("startingPosition")
    if initial is not None:
        game = _game_from_initial(initial, numplayers, variants, clock)
        if given is not None and parse_starting_position(given) != list(game.position.board):
            raise InvalidRecordError(
                "the record's startingPosition is not the board of the initial state"
            )
        return game
    if given is None:
        raise InvalidRecordError(
            "the record has no startingPosition; give the initial state of the game to replay "
            "it (initial=, --initial on the command line, 'initial' over the service)"
        )
    if _is_position(given):
        try:
            game = StawvsGame.from_position(given, variants, clock=clock)
        except StawvsError as exc:
            raise InvalidRecordError(
                f"the startingPosition cannot be used: {exc.message}"
            ) from None
        if game.numplayers != numplayers:
            raise InvalidRecordError(
                f"the startingPosition is for {game.numplayers} players, the record has "
                f"{numplayers}"
            )
        return game
    return _game_from_board(parse_starting_position(given), numplayers, variants, clock)


def _is_position(notation: object) -> bool:
    """Whether a ``startingPosition`` is a whole position notation (five fields,
    the third the phase) rather than a board, which may be typed rank by rank."""
    if not isinstance(notation, str):
        return False
    fields = notation.split()
    return len(fields) == 5 and fields[2].lower() in ("place", "collect")


def parse_starting_position(text: object) -> list[int]:
    """The board of a new game that a ``startingPosition`` (board notation) describes:
    60 pyramids, 5 of each kind, no caps, no ghosts. Raises ``BAD_RECORD`` naming
    the first problem."""
    try:
        board, caps = parse_board(text)  # type: ignore[arg-type]
    except ValueError as exc:
        raise InvalidRecordError(f"the startingPosition is not a board: {exc}") from None
    miscounted = miscounted_kinds(board)
    if any(caps) or any(kind.is_ghost for kind, _, _ in miscounted):
        raise InvalidRecordError("a starting board has no caps and no ghosts")
    for kind, count, wanted in miscounted:
        raise InvalidRecordError(
            f"the startingPosition has {count} pyramids {kind.code}; a new "
            f"game has {wanted} of each kind"
        )
    return board


def _game_from_board(
    board: list[int], numplayers: int, variants: list[str], clock: _ReplayClock
) -> StawvsGame:
    start = Position.build(rules_for(numplayers, variants), board)
    fault = start_fault(start, variants)
    if fault is not None and fault.what == "gaps":
        where = ", ".join(SQUARE_NAMES[sq] for sq in fault.gaps)
        raise InvalidRecordError(
            f"with these variants the empty squares of the starting position must be {where}"
        )
    if fault is not None:  # parse_starting_position refuses every other fault of a board
        raise InvalidRecordError(f"the startingPosition is no new game's start ({fault.what})")
    return StawvsGame.from_position(start, variants, clock=clock)


def _game_from_initial(
    initial: str | bytes | dict[str, Any],
    numplayers: int,
    variants: list[str],
    clock: _ReplayClock,
) -> StawvsGame:
    if isinstance(initial, str | bytes) and len(initial) > MAX_STATE_BYTES:
        raise InvalidRecordError("the initial state is too long to be a Stawvs state")
    try:
        state = json.loads(initial) if isinstance(initial, str | bytes) else initial
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        raise InvalidRecordError("the initial state is not valid JSON") from None
    stack = state.get("stack") if isinstance(state, dict) else None
    if not isinstance(stack, list) or not stack:
        raise InvalidRecordError("the initial state is not a serialized Stawvs state")
    # Only the starting position counts: a later state of the same game will do.
    game = _load({**state, "stack": stack[:1], "gameover": False, "winner": []}, clock)
    if game.numplayers != numplayers:
        raise InvalidRecordError(
            f"the record has {numplayers} players, the initial state {game.numplayers}"
        )
    if sorted(game.variants) != sorted(variants):
        raise InvalidRecordError(
            f"the record's variants {variants} differ from the initial state's {game.variants}"
        )
    return game


def _load(state: dict[str, Any], clock: _ReplayClock) -> StawvsGame:
    try:
        return StawvsGame(state, clock=clock)
    except StawvsError as exc:
        raise InvalidRecordError(f"the starting position cannot be used: {exc.message}") from None


def _replay_entry(game: StawvsGame, entry: object, number: int, names: list[str]) -> None:
    player = game.currplayer
    where = f"round {number}, {names[player - 1]} (player {player})"
    if entry is None:
        if game.gameover:
            return  # padding after the end, as other engines write it
        raise InvalidRecordError(f"{where}: no move is given, but in Stawvs everyone moves")
    given: object = None
    if isinstance(entry, str):
        move = entry
    elif isinstance(entry, dict) and isinstance(entry.get("move"), str):
        move, given = entry["move"], entry.get("result")
    else:
        raise InvalidRecordError(f"{where}: {excerpt(entry, 60)} is not a move")
    try:
        apply_move_or_ending(game, move, _ending_player(move, given))
    except StawvsError as exc:
        raise InvalidRecordError(
            f"{where}: {excerpt(move, 60)} is not legal: {exc.message}"
        ) from None
    if isinstance(given, list):
        produced = notable_results(game.results)
        if given != produced or json.dumps(given) != json.dumps(produced):
            raise InvalidRecordError(
                f"{where}: the record says {excerpt(move)} gave {json.dumps(given)[:200]}, "
                f"but replaying it gives {json.dumps(produced)}"
            )


def _ending_player(move: str, given: object) -> int | None:
    """The player a ``resign`` or ``timeout`` names in its results."""
    kind = _ENDING_RESULT.get(normalise(move))
    if kind is None or not isinstance(given, list):
        return None
    found = [r.get("player") for r in given if isinstance(r, dict) and r.get("type") == kind]
    return found[0] if len(found) == 1 and type(found[0]) is int else None


def apply_move_or_ending(game: StawvsGame, move: str, player: int | None = None) -> None:
    """Play ``move`` on ``game``, where a record's move may also be an ending:
    ``resign`` and ``timeout`` need the ``player`` they end the game for."""
    ending = normalise(move)
    if ending not in ENDINGS:
        game.move(move)
    elif ending == "draw":
        game.draw()
    elif ending == "abandoned":
        game.abandoned()
    elif player is None:
        kind = _ENDING_RESULT[ending]
        raise StawvsError(
            ErrorCode.BAD_RECORD,
            f"its result must name the player, as {{'type': {kind!r}, 'player': p}}",
        )
    else:
        (game.resign if ending == "resign" else game.timeout)(player)


def _check_header(
    game: StawvsGame, header: dict[str, Any], names: list[str], allow_unfinished: bool
) -> None:
    """The header's scores, results and ranks must be what the replay gives."""
    players: list[dict[str, Any]] = header["players"]
    scores = game.position.scores()
    if not game.gameover:
        if not allow_unfinished:
            raise InvalidRecordError(
                "the record's game is not finished; replay it as a game in progress "
                "(allow_unfinished=True, stawvs-ap replay --unfinished, or the service's "
                "'unfinished': true)"
            )
        for seat, player in enumerate(players):
            if "result" in player or "rank" in player:
                raise InvalidRecordError(
                    f"the game is not finished, yet the record gives {names[seat]} a result"
                )
        expected: list[dict[str, int]] = [{"score": score} for score in scores]
    else:
        winners = game.winner
        places = ranks(scores, winners, by_score=game.lastmove not in ENDINGS)
        expected = [
            {"score": scores[seat], "result": int(seat + 1 in winners), "rank": places[seat]}
            for seat in range(len(players))
        ]
    for seat, player in enumerate(players):
        name = names[seat]
        for key, wanted in expected[seat].items():
            if key not in player:
                continue
            given = player[key]
            if type(given) is not int:  # never a float or a boolean
                raise InvalidRecordError(
                    f"the record's {key} of {name} must be a whole number, not {excerpt(given)}"
                )
            if given != wanted:
                raise InvalidRecordError(
                    f"the record gives {name} a {key} of {excerpt(given)}, but replaying the moves "
                    f"gives {wanted}"
                )
