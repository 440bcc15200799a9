"""Judging a move for the player to move: the verdicts a host shows players.

:func:`judge` is the one judge: it parses the move, asks the rules core which
rule it breaks first (in the order of docs/CONTRACT.md §3) and words the answer
for players. It never raises.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.moves import Move, MoveSyntaxError
from ..core.position import Position
from ..core.squares import SQUARE_NAMES
from ..errors import ErrorCode
from ..state.results import describe

__all__ = [
    "COMPLETE",
    "INCOMPLETE",
    "ValidationResult",
    "Verdict",
    "abstract_play_form",
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
    """A judged move: the parsed ``move`` when valid, else the ``code`` and
    ``message`` of the refusal. Accepted moves are worded only when asked
    (:meth:`result`): a host that just plays moves never reads the sentence."""

    move: Move | None
    complete: int | None = None
    code: ErrorCode | None = None
    message: str = ""

    def result(self, position: Position) -> ValidationResult:
        """The public verdict, with its message for the player."""
        if self.move is None:
            return ValidationResult(False, self.message, code=self.code)
        if self.move.is_empty:
            return ValidationResult(True, _instructions(position), INCOMPLETE)
        canrender = None if self.move.is_pass else True
        return ValidationResult(True, _accepted(position, self.move), self.complete, canrender)


def judge(position: Position, text: object, *, game_over: bool = False) -> Verdict:
    """Judge ``text`` (a move string or a :class:`Move`) as the next move of
    ``position``'s player to move."""
    if game_over:
        return _refused(ErrorCode.GAMEOVER, "The game is over: no more moves can be made.")
    if type(text) is Move:
        move = text
        if not move.is_well_formed():
            return _refused(
                ErrorCode.MALFORMED, f"That is not a move ({tuple(move)!r} is no move of Stawvs)."
            )
    else:
        try:
            move = Move.parse(text)  # type: ignore[arg-type]  # refuses non-text itself
        except MoveSyntaxError as exc:
            return _refused(
                ErrorCode.MALFORMED,
                f"That is not a move ({exc}). Write a square such as d5, a move such as "
                "c3-f6,f2, or pass.",
            )
    code = position.problem(move)
    if code is not None:
        return _refused(code, _why(code, position, move))
    complete = COMPLETE if position.is_complete(move) else INCOMPLETE
    # Not Verdict(...): a named tuple's generated __new__ costs as much again, on every move.
    return tuple.__new__(Verdict, (move, complete, None, ""))


def _refused(code: ErrorCode, message: str) -> Verdict:
    return Verdict(None, code=code, message=message)


def _why(code: ErrorCode, position: Position, move: Move) -> str:
    """The sentence that explains a refusal to the player."""
    source = SQUARE_NAMES[move.source] if move.source is not None else ""
    dest = SQUARE_NAMES[move.dest] if move.dest is not None else ""
    target = SQUARE_NAMES[move.target] if move.target is not None else ""
    if code is ErrorCode.NOPASS:
        if position.mode == "place":
            return "You cannot pass while caps are being placed."
        return "You cannot pass while one of your caps can still move."
    if code is ErrorCode.BAD_PLACEMENT:
        if move.dest is not None:
            return "While placing caps, a move is a single square, such as d5."
        return f"You cannot place a cap on {source}: choose a pyramid with no cap on it."
    if code is ErrorCode.MUST_PASS:
        return "You have passed, so from now on you can only pass."
    if code is ErrorCode.BAD_START:
        return f"There is no cap of yours on {source}: choose one of your own caps."
    if code is ErrorCode.BAD_MOVE:
        return (
            f"Your cap on {source} cannot slide to {dest}: it moves in a straight line over "
            "pyramids without caps and stops on one."
        )
    if code is ErrorCode.BAD_CLAIM_HEY:
        return f"With simpler captures you must claim the pyramid you just left, on {source}."
    return (
        f"You cannot claim {target} from {dest}: claim a pyramid without a cap in a "
        "straight, unobstructed line from where your cap landed."
    )


def _accepted(position: Position, move: Move) -> str:
    """What an accepted move (complete or partial) tells the player."""
    source, dest, target = move.source, move.dest, move.target
    if target is not None:
        assert source is not None and dest is not None
        names = SQUARE_NAMES
        return (
            f"Slide from {names[source]} to {names[dest]} "
            f"and claim {describe(position.board[target])} on {names[target]}."
        )
    if move.is_pass:
        return "You have no move left, so you pass."
    assert source is not None
    if position.mode == "place":
        return f"Place your cap on {SQUARE_NAMES[source]}."
    if dest is None:
        return f"Now choose where your cap on {SQUARE_NAMES[source]} slides to."
    if position.rules.hey:
        return (
            f"With simpler captures you claim the pyramid you leave: add ,{SQUARE_NAMES[source]}."
        )
    return f"Now choose the pyramid to claim from {SQUARE_NAMES[dest]}."


def _instructions(position: Position) -> str:
    if position.mode == "place":
        return "Choose a pyramid with no cap on it to place one of your caps."
    if position.must_pass():
        if position.currplayer in position.eliminated:
            return "You have passed, so from now on you can only pass."
        return "None of your caps can move: you must pass."
    return "Choose one of your caps to move."
