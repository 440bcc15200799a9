"""Judging a move for the player to move: the verdicts a host shows players.

:func:`judge` is the one judge: it parses the move, asks the rules core which
rule it breaks first (in the order of docs/CONTRACT.md §3) and says why in a
phrase of :mod:`stawvs_ap.host.messages`, worded in the player's language when
a host asks. It never raises.
"""

from __future__ import annotations

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


class ValidationResult(NamedTuple):
    """What :meth:`StawvsGame.validate_move` says of a move.

    ``complete`` is 1 for a move that can be submitted, -1 for a valid partial
    move, None when invalid. ``canrender`` is True when the move may be applied
    with ``partial=True`` to preview it. ``code`` names the rejection.
    """

    valid: bool
    message: str
    complete: int | None = None
    canrender: bool | None = None
    code: ErrorCode | None = None

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

    def result(self, position: Position, words: Catalogue) -> ValidationResult:
        """The public verdict, with its message for the player in ``words``' language."""
        move = self.move
        if move is None:
            return ValidationResult(False, words.say(self.phrase(position)), code=self.code)
        if move.is_empty:
            return ValidationResult(True, words.say(instructions(position)), INCOMPLETE)
        message = words.format(*_accepted(position, move))
        return ValidationResult(True, message, self.complete, None if move.is_pass else True)


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
