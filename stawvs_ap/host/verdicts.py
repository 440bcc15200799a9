"""Judging a move for the player to move: the verdicts a host shows players.

:func:`judge` is the one judge: it parses the move, asks the rules core which
rule it breaks first (in the order of docs/CONTRACT.md §3) and says why in a
phrase of :mod:`stawvs_ap.host.messages`, worded in the player's language when
a host asks. It never raises.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ..core.moves import Move, MoveSyntaxError
from ..core.position import Position
from ..core.squares import SQUARE_NAMES
from ..errors import ErrorCode
from ..i18n import Argument, Catalogue, Message, Phrase
from .messages import (
    BAD_CLAIM,
    BAD_CLAIM_HEY,
    BAD_SLIDE,
    CANNOT_MOVE,
    CHOOSE_CAP,
    CHOOSE_CLAIM,
    CHOOSE_DEST,
    CHOOSE_HEY_CLAIM,
    CHOOSE_PLACEMENT,
    GAME_OVER,
    MALFORMED,
    MALFORMED_VALUE,
    MUST_PASS,
    NO_PASS_CAN_MOVE,
    NO_PASS_PLACING,
    NOT_A_MOVE,
    NOT_ONE_SQUARE,
    NOT_TEXT,
    NOT_YOUR_CAP,
    PASS_NOW,
    PLACE_HERE,
    PLACEMENT_TAKEN,
    SLIDE_AND_CLAIM,
    TOO_LONG,
    claimed,
)

__all__ = [
    "COMPLETE",
    "INCOMPLETE",
    "ValidationResult",
    "Verdict",
    "abstract_play_form",
    "instructions",
    "judge",
]

COMPLETE = 1
INCOMPLETE = -1


class ValidationResult:
    """What :meth:`StawvsGame.validate_move` says of a move.

    ``valid`` says whether the move is acceptable now; ``complete`` is 1 for a
    move that can be submitted, -1 for a valid partial move, None when invalid.
    ``canrender`` is True when the move may be applied with ``partial=True`` to
    preview it. ``code`` names the rejection. ``message`` is the sentence for the
    player, worded when it is read (most callers only look at ``valid``).

    It reads like the named tuple it once was: read-only fields in that order,
    unpacking, equality with a tuple of the same fields, :meth:`_asdict` and
    :meth:`_replace`.

    >>> from stawvs_ap import StawvsGame
    >>> verdict = StawvsGame(2, seed=1).validate_move("b7")
    >>> verdict
    ValidationResult(valid=True, message='Place your cap on b7.', complete=1,
                     canrender=True, code=None)
    >>> valid, message, *_ = verdict
    >>> verdict.to_dict() == {"valid": True, "message": message, "complete": 1, "canrender": True}
    True
    """

    __slots__ = (
        "_canrender",
        "_code",
        "_complete",
        "_position",
        "_text",
        "_valid",
        "_verdict",
        "_words",
    )
    __match_args__ = ("valid", "message", "complete", "canrender", "code")
    _fields = __match_args__

    _valid: bool
    _complete: int | None
    _canrender: bool | None
    _code: ErrorCode | None
    _text: str
    _verdict: Verdict | None
    _position: Position | None
    _words: Catalogue | None

    def __init__(
        self,
        valid: bool,
        message: str,
        complete: int | None = None,
        canrender: bool | None = None,
        code: ErrorCode | None = None,
    ) -> None:
        self._valid, self._text, self._complete = valid, message, complete
        self._canrender, self._code, self._verdict = canrender, code, None

    @classmethod
    def of(
        cls,
        verdict: Verdict,
        position: Position,
        words: Catalogue,
        complete: int | None = None,
        canrender: bool | None = None,
    ) -> ValidationResult:
        """The result of ``verdict`` on ``position``, its message in ``words``'
        language, made from the typed verdict only when read."""
        made = object.__new__(cls)  # not __init__: no words to give it yet
        made._valid = verdict.move is not None
        made._complete, made._canrender, made._code = complete, canrender, verdict.code
        made._verdict, made._position, made._words = verdict, position, words
        return made

    @property
    def valid(self) -> bool:
        return self._valid

    @property
    def message(self) -> str:
        verdict = self._verdict
        if verdict is None:
            return self._text
        assert self._position is not None and self._words is not None
        return verdict.worded(self._position, self._words)

    @property
    def complete(self) -> int | None:
        return self._complete

    @property
    def canrender(self) -> bool | None:
        return self._canrender

    @property
    def code(self) -> ErrorCode | None:
        return self._code

    def _astuple(self) -> tuple[bool, str, int | None, bool | None, ErrorCode | None]:
        return (self._valid, self.message, self._complete, self._canrender, self._code)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._astuple())

    def __len__(self) -> int:
        return len(self._fields)

    def __getitem__(self, index: int) -> Any:
        return self._astuple()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ValidationResult):
            other = other._astuple()
        return isinstance(other, tuple) and self._astuple() == other

    def __hash__(self) -> int:
        return hash(self._astuple())

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in zip(self._fields, self, strict=True))
        return f"ValidationResult({fields})"

    def __reduce__(self) -> tuple[type[ValidationResult], tuple[Any, ...]]:
        return ValidationResult, self._astuple()  # a copy keeps the words, not the game

    def _asdict(self) -> dict[str, Any]:
        """The fields by name, in order."""
        return dict(zip(self._fields, self._astuple(), strict=True))

    def _replace(self, **changes: Any) -> ValidationResult:
        """A copy with the fields ``changes`` names changed."""
        return ValidationResult(**{**self._asdict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        """The Abstract Play form: keys that are None are left out; codes as plain text."""
        return abstract_play_form(self._asdict())


def abstract_play_form(fields: dict[str, Any]) -> dict[str, Any]:
    """A verdict's fields as Abstract Play sends them: None left out, codes as text."""
    return {k: str(v) if k == "code" else v for k, v in fields.items() if v is not None}


