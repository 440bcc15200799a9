"""The host contract (docs/CONTRACT.md §3): :class:`StawvsGame`, the object a game host drives.

It keeps the stack of entries (each an immutable position, the move that made
it, what happened and when), judges and applies moves, builds moves from
clicks and answers the history, scoring and ending calls. It is also a Python
API in its own right: typed moves (:attr:`legal_moves`, :meth:`push`,
:meth:`pop`, :meth:`peek`) and games from any position (:meth:`from_position`).
It is longer than most: the host contract is one class of many short calls.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ..core.invariants import check_position
from ..core.moves import Move, MoveSyntaxError
from ..core.position import Mode, Position
from ..core.variants import check_variants, rules_for
from ..errors import ErrorCode, IllegalMoveError, InvalidStateError, StawvsError
from ..state.entry import ENGINE_VERSION, Entry, ends_game
from ..state.reader import load_state
from ..state.timestamps import utc_now
from ..state.writer import state_dict, to_json
from . import chat, render
from .clicks import ClickResult, click
from .metadata import GAMEINFO, GameInfo, gameinfo_json, variant_display_names
from .record import gen_record
from .verdicts import COMPLETE, ValidationResult, judge

__all__ = ["Clock", "StawvsGame"]

#: Gives the timestamp of each new stack entry (see :func:`stawvs_ap.state.timestamps.utc_now`).
Clock = Callable[[], str]
StateDoc = str | bytes | bytearray | dict[str, Any]
#: What a new game's board is drawn from: anything :class:`random.Random` takes.
Seed = int | float | str | bytes | None


class StawvsGame:
    """A game of Stawvs as a host (or a Python program) sees it.

    ``StawvsGame(3, variants=["hole"], seed=7)`` (or :meth:`new`) starts a new
    game: same seed and variants, same board. ``StawvsGame(serialized)`` (or
    :meth:`from_state`) re-creates one from a state written by this engine or
    by Abstract Play's and refuses a broken one with
    :class:`~stawvs_ap.errors.InvalidStateError`.

    >>> game = StawvsGame.new(2, variants=["hole"], seed=7)
    >>> game.moves()[:4], len(game.moves())
    (['a8', 'b8', 'c8', 'd8'], 60)
    >>> verdict = game.validate_move("d5")  # a centre square: no pyramid with hole
    >>> verdict.valid, verdict.code
    (False, <ErrorCode.BAD_PLACEMENT: 'BAD_PLACEMENT'>)
    >>> game.validate_move("b2").complete
    1
    >>> game.move("b2").move("c2").currplayer  # move() returns the game
    1
    >>> state = game.serialize()  # Abstract Play's state format, as text
    >>> StawvsGame(state).serialize() == state
    True
    >>> game.undo().lastmove, len(game.stack)  # the stack: the start and one move
    ('b2', 2)
    """

    gameinfo: ClassVar[GameInfo] = GAMEINFO

    def __init__(
        self,
        state: int | StateDoc = 2,
        variants: Sequence[str] | None = None,
        seed: Seed = None,
        *,
        clock: Clock | None = None,
    ) -> None:
        self._clock: Clock = clock or utc_now
        if isinstance(state, bool) or not isinstance(state, int | str | bytes | bytearray | dict):
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"a game starts from a player count or a serialized state, not {state!r}",
            )
        if isinstance(state, int):
            self._start_new(state, variants, seed)
            return
        if variants is not None or seed is not None:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                "variants and a seed choose a new game; a serialized state already has them",
            )
        loaded = load_state(state)
        self._setup(loaded.numplayers, loaded.variants, loaded.stack)

    def _start_new(self, players: int, variants: object, seed: object) -> None:
        if not 2 <= players <= 4:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"Stawvs is for 2 to 4 players, not {players}"
            )
        if not isinstance(seed, int | float | str | bytes | None):  # what random takes
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"a seed is a number or text, not {seed!r}")
        if not isinstance(variants, list | tuple | None):  # a str is not a list of ids
            raise StawvsError(
                ErrorCode.BAD_VARIANT, f"variants are a list of variant ids, not {variants!r}"
            )
        try:
            start = Position.initial(players, variants or (), seed)
        except ValueError as exc:
            raise StawvsError(ErrorCode.BAD_VARIANT, str(exc)) from None
        self._setup(players, list(variants or ()), [Entry(start, None, (), self._clock())])

    def _setup(self, numplayers: int, variants: list[str], stack: list[Entry]) -> None:
        self.numplayers = numplayers
        self.variants = variants
        self._stack = stack
        self._index = len(stack) - 1
        # What a partial move shows (position, results), and whether to mark the
        # square a cap just left: only an object that has just moved shows it.
        self._preview: tuple[Position, list[dict[str, Any]]] | None = None
        self._just_moved = False

    @classmethod
    def new(
        cls,
        players: int,
        variants: Sequence[str] = (),
        seed: Seed = None,
        *,
        clock: Clock | None = None,
    ) -> StawvsGame:
        """A new game for 2–4 ``players``; the same ``seed`` and variants give the same board."""
        return cls(players, list(variants), seed, clock=clock)

    @classmethod
    def from_state(cls, doc: StateDoc, *, clock: Clock | None = None) -> StawvsGame:
        """The game a serialized state holds (JSON text, bytes or a parsed dict)."""
        return cls(doc, clock=clock)

    @classmethod
    def from_position(
        cls,
        notation: str | Position,
        variants: Sequence[str] = (),
        *,
        clock: Clock | None = None,
    ) -> StawvsGame:
        """A game that starts from the position a notation describes (see
        :meth:`Position.notation <stawvs_ap.core.position.Position.notation>`), or
        from a :class:`Position` of these variants, for puzzles, tests and
        analysis. Raises :class:`InvalidStateError` with code ``BAD_POSITION``
        for a position that breaks a rule.

        Such a game serializes like any other, but Abstract Play states must
        start from a new game's position, so its state does not load again:
        keep the notation and the moves instead.
        """
        try:
            check_variants(variants)
        except ValueError as exc:
            raise StawvsError(ErrorCode.BAD_VARIANT, str(exc)) from None
        if type(notation) is Position:
            position = notation
            if position.rules != rules_for(position.rules.numplayers, variants):
                raise StawvsError(
                    ErrorCode.BAD_VARIANT, "the position is played under other variants"
                )
        else:
            try:
                position = Position.from_notation(notation, variants)  # type: ignore[arg-type]
            except ValueError as exc:
                raise InvalidStateError(ErrorCode.BAD_POSITION, f"not a position: {exc}") from None
        check_position(position)
        game = cls.__new__(cls)
        game._clock = clock or utc_now
        game._setup(
            position.rules.numplayers, list(variants), [Entry(position, None, (), game._clock())]
        )
        return game

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
        return self._entry.lastmove

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
            return json.loads(json.dumps(self._preview[1]))  # type: ignore[no-any-return]
        return self._entry.results

    @property
    def stack(self) -> list[dict[str, Any]]:
        """The stack entries in their serialized form (a copy)."""
        return self.state()["stack"]  # type: ignore[no-any-return]

    def is_eliminated(self, player: int) -> bool:
        """Whether ``player`` has passed (and so only passes from now on)."""
        self._check_player(player)
        return player in self.position.eliminated

    # -- moves ---------------------------------------------------------------

    @property
    def legal_moves(self) -> list[Move]:
        """Every legal complete move of the player to move, as :class:`Move` values."""
        return [] if self.gameover else list(self.position.legal_moves())

    def moves(self) -> list[str]:
        """Every legal complete move of the player to move; ``["pass"]`` when they
        must pass; ``[]`` once the game is over."""
        return [] if self.gameover else self.position.legal_move_strings()

    def has_moves(self) -> bool:
        """Whether the player to move has a move other than ``pass``."""
        if self.gameover:
            return False
        return self.position.mode == "place" or not self.position.must_pass()

    def random_move(self, rng: random.Random | None = None) -> str:
        """A uniformly chosen legal move (``""`` once the game is over)."""
        moves = self.moves()
        return (rng or random).choice(moves) if moves else ""

    def validate_move(self, m: object) -> ValidationResult:
        """Judge a move (a string or a :class:`Move`) for the player to move. Never raises."""
        position = self.position
        return judge(position, m, game_over=self.gameover).result(position)

    def is_legal(self, m: object) -> bool:
        """Whether ``m`` (a string or a :class:`Move`) is a legal complete move now."""
        result = self.validate_move(m)
        return result.valid and result.complete == COMPLETE

    def same_move(self, a: object, b: object) -> bool:
        """Whether two moves (strings or :class:`Move` values) are the same move, case
        and spaces aside. What is no move at all matches nothing."""
        try:
            first, second = (m if type(m) is Move else Move.parse(m) for m in (a, b))  # type: ignore[arg-type]
        except MoveSyntaxError:
            return False
        return first.is_well_formed() and first == second

    def move(self, m: str | Move, partial: bool = False, trusted: bool = False) -> StawvsGame:
        """Apply a move and push it onto the stack; return ``self``.

        Raises :class:`~stawvs_ap.errors.IllegalMoveError` (with the code of
        :meth:`validate_move`, or ``INCOMPLETE`` for a partial move without
        ``partial=True``) and then changes nothing. With ``partial=True`` a
        valid move is only previewed: see :meth:`render` and :attr:`results`.
        ``trusted`` is accepted for host compatibility; moves are always
        checked, since checking is cheap and a bad move must never corrupt a game.
        """
        shown = self._stack[self._index]
        position = shown.position
        # ends_game rather than the property shown.ended, which costs a call from C.
        verdict = judge(position, m, game_over=ends_game(shown.events))
        move = verdict.move
        if move is None:
            assert verdict.code is not None
            raise IllegalMoveError(verdict.code, verdict.message)
        if partial:
            self._show_preview(move, verdict.complete == COMPLETE)
            return self
        if verdict.complete != COMPLETE:
            message = verdict.result(position).message
            raise IllegalMoveError(ErrorCode.INCOMPLETE, f"That move is not finished. {message}")
        self._push(shown.after(move, self._clock()))
        return self

    def push(self, m: str | Move) -> None:
        """Play a legal complete move, validated as :meth:`move` validates it."""
        self.move(m)

    def pop(self) -> Move | None:
        """Take back the last entry and return its move (None for an ending such
        as a resignation). Raises ``NO_UNDO`` at the start of the game."""
        lastmove = self._stack[-1].lastmove
        self.undo()
        return self._as_move(lastmove)

    def peek(self) -> Move | None:
        """The move that led to the position shown (None at the start, or for an ending)."""
        return self._as_move(self.lastmove)

    @staticmethod
    def _as_move(lastmove: str | None) -> Move | None:
        try:
            return None if lastmove is None else Move.parse(lastmove)
        except MoveSyntaxError:  # an ending: resign, timeout, draw, abandoned
            return None

    def _show_preview(self, move: Move, complete: bool) -> None:
        position = self.position
        if move.is_empty:
            self._preview = None
            return
        if complete:
            shown, events = position.play(move)
            # A preview shows the move's effect; the turn stays with the player.
            shown = shown.replace(currplayer=position.currplayer)
            self._preview = (shown, Entry(shown, None, events, "").results)
        elif move.dest is None:
            source = str(move.source) if move.source is not None else ""
            self._preview = (position, [{"type": "move", "from": source, "to": ""}])
        else:
            assert move.source is not None
            shown = position.with_cap_moved(move.source, move.dest)
            self._preview = (
                shown,
                [{"type": "move", "from": str(move.source), "to": str(move.dest)}],
            )

    def _push(self, entry: Entry) -> None:
        stack = self._stack
        if self._index + 1 < len(stack):  # after load(i): the later entries go
            del stack[self._index + 1 :]
        stack.append(entry)
        self._index = len(stack) - 1
        self._preview = None
        self._just_moved = True

    def handle_click(self, move: str, row: int, col: int, piece: str | None = None) -> ClickResult:
        """Extend ``move`` with a click on render square (``row``, ``col``); see
        :func:`stawvs_ap.host.clicks.click`."""
        return click(self.position, move, row, col, game_over=self.gameover)

    # -- history -------------------------------------------------------------

    def load(self, idx: int = -1) -> StawvsGame:
        """Show the position after stack entry ``idx`` (negative counts from the end).
        A move made then continues from there and drops the later entries."""
        n = len(self._stack)
        if isinstance(idx, bool) or not isinstance(idx, int) or not -n <= idx < n:
            raise StawvsError(ErrorCode.BAD_INDEX, f"there is no stack entry {idx!r} ({n} entries)")
        self._index = idx % n
        self._preview = None
        self._just_moved = False
        return self

    def undo(self) -> StawvsGame:
        """Drop the last stack entry and show the one before, completely."""
        if len(self._stack) <= 1:
            raise StawvsError(ErrorCode.NO_UNDO, "There is no move to take back.")
        self._stack.pop()
        return self.load(-1)

    def move_history(self) -> list[list[str]]:
        """The moves of entries 1… grouped in rounds of ``numplayers``."""
        moves = [e.lastmove or "" for e in self._stack[1:]]
        n = self.numplayers
        return [moves[i : i + n] for i in range(0, len(moves), n)]

    def move_history_with_sequence(self) -> list[list[tuple[int, str]]]:
        """As :meth:`move_history`, each move paired with the player who made it."""
        moves = [
            (before.position.currplayer, entry.lastmove or "")
            for before, entry in zip(self._stack, self._stack[1:], strict=False)
        ]
        n = self.numplayers
        return [moves[i : i + n] for i in range(0, len(moves), n)]

    def results_history(self) -> list[list[dict[str, Any]]]:
        """The non-empty result lists of the stack, in order."""
        return [results for e in self._stack if (results := e.results)]

    def get_starting_position(self) -> str:
        """The first entry's position in the notation of :meth:`Position.notation
        <stawvs_ap.core.position.Position.notation>`."""
        return self._stack[0].position.notation()

    # -- scores and what a host shows beside the board -------------------------

    def get_player_score(self, player: int) -> int:
        """The score of ``player`` (1-based) from their collection."""
        self._check_player(player)
        return self.position.scores()[player - 1]

    def sidebar_scores(self) -> list[dict[str, Any]]:
        return [{"name": "Scores", "scores": self.position.scores()}]

    def sidebar_statuses(self) -> list[dict[str, Any]]:
        """Extra status lines for the sidebar: Stawvs shows none."""
        return []

    def get_buttons(self) -> list[dict[str, str]]:
        """Custom move buttons: Stawvs has none (``pass`` is a move like any other)."""
        return []

    def bot_context(self) -> None:
        """Context for external bots: Stawvs needs none beyond the state."""
        return None

    def description(self) -> str:
        return GAMEINFO.description

    def notes(self) -> str | None:
        """Notes for players beside the rules: Stawvs has none."""
        return None

    @staticmethod
    def allvariants() -> list[dict[str, Any]]:
        """Every variant: id, name, description and group."""
        return [v.model_dump(exclude_none=True) for v in GAMEINFO.variants]

    # -- endings outside the rules -------------------------------------------

    def resign(self, player: int) -> StawvsGame:
        """``player`` resigns: the game ends and every other player wins."""
        self._check_player(player)
        return self._end("resign", player)

    def timeout(self, player: int) -> StawvsGame:
        """``player`` ran out of time: the game ends and every other player wins."""
        self._check_player(player)
        return self._end("timeout", player)

    def draw(self) -> StawvsGame:
        """The players agreed a draw: everyone wins."""
        return self._end("draw", None)

    def abandoned(self) -> StawvsGame:
        """The game was abandoned: nobody wins."""
        return self._end("abandoned", None)

    def _check_player(self, player: object) -> None:
        if (
            isinstance(player, bool)
            or not isinstance(player, int)
            or not (1 <= player <= self.numplayers)
        ):
            raise StawvsError(ErrorCode.BAD_PLAYER, f"there is no player {player!r} in this game")

    def _end(self, how: str, player: int | None) -> StawvsGame:
        if self.gameover:
            raise IllegalMoveError(ErrorCode.GAMEOVER, "The game is already over.")
        self._push(self._entry.ended_by(how, player, self._clock()))
        self._just_moved = False
        return self

    # -- output --------------------------------------------------------------

    def state(self, strip: bool = False, player: int | None = None) -> dict[str, Any]:
        """The serialized state as a JSON-ready dict of its own (Stawvs hides
        nothing, so ``strip`` and ``player`` change nothing)."""
        return json.loads(self.serialize())  # type: ignore[no-any-return]

    def serialize(self, strip: bool = False, player: int | None = None) -> str:
        """The serialized state as compact JSON, readable by Abstract Play's engine."""
        return to_json(state_dict(self.numplayers, self.variants, self._stack))

    def clone(self) -> StawvsGame:
        """An independent copy (entries are immutable and shared)."""
        other = StawvsGame.__new__(StawvsGame)
        other.__dict__.update(self.__dict__)
        other._stack = list(self._stack)
        return other

    def render(self) -> dict[str, Any]:
        """The board for the Abstract Play renderer (docs/CONTRACT.md §6)."""
        if self._preview is not None:
            shown, results = self._preview
            return render.render(shown, results, numplayers=self.numplayers, exit_mark=True)
        return render.render(
            self.position,
            self._entry.results,
            numplayers=self.numplayers,
            exit_mark=self._just_moved,
        )

    def chat_log(self, names: Sequence[str] | None = None) -> list[list[str]]:
        """Per stack entry with results: ``[timestamp, sentence, …]``."""
        if not isinstance(names, list | tuple | None):
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"names are a list of player names, not {names!r}"
            )
        return chat.chat_log(self._stack, self.numplayers, names)

    def gen_record(self, **kwargs: Any) -> dict[str, Any]:
        """The record of this finished game (see :func:`stawvs_ap.host.record.gen_record`)."""
        return gen_record(self._stack, self.numplayers, self.variants, clock=self._clock, **kwargs)

    @staticmethod
    def info() -> str:
        """The game's metadata (docs/CONTRACT.md §7) as JSON text."""
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
