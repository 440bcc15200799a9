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
from typing import Any, ClassVar, Final, cast

from ..core.invariants import check_position
from ..core.moves import Move, MoveSyntaxError
from ..core.position import MAX_SEED, Mode, Position, is_seed
from ..core.variants import check_variants, rules_for
from ..errors import (
    ErrorCode,
    IllegalMoveError,
    InvalidRecordError,
    InvalidStateError,
    StawvsError,
    excerpt,
)
from ..i18n import Catalogue, Phrase, catalogue
from ..state.entry import ENGINE_VERSION, Entry, ends_game
from ..state.reader import load_state
from ..state.timestamps import utc_now
from ..state.writer import Written, board_cells, write_state
from . import chat, render
from .botpayload import read_bot_payload, refused_move, start_state
from .clicks import ClickResult, click
from .messages import ALREADY_OVER, NOT_FINISHED, SCORES
from .metadata import GAMEINFO, GameInfo, gameinfo_in, gameinfo_json, variant_display_names
from .preview import Preview, preview
from .record import gen_record
from .verdicts import COMPLETE, ValidationResult, judge

__all__ = ["SEED_RANGE", "Clock", "StawvsGame", "check_seed", "variant_ids"]

#: Gives the timestamp of each new stack entry (see :func:`stawvs_ap.state.timestamps.utc_now`).
Clock = Callable[[], str]
StateDoc = str | bytes | bytearray | dict[str, Any]
#: What a new game's board is drawn from: a whole number from 0 to 2^63 - 1, or None.
Seed = int | None
#: What every refusal of a seed says first.
SEED_RANGE: Final = f"a seed is a whole number from 0 to 2^63-1 ({MAX_SEED})"


def variant_ids(variants: object) -> list[str]:
    """``variants``, a list or tuple of variant ids, checked (``BAD_VARIANT`` otherwise:
    a text, a set or a generator is not a list of ids)."""
    if not isinstance(variants, list | tuple):
        raise StawvsError(
            ErrorCode.BAD_VARIANT,
            f"variants are a list or tuple of variant ids, not {excerpt(variants)}",
        )
    try:
        return check_variants(variants)
    except ValueError as exc:
        raise StawvsError(ErrorCode.BAD_VARIANT, str(exc)) from None


def check_seed(seed: object) -> Seed:
    """``seed`` if it is a seed: a whole number from 0 to 2^63 - 1, or None (a
    fresh board); ``BAD_ARGUMENT`` naming the range otherwise. Text is refused
    even when it reads as a number, so that a host sending the JSON text ``"7"``
    never deals another board than the command line's ``--seed 7``.

    >>> check_seed(7)
    7
    >>> check_seed("7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stawvs_ap.errors.StawvsError: a seed is a whole number from 0 to 2^63-1 (...), not '7'
    """
    if seed is None or is_seed(seed):
        return cast(Seed, seed)
    raise StawvsError(ErrorCode.BAD_ARGUMENT, f"{SEED_RANGE}, not {excerpt(seed)}")


def _checked_clock(clock: object) -> Clock:
    if clock is None:
        return utc_now
    if not callable(clock):
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"clock must be a function, not {excerpt(clock)}")
    return clock