class Verdict(NamedTuple):
    """A judged move: the parsed ``move`` when valid, else the ``code`` of the
    refusal and what was ``refused`` (the parsed move, the broken :class:`Move`,
    or the syntax error of a text that is no move). A verdict is worded only
    when asked (:meth:`phrase`, :meth:`result`): a host that just plays moves
    never reads the sentence."""

    move: Move | None
    complete: int | None = None
    code: ErrorCode | None = None
    refused: Move | MoveSyntaxError | None = None

    def phrase(self, position: Position) -> Phrase:
        """What the verdict tells the player: why the move is refused, what the
        move does, or what is to be done first."""
        if self.move is None:
            assert self.code is not None
            return _why(self.code, position, self.refused)
        if self.move.is_empty:
            return instructions(position)
        return Phrase(*_accepted(position, self.move))

    def worded(self, position: Position, words: Catalogue) -> str:
        """:meth:`phrase` in ``words``' language (an accepted move's words made
        without the phrase: its message and arguments go straight to the catalogue)."""
        move = self.move
        if move is None or move.is_empty:
            return words.say(self.phrase(position))
        return words.format(*_accepted(position, move))

    def result(self, position: Position, words: Catalogue) -> ValidationResult:
        """The public verdict, its message for the player in ``words``' language
        (worded when read)."""
        move = self.move
        if move is None:
            return ValidationResult.of(self, position, words)
        if move.is_empty:
            return ValidationResult.of(self, position, words, INCOMPLETE)
        return ValidationResult.of(
            self, position, words, self.complete, None if move.is_pass else True
        )


