"""The host contract (CONTRACT §3): :class:`StawvsGame`, the object a game host drives.

It keeps the stack of positions, judges and applies moves, builds moves from
clicks and answers the history, scoring and ending calls. The rules themselves
live in :mod:`stawvs_ap.position`; serialization in :mod:`stawvs_ap.state_io`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from time import time_ns
from typing import Any, ClassVar, TypeVar

from . import chat, render, state_io
from .errors import IllegalMoveError, StawvsError
from .metadata import GAMEINFO, GameInfo, gameinfo_json, variant_display_names
from .notation import Move, MoveSyntaxError, parse_move
from .position import Mode, Position
from .state_io import ENGINE_VERSION, Entry
from .validation import ClickResult, ValidationResult, click, fast_accept, judge, judge_in_order
from .variants import check_variants, starting_position
from .writer import state_text

__all__ = ["StawvsGame", "utc_timestamp"]

Clock = Callable[[], str]
_T = TypeVar("_T")


_last_stamp: tuple[int, str] = (-1, "")


def utc_timestamp() -> str:
    """Now, as Abstract Play writes it: ``2025-12-12T00:00:00.000Z``."""
    global _last_stamp
    # Every move takes a stamp, and replays make many within one millisecond.
    millis = time_ns() // 1_000_000
    if millis != _last_stamp[0]:
        now = datetime.fromtimestamp(millis / 1000, UTC)
        _last_stamp = (millis, now.isoformat(timespec="milliseconds")[:-6] + "Z")
    return _last_stamp[1]


class StawvsGame:
    """A game of Stawvs as a host sees it.

    ``StawvsGame(3, variants=["hole"], seed=7)`` starts a new game (same seed and
    variants, same board); ``StawvsGame(serialized)`` re-creates one from a
    state written by this engine or by Abstract Play's, and refuses a broken
    state with :class:`~stawvs_ap.errors.InvalidStateError`.
    """

    gameinfo: ClassVar[GameInfo] = GAMEINFO

    def __init__(
        self,
        state: int | str | bytes | dict[str, Any] = 2,
        variants: Sequence[str] | None = None,
        seed: int | str | None = None,
        *,
        clock: Clock | None = None,
    ) -> None:
        self._clock: Clock = clock or utc_timestamp
        if isinstance(state, bool) or not isinstance(state, int | str | bytes | bytearray | dict):
            raise StawvsError(
                "BAD_ARGUMENT",
                f"a game starts from a player count or a serialized state, not {state!r}",
            )
        if isinstance(state, int):
            if not 2 <= state <= 4:
                raise StawvsError("BAD_ARGUMENT", f"Stawvs is for 2 to 4 players, not {state}")
            if not isinstance(seed, int | float | str | bytes | None):  # what random takes
                raise StawvsError("BAD_ARGUMENT", f"a seed is a number or text, not {seed!r}")
            if not isinstance(variants, list | tuple | None):  # a str is not a list of ids
                raise StawvsError(
                    "BAD_VARIANT", f"variants are a list of variant ids, not {variants!r}"
                )
            try:
                chosen = check_variants(variants or [])
            except ValueError as exc:
                raise StawvsError("BAD_VARIANT", str(exc)) from None
            self.numplayers = state
            self.variants = chosen
            first = starting_position(state, chosen, seed)
            self._stack = [Entry(first, [], self._clock())]
        else:
            loaded = state_io.load_state(state)
            self.numplayers = loaded.numplayers
            self.variants = loaded.variants
            self._stack = loaded.stack
        self._index = len(self._stack) - 1
        self._preview: tuple[Position, list[dict[str, Any]], Move] | None = None
        self._just_moved = False

    # -- what is shown -------------------------------------------------------

    @property
    def _entry(self) -> Entry:
        return self._stack[self._index]

    @property
    def position(self) -> Position:
        """The position shown: the top of the stack, or the entry chosen by :meth:`load`."""
        return self._entry.position

    @property
    def currplayer(self) -> int:
        return self.position.currplayer

    @property
    def mode(self) -> Mode:
        return self.position.mode

    @property
    def lastmove(self) -> str | None:
        return self.position.lastmove

    @property
    def eliminated(self) -> list[int]:
        return list(self.position.eliminated)

    @property
    def gameover(self) -> bool:
        return self._entry.ended

    @property
    def winner(self) -> list[int]:
        return self._entry.winners

    @property
    def results(self) -> list[dict[str, Any]]:
        """The results of the last move (or of the partial move being previewed)."""
        if self._preview is not None:
            return _copy_json(self._preview[1])
        return _copy_json(self._entry.results)

    @property
    def stack(self) -> list[dict[str, Any]]:
        """The stack entries in their serialized form (a copy)."""
        return [_copy_json(state_io.entry_dict(e)) for e in self._stack]

    # -- moves ---------------------------------------------------------------

    def moves(self) -> list[str]:
        """Every legal complete move of the player to move; ``["pass"]`` when they
        must pass; ``[]`` once the game is over."""
        if self.gameover:
            return []
        return self.position.legal_move_strings()

    def has_moves(self) -> bool:
        """Whether the player to move has a move other than ``pass`` (fast)."""
        pos = self.position
        if self.gameover or pos.is_over:
            return False
        return pos.mode == "place" or not pos.must_pass()

    def random_move(self, rng: random.Random | None = None) -> str:
        """A uniformly chosen legal move (``""`` once the game is over)."""
        moves = self.moves()
        if not moves:
            return ""
        return (rng or random).choice(moves)

    def validate_move(self, m: object) -> ValidationResult:
        """Judge a move string for the player to move. Never raises."""
        shown = self._stack[self._index]
        return judge(shown.position, m, game_over=shown.ended).result(shown.position)

    def same_move(self, a: str, b: str) -> bool:
        """Whether two move strings denote the same move (case and spaces aside).

        Text that is no move at all denotes nothing, so it matches nothing.
        """
        try:
            return parse_move(a) == parse_move(b)
        except MoveSyntaxError:
            return False

    def move(self, m: str, partial: bool = False, trusted: bool = False) -> StawvsGame:
        """Apply a move and push it onto the stack; return ``self``.

        Raises :class:`~stawvs_ap.errors.IllegalMoveError` (with the code of
        :meth:`validate_move`, or ``INCOMPLETE`` for a partial move without
        ``partial=True``) and then changes nothing. With ``partial=True`` a
        valid move is only previewed: see :meth:`render` and :attr:`results`.
        ``trusted`` is accepted for host compatibility; moves are always checked,
        since checking is cheap and a bad move must never corrupt the game.
        """
        shown = self._stack[self._index]
        position = shown.position
        # Nearly every move is complete and legal: fast_accept says so without a
        # verdict, and whatever it declines gets judge's ordered checks below.
        move = None if partial or shown.ended else fast_accept(position, m)
        if move is None:
            verdict = judge_in_order(position, m, game_over=shown.ended)
            if verdict.code is not None or verdict.move is None:
                raise IllegalMoveError(verdict.code or "INVALID", verdict.message)
            move = verdict.move
            if partial:
                self._show_preview(move, verdict.complete == 1)
                return self
            if verdict.complete != 1:
                message = verdict.result(position).message
                raise IllegalMoveError("INCOMPLETE", f"That move is not finished. {message}")
        after, results = position.play(move)
        # Positional arguments: a keyword makes this call markedly slower.
        self._push(Entry(after, results, self._clock(), ENGINE_VERSION, position))
        return self

    def _show_preview(self, move: Move, complete: bool) -> None:
        pos = self.position
        if move.is_empty:
            self._preview = None
            return
        if complete:
            shown, results = pos.play(move)
            shown.currplayer = pos.currplayer
            shown.lastmove = pos.lastmove
        else:
            shown, results = pos.preview(move)
        self._preview = (shown, results, move)

    def _push(self, entry: Entry) -> None:
        if self._index + 1 < len(self._stack):
            del self._stack[self._index + 1 :]
        self._stack.append(entry)
        self._index = len(self._stack) - 1
        self._preview = None
        self._just_moved = True

    def handle_click(self, move: str, row: int, col: int, piece: str | None = None) -> ClickResult:
        """Extend ``move`` with a click on render square (``row``, ``col``).

        A new move starts with an empty ``move`` or in the placement phase;
        after ``FROM`` the click is ``TO`` (in ``hey`` also the claim of
        ``FROM``); after ``FROM-TO`` it is the claim. An invalid click returns
        the last valid prefix with ``valid`` False and the reason.
        """
        return click(self.position, move, row, col, game_over=self.gameover)

    # -- history -------------------------------------------------------------

    def load(self, idx: int = -1) -> StawvsGame:
        """Show the position after stack entry ``idx`` (negative counts from the end).

        A move made then continues from there and drops the later entries.
        """
        n = len(self._stack)
        if isinstance(idx, bool) or not isinstance(idx, int) or not -n <= idx < n:
            raise StawvsError("BAD_INDEX", f"there is no stack entry {idx!r} ({n} entries)")
        self._index = idx % n
        self._preview = None
        self._just_moved = False
        return self

    def undo(self) -> StawvsGame:
        """Drop the last stack entry and show the one before, completely."""
        if len(self._stack) <= 1:
            raise StawvsError("NO_UNDO", "There is no move to take back.")
        self._stack.pop()
        return self.load(-1)

    def move_history(self) -> list[list[str]]:
        """The moves of entries 1… grouped in rounds of ``numplayers``."""
        moves = [e.position.lastmove or "" for e in self._stack[1:]]
        n = self.numplayers
        return [moves[i : i + n] for i in range(0, len(moves), n)]

    def results_history(self) -> list[list[dict[str, Any]]]:
        """The non-empty result lists of the stack, in order."""
        return [_copy_json(e.results) for e in self._stack if e.results]

    # -- scores --------------------------------------------------------------

    def get_player_score(self, player: int) -> int:
        """The score of ``player`` (1-based) from their collection."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise StawvsError("BAD_PLAYER", f"there is no player {player!r}")
        if not 1 <= player <= self.numplayers:
            raise StawvsError("BAD_PLAYER", f"there is no player {player} in this game")
        return self.position.scores()[player - 1]

    def sidebar_scores(self) -> list[dict[str, Any]]:
        return [{"name": "Scores", "scores": self.position.scores()}]

    # -- endings outside the rules -------------------------------------------

    def resign(self, player: int) -> StawvsGame:
        """``player`` resigns: the game ends and every other player wins."""
        self._check_player(player)
        others = [p for p in range(1, self.numplayers + 1) if p != player]
        return self._end("resign", [{"type": "resigned", "player": player}], others)

    def timeout(self, player: int) -> StawvsGame:
        """``player`` ran out of time: the game ends and every other player wins."""
        self._check_player(player)
        others = [p for p in range(1, self.numplayers + 1) if p != player]
        return self._end("timeout", [{"type": "timeout", "player": player}], others)

    def draw(self) -> StawvsGame:
        """The players agreed a draw: everyone wins."""
        return self._end(
            "draw", [{"type": "drawagreed"}], list(range(1, self.numplayers + 1))
        )

    def abandoned(self) -> StawvsGame:
        """The game was abandoned: nobody wins."""
        return self._end("abandoned", [{"type": "gameabandoned"}], [])

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not (
            1 <= player <= self.numplayers
        ):
            raise StawvsError("BAD_PLAYER", f"there is no player {player!r} in this game")

    def _end(self, how: str, results: list[dict[str, Any]], winners: list[int]) -> StawvsGame:
        if self.gameover:
            raise IllegalMoveError("GAMEOVER", "The game is already over.")
        after = self.position._copy()
        after.lastmove = how
        results = [*results, {"type": "eog"}, {"type": "winners", "players": winners}]
        self._push(Entry(after, results, self._clock()))
        self._just_moved = False
        return self

    # -- output --------------------------------------------------------------

    def state(self, strip: bool = False, player: int | None = None) -> dict[str, Any]:
        """The serialized state as a JSON-ready dict (Stawvs hides nothing, so
        ``strip`` and ``player`` change nothing)."""
        return _copy_json(state_io.dump_state(self.numplayers, self.variants, self._stack))

    def serialize(self, strip: bool = False, player: int | None = None) -> str:
        """The serialized state as compact JSON, readable by Abstract Play's engine."""
        return state_text(self.numplayers, self.variants, self._stack)

    def clone(self) -> StawvsGame:
        """An independent copy (entries are immutable and shared)."""
        other = StawvsGame.__new__(StawvsGame)
        other.__dict__.update(self.__dict__)
        other._stack = list(self._stack)
        return other

    def render(self) -> dict[str, Any]:
        """The board for the Abstract Play renderer (CONTRACT §6)."""
        if self._preview is not None:
            shown, results, _ = self._preview
            return render.render(shown, results, numplayers=self.numplayers, exit_mark=True)
        return render.render(
            self.position, self._entry.results, numplayers=self.numplayers,
            exit_mark=self._just_moved,
        )

    def chat_log(self, names: Sequence[str] | None = None) -> list[list[str]]:
        """Per stack entry with results: ``[timestamp, sentence, …]``."""
        if not isinstance(names, list | tuple | None):
            raise StawvsError("BAD_ARGUMENT", f"names are a list of player names, not {names!r}")
        return chat.chat_log(self._stack, self.numplayers, names)

    def gen_record(self, **kwargs: Any) -> dict[str, Any]:
        """The record of this finished game (see :func:`stawvs_ap.records.gen_record`)."""
        from .records import gen_record  # late: records imports this module's users

        return gen_record(self, **kwargs)

    @classmethod
    def from_record(
        cls, record: object, *, initial: str | bytes | dict[str, Any] | None = None
    ) -> StawvsGame:
        """The game a record describes, every move replayed and validated
        (see :func:`stawvs_ap.replay.from_record`)."""
        from .replay import from_record  # late: replay imports this module

        return from_record(record, initial=initial)

    @staticmethod
    def info() -> str:
        """The game's metadata (CONTRACT §7) as JSON text."""
        return gameinfo_json(GAMEINFO)

    def get_variants(self) -> list[str]:
        """Display names of the active variants, with the default setup's name
        when no setup variant is on (as the game record's header lists them)."""
        return variant_display_names(self.variants)

    @property
    def version(self) -> str:
        return ENGINE_VERSION

    def __repr__(self) -> str:
        return (
            f"<StawvsGame {self.numplayers}p variants={self.variants} "
            f"ply={self._index} mode={self.mode} to_move={self.currplayer}>"
        )


def _copy_json(value: _T) -> _T:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}  # type: ignore[return-value]
    if isinstance(value, list):
        return [_copy_json(v) for v in value]  # type: ignore[return-value]
    return value