class StawvsGame:
    """A game of Stawvs as a host (or a Python program) sees it.

    ``StawvsGame(3, variants=["hole"], seed=7)`` (or :meth:`new`) starts a new
    game: same seed and variants, same board. ``StawvsGame(serialized)`` (or
    :meth:`from_state`) re-creates one from a state written by this engine or
    by Abstract Play's and refuses a broken one with
    :class:`~stawvs_ap.errors.InvalidStateError`.

    ``locale`` (a language tag such as ``"de"`` or ``"pt-BR"``; also the
    :attr:`locale` property) is the language of the words it says: verdicts,
    refusals of moves, the chat log, labels. Every call that returns words
    also takes a ``locale`` of its own. What hosts parse (states, results,
    records, codes) is the same in every language.

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
    #: The catalogue of the game's language (see :attr:`locale`).
    _catalogue: Catalogue = catalogue()

    def __init__(
        self,
        state: int | StateDoc = 2,
        variants: Sequence[str] | None = None,
        seed: Seed = None,
        *,
        clock: Clock | None = None,
        locale: str | None = None,
    ) -> None:
        self._clock: Clock = _checked_clock(clock)
        if locale is not None:
            self.locale = locale
        if isinstance(state, bool) or not isinstance(state, int | str | bytes | bytearray | dict):
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"a game starts from a player count or a serialized state, not {excerpt(state)}",
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
        self._setup(loaded.numplayers, loaded.variants, loaded.stack, loaded.written)

    def _start_new(self, players: int, variants: object, seed: object) -> None:
        if not 2 <= players <= 4:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"Stawvs is for 2 to 4 players, not {players}"
            )
        chosen = [] if variants is None else variant_ids(variants)
        start = Position.initial(players, chosen, check_seed(seed))
        self._setup(players, chosen, [Entry(start, None, (), self._clock())])

    def _setup(
        self,
        numplayers: int,
        variants: list[str],
        stack: list[Entry],
        written: Written | None = None,
    ) -> None:
        self.numplayers = numplayers
        self.variants = variants
        self._stack = stack
        self._index = len(stack) - 1
        # The entries written so far and their text (state.writer.write_state).
        self._written = written
        # What a partial move shows, and whether to mark the square a cap just
        # left: only an object that has just moved shows it.
        self._preview: Preview | None = None
        self._just_moved = False

    @classmethod
    def new(
        cls,
        players: int,
        variants: Sequence[str] = (),
        seed: Seed = None,
        *,
        clock: Clock | None = None,
        locale: str | None = None,
    ) -> StawvsGame:
        """A new game for 2–4 ``players``; the same ``seed`` and variants give the same board.
        ``variants`` is a list or tuple of variant ids (``BAD_VARIANT`` otherwise)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"a new game needs a player count, not {excerpt(players)}"
            )
        return cls(players, variant_ids(variants), seed, clock=clock, locale=locale)

    @classmethod
    def from_state(
        cls, doc: StateDoc, *, clock: Clock | None = None, locale: str | None = None
    ) -> StawvsGame:
        """The game a serialized state holds (JSON text, bytes or a parsed dict)."""
        return cls(doc, clock=clock, locale=locale)

    @classmethod
    def from_position(
        cls,
        notation: str | Position,
        variants: Sequence[str] = (),
        *,
        clock: Clock | None = None,
        locale: str | None = None,
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
        chosen = variant_ids(variants)
        if type(notation) is Position:
            position = notation
            if position.rules != rules_for(position.rules.numplayers, chosen):
                raise StawvsError(
                    ErrorCode.BAD_VARIANT, "the position is played under other variants"
                )
        else:
            try:
                position = Position.from_notation(notation, chosen)  # type: ignore[arg-type]
            except ValueError as exc:
                raise InvalidStateError(
                    f"not a position: {exc}", code=ErrorCode.BAD_POSITION
                ) from None
        check_position(position)
        game = cls.__new__(cls)
        game._clock = _checked_clock(clock)
        game._setup(position.rules.numplayers, chosen, [Entry(position, None, (), game._clock())])
        if locale is not None:
            game.locale = locale
        return game

    @classmethod
    def from_bot_payload(
        cls,
        payload: object,
        *,
        state: StateDoc | None = None,
        clock: Clock | None = None,
        locale: str | None = None,
    ) -> StawvsGame:
        """The game an outside bot is asked to move in, from a payload of Abstract
        Play's bot framework: ``numPlayers``, ``variants``, ``moves`` (rounds of
        moves in turn order) and ``context`` (what :meth:`bot_context` gives).

        The context's board must be a new game's board of those variants
        (``BAD_RECORD``), and every move is validated in turn: a history that
        does not replay is refused with ``BAD_RECORD`` naming the round and
        the move. Without a context, ``state`` (the game's serialized state,
        as Abstract Play's public ``get_game`` query answers it) is used instead:
        it is loaded with every check of a state, and must hold the payload's
        players, variants and exactly its moves (``BAD_RECORD`` otherwise).
        Fields of the wrong shape are ``BAD_ARGUMENT``, unknown or clashing
        variants ``BAD_VARIANT``.
        """
        read = read_bot_payload(payload)
        variants = variant_ids(read.variants)
        checked_clock = _checked_clock(clock)
        if read.board is None:
            if state is None:
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT,
                    "the payload has no context, and no state of the game was given",
                )
            return cls._from_fetched_state(read, variants, state, checked_clock, locale)
        doc = start_state(read.numplayers, variants, read.board, checked_clock())
        try:
            game = cls(doc, clock=checked_clock, locale=locale)
        except InvalidStateError as exc:
            raise InvalidRecordError(f"the context's board is no start: {exc.message}") from None
        for round_, place, move in read.moves:
            try:
                game.move(move)
            except IllegalMoveError as exc:
                raise refused_move(round_, place, move, exc.message) from None
        return game

    @classmethod
    def _from_fetched_state(
        cls,
        read: Any,
        variants: list[str],
        state: StateDoc,
        clock: Clock,
        locale: str | None,
    ) -> StawvsGame:
        try:
            game = cls(state, clock=clock, locale=locale)
        except InvalidStateError as exc:
            raise InvalidRecordError(f"the game's state does not load: {exc.message}") from None
        if game.numplayers != read.numplayers or game.variants != variants:
            raise InvalidRecordError(
                f"the game's state is of {game.numplayers} players and variants "
                f"{game.variants}, the payload of {read.numplayers} and {variants}"
            )
        played = [move for moves in game.move_history() for move in moves]
        sent = [move for _, _, move in read.moves]
        if played != sent:
            pairs = zip(played, sent, strict=False)
            first = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
            first = min(len(played), len(sent)) if first is None else first
            raise InvalidRecordError(
                f"the game's state has {len(played)} moves and the payload {len(sent)}; "
                f"they differ from move {first + 1} on"
            )
        return game

    # -- language --------------------------------------------------------------

    @property
    def locale(self) -> str:
        """The language of the game's words, as a tag (``"en"``, ``"de"``, ``"pt-BR"``).

        Set it to any language tag: ``"de-AT"`` gives ``"de"``, a language
        without a catalogue gives ``"en"``; it never fails on a tag.
        """
        return self._catalogue.language

    @locale.setter
    def locale(self, tag: str | None) -> None:
        self._catalogue = catalogue(tag)

    def _words(self, locale: str | None) -> Catalogue:
        return self._catalogue if locale is None else catalogue(locale)

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
            return self._preview.results
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
        """A uniformly chosen legal move (``""`` once the game is over), drawn by
        ``rng`` (a :class:`random.Random`; default: the module's generator)."""
        if rng is not None and not isinstance(rng, random.Random):
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"rng must be a random.Random, not {excerpt(rng)}"
            )
        moves = self.moves()
        return (rng or random).choice(moves) if moves else ""

    def validate_move(self, m: object, *, locale: str | None = None) -> ValidationResult:
        """Judge a move (a string or a :class:`Move`) for the player to move. Never raises.

        The message is in the game's language, or in ``locale``'s."""
        entry = self._stack[self._index]
        words = self._catalogue if locale is None else catalogue(locale)
        position = entry.position
        # ends_game rather than the property entry.ended, which costs a call from C.
        return judge(position, m, game_over=ends_game(entry.events)).result(position, words)

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
            raise IllegalMoveError(verdict.code, self._words(None).say(verdict.phrase(position)))
        if partial:
            self._preview = preview(position, move, verdict.complete == COMPLETE)
            return self
        if verdict.complete != COMPLETE:
            needed = Phrase(NOT_FINISHED, {"instruction": verdict.phrase(position)})
            raise IllegalMoveError(ErrorCode.INCOMPLETE, self._words(None).say(needed))
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

    def _push(self, entry: Entry) -> None:
        stack = self._stack
        if self._index + 1 < len(stack):  # after load(i): the later entries go
            del stack[self._index + 1 :]
        stack.append(entry)
        self._index = len(stack) - 1
        self._preview = None
        self._just_moved = True

    def handle_click(
        self,
        move: str,
        row: int,
        col: int,
        piece: str | None = None,
        *,
        locale: str | None = None,
    ) -> ClickResult:
        """Extend ``move`` with a click on render square (``row``, ``col``); see
        :func:`stawvs_ap.host.clicks.click`. The message is in the game's
        language, or in ``locale``'s."""
        words = self._words(locale)
        return click(self.position, move, row, col, game_over=self.gameover, words=words)

    # -- history -------------------------------------------------------------

    def load(self, idx: int = -1) -> StawvsGame:
        """Show the position after stack entry ``idx`` (negative counts from the end).
        A move made then continues from there and drops the later entries."""
        n = len(self._stack)
        if isinstance(idx, bool) or not isinstance(idx, int) or not -n <= idx < n:
            held = f"({n} entry)" if n == 1 else f"({n} entries)"
            raise StawvsError(ErrorCode.BAD_INDEX, f"there is no stack entry {excerpt(idx)} {held}")
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
        return [[move for _, move in round_] for round_ in self.move_history_with_sequence()]

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

    def sidebar_scores(self, *, locale: str | None = None) -> list[dict[str, Any]]:
        """The scores as the sidebar shows them, under a title in the game's language."""
        return [{"name": self._words(locale).say(SCORES), "scores": self.position.scores()}]

    def sidebar_statuses(self) -> list[dict[str, Any]]:
        """Extra status lines for the sidebar: Stawvs shows none."""
        return []

    def get_buttons(self) -> list[dict[str, str]]:
        """Custom move buttons: Stawvs has none (``pass`` is a move like any other)."""
        return []

    def bot_context(self) -> dict[str, list[Any]]:
        """What an outside bot needs beside the moves to rebuild the game:
        ``{"board": ENTRIES}``, the starting board's cells as the state writes
        them (see :meth:`from_bot_payload`).

        >>> game = StawvsGame.new(2, seed=7).move("b2")
        >>> context = game.bot_context()
        >>> len(context["board"]), context["board"][0]
        (60, ['a7', [['GR', 1]]])
        >>> payload = {"numPlayers": 2, "variants": [], "moves": game.move_history(),
        ...            "context": context}
        >>> StawvsGame.from_bot_payload(payload).position == game.position
        True
        """
        # A copy: the writer's cells are shared by every entry that shows them.
        cells = json.loads(json.dumps(board_cells(self._stack[0].position)))
        return {"board": cells}

    def description(self, *, locale: str | None = None) -> str:
        """The game's description for players, in the game's language (or ``locale``'s)."""
        return gameinfo_in(self._words(locale)).description

    def notes(self, *, locale: str | None = None) -> str | None:
        """Notes for players beside the rules: Stawvs has none, in any language."""
        return None

    @staticmethod
    def allvariants(*, locale: str | None = None) -> list[dict[str, Any]]:
        """Every variant: id, name, description and group (words in ``locale``'s
        language, default English)."""
        info = gameinfo_in(catalogue(locale))
        return [v.model_dump(exclude_none=True) for v in info.variants]

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
            raise StawvsError(
                ErrorCode.BAD_PLAYER, f"there is no player {excerpt(player)} in this game"
            )

    def _end(self, how: str, player: int | None) -> StawvsGame:
        if self.gameover:
            raise IllegalMoveError(ErrorCode.GAMEOVER, self._words(None).say(ALREADY_OVER))
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
        text, self._written = write_state(
            self.numplayers, self.variants, self._stack, self._written
        )
        return text

    def clone(self) -> StawvsGame:
        """An independent copy (entries are immutable and shared)."""
        other = StawvsGame.__new__(StawvsGame)
        other.__dict__.update(self.__dict__)
        other._stack = list(self._stack)
        return other

    def render(self, *, locale: str | None = None) -> dict[str, Any]:
        """The board for the Abstract Play renderer (docs/CONTRACT.md §6), its
        labels in the game's language (or ``locale``'s)."""
        words = self._words(locale)
        shown = self._preview
        if shown is not None:
            return render.render(
                shown.position,
                shown.events,
                numplayers=self.numplayers,
                exit_mark=True,
                partial=shown.partial,
                words=words,
            )
        return render.render(
            self.position,
            self._entry.events,
            numplayers=self.numplayers,
            exit_mark=self._just_moved,
            words=words,
        )

    def chat_log(
        self, names: Sequence[str] | None = None, *, locale: str | None = None
    ) -> list[list[str]]:
        """Per stack entry with results: ``[timestamp, sentence, …]``, in the
        game's language (or ``locale``'s)."""
        return chat.chat_log(self._stack, self.numplayers, names, self._words(locale))

    def moves_in_words(
        self, names: Sequence[str] | None = None, *, locale: str | None = None
    ) -> list[str]:
        """What each move played did, in the game's language (or ``locale``'s):
        one text per move, in the order of :meth:`move_history` (a game's end
        is told with its last move).

        >>> game = StawvsGame(2, seed=1)
        >>> game.move("b7").moves_in_words(["Ann", "Bob"])
        ['Ann placed a cap on the large green pyramid at b7.']
        """
        said = chat.entry_sentences(self._stack, self.numplayers, names, self._words(locale))
        return [" ".join(sentences) for sentences in said]

    def gen_record(self, **kwargs: Any) -> dict[str, Any]:
        """The record of this finished game (see :func:`stawvs_ap.host.record.gen_record`)."""
        return gen_record(self._stack, self.numplayers, self.variants, clock=self._clock, **kwargs)

    @staticmethod
    def info(*, locale: str | None = None) -> str:
        """The game's metadata (docs/CONTRACT.md §7) as JSON text; the
        description and the variants' names and descriptions in ``locale``'s
        language (default English)."""
        return gameinfo_json(gameinfo_in(catalogue(locale)))

    def get_variants(self, *, locale: str | None = None) -> list[str]:
        """Display names of the active variants, with the default setup's name
        when no setup variant is on (as the game record's header lists them,
        but in the game's language, or ``locale``'s)."""
        return variant_display_names(self.variants, self._words(locale))

    @property
    def version(self) -> str:
        return ENGINE_VERSION

    def __str__(self) -> str:
        """The text diagram of the position shown: board, last move, collections with
        their scores, and whose turn it is (:func:`~stawvs_ap.pictures.board_text`)."""
        # The pictures are a floor above the host: imported when asked for, never when
        # the game is (tests/test_layout.py allows this import and the next).
        from ..pictures.textboard import board_text

        return board_text(self).rstrip("\n")

    def _repr_svg_(self) -> str:
        """The position shown, drawn (:func:`~stawvs_ap.pictures.board_svg`): what a
        notebook shows of a game."""
        from ..pictures.svg import board_svg

        return board_svg(self)

    def __repr__(self) -> str:
        return (
            f"<StawvsGame {self.numplayers}p variants={self.variants} "
            f"ply={self._index} mode={self.mode} to_move={self.currplayer}>"
        )