def judge(position: Position, text: object, *, game_over: bool = False) -> Verdict:
    """Judge ``text`` (a move string or a :class:`Move`) as the next move of
    ``position``'s player to move."""
    if game_over:
        return Verdict(None, code=ErrorCode.GAMEOVER)
    if type(text) is Move:
        move = text
        if not move.is_well_formed():
            return Verdict(None, code=ErrorCode.MALFORMED, refused=move)
    else:
        try:
            move = Move.parse(text)  # type: ignore[arg-type]  # refuses non-text itself
        except MoveSyntaxError as exc:
            return Verdict(None, code=ErrorCode.MALFORMED, refused=exc)
    code = position.problem(move)
    if code is not None:
        return Verdict(None, code=code, refused=move)
    complete = COMPLETE if position.is_complete(move) else INCOMPLETE
    # Not Verdict(...): a named tuple's generated __new__ costs as much again, on every move.
    return tuple.__new__(Verdict, (move, complete, None, None))


def _syntax(error: MoveSyntaxError) -> Phrase:
    """What a text that is no move breaks, in words."""
    if error.problem == "not-text":
        return Phrase(NOT_TEXT, {"type": error.subject})
    if error.problem == "too-long":
        return Phrase(TOO_LONG, {"limit": error.subject})
    return Phrase(NOT_A_MOVE, {"text": repr(error.subject)})


def _why(code: ErrorCode, position: Position, refused: Move | MoveSyntaxError | None) -> Phrase:
    """The phrase that explains a refusal to the player."""
    if code is ErrorCode.GAMEOVER:
        return Phrase(GAME_OVER)
    if isinstance(refused, MoveSyntaxError):
        return Phrase(MALFORMED, {"problem": _syntax(refused)})
    assert refused is not None
    move = refused
    if code is ErrorCode.MALFORMED:
        return Phrase(MALFORMED_VALUE, {"fields": repr(tuple(move))})
    source = SQUARE_NAMES[move.source] if move.source is not None else ""
    dest = SQUARE_NAMES[move.dest] if move.dest is not None else ""
    target = SQUARE_NAMES[move.target] if move.target is not None else ""
    if code is ErrorCode.NOPASS:
        return Phrase(NO_PASS_PLACING if position.mode == "place" else NO_PASS_CAN_MOVE)
    if code is ErrorCode.BAD_PLACEMENT:
        if move.dest is not None:
            return Phrase(NOT_ONE_SQUARE)
        return Phrase(PLACEMENT_TAKEN, {"square": source})
    if code is ErrorCode.MUST_PASS:
        return Phrase(MUST_PASS)
    if code is ErrorCode.BAD_START:
        return Phrase(NOT_YOUR_CAP, {"square": source})
    if code is ErrorCode.BAD_MOVE:
        return Phrase(BAD_SLIDE, {"source": source, "dest": dest})
    if code is ErrorCode.BAD_CLAIM_HEY:
        return Phrase(BAD_CLAIM_HEY, {"source": source})
    return Phrase(BAD_CLAIM, {"target": target, "dest": dest})


def _accepted(position: Position, move: Move) -> tuple[Message, dict[str, Argument]]:
    """What an accepted move (complete or partial) tells the player: a message
    and its arguments (a phrase, made only when one is kept)."""
    source, dest, target = move.source, move.dest, move.target
    names = SQUARE_NAMES
    if target is not None:
        assert source is not None and dest is not None
        return SLIDE_AND_CLAIM, {
            "source": names[source],
            "dest": names[dest],
            "pyramid": claimed(position.board[target]),
            "target": names[target],
        }
    if move.is_pass:
        return PASS_NOW, {}
    assert source is not None
    if position.mode == "place":
        return PLACE_HERE, {"square": names[source]}
    if dest is None:
        return CHOOSE_DEST, {"source": names[source]}
    if position.rules.hey:
        return CHOOSE_HEY_CLAIM, {"source": names[source]}
    return CHOOSE_CLAIM, {"dest": names[dest]}


def instructions(position: Position) -> Phrase:
    """What the player to move is to do first."""
    if position.mode == "place":
        return Phrase(CHOOSE_PLACEMENT)
    if position.must_pass():
        if position.currplayer in position.eliminated:
            return Phrase(MUST_PASS)
        return Phrase(CANNOT_MOVE)
    return Phrase(CHOOSE_CAP)
