"""Judging a move string against a position: the verdicts a host shows players.

:func:`judge` applies the checks in the order CONTRACT §3 fixes, so the first
problem found is the one reported. It never raises.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from .board import square_name
from .notation import Move, MoveSyntaxError, parse_move
from .position import Position
from .pyramids import describe

__all__ = ["ClickResult", "ValidationResult", "Verdict", "judge"]

COMPLETE = 1
INCOMPLETE = -1


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """What :meth:`StawvsGame.validate_move` says of a move string.

    ``complete`` is 1 for a move that can be submitted, -1 for a valid partial
    move, None when invalid. ``canrender`` is True when the move may be applied
    with ``partial=True`` to preview it. ``code`` names the rejection.
    """

    valid: bool
    message: str
    complete: int | None = None
    canrender: bool | None = None
    code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The Abstract Play form: keys that are None are left out."""
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True, slots=True)
class ClickResult:
    """What :meth:`StawvsGame.handle_click` answers: the move built so far and its verdict."""

    move: str
    valid: bool
    message: str
    complete: int | None = None
    canrender: bool | None = None
    code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judged move: the public result and, when valid, the parsed move."""

    result: ValidationResult
    move: Move | None = None


def _reject(code: str, message: str) -> Verdict:
    return Verdict(ValidationResult(False, message, code=code))


def _accept(move: Move, message: str, complete: int, canrender: bool | None = True) -> Verdict:
    return Verdict(ValidationResult(True, message, complete, canrender), move)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Move:
    # Hosts judge the same few move strings again and again (validate, then move).
    # Moves are immutable, so sharing them is safe; refusals are not cached.
    return parse_move(text)


def judge(position: Position, text: object, *, game_over: bool = False) -> Verdict:
    """Judge ``text`` as the next move of ``position``'s player to move."""
    if game_over:
        return _reject("GAMEOVER", "The game is over: no more moves can be made.")
    try:
        move = _parse_cached(text) if isinstance(text, str) else parse_move(text)
    except MoveSyntaxError as exc:
        return _reject(
            "MALFORMED",
            f"That is not a move ({exc}). Write a square such as d5, a move such as "
            "c3-f6,f2, or pass.",
        )
    player = position.currplayer
    if move.is_empty:
        return _accept(move, _instructions(position), INCOMPLETE, None)
    if move.is_pass:
        if position.must_pass():
            return _accept(move, "You have no move left, so you pass.", COMPLETE, None)
        if position.mode == "place":
            return _reject("NOPASS", "You cannot pass while caps are being placed.")
        return _reject("NOPASS", "You cannot pass while one of your caps can still move.")
    source = move.source
    assert source is not None
    if position.mode == "place":
        if move.dest is not None:
            return _reject(
                "BAD_PLACEMENT", "While placing caps, a move is a single square, such as d5."
            )
        if not position.free >> source & 1:
            return _reject(
                "BAD_PLACEMENT",
                f"You cannot place a cap on {square_name(source)}: choose a pyramid "
                "with no cap on it.",
            )
        return _accept(move, f"Place your cap on {square_name(source)}.", COMPLETE)
    if move.is_full_collection and player in position.eliminated:
        return _reject("MUST_PASS", "You have passed, so from now on you can only pass.")
    if position.caps[source] != player:
        return _reject(
            "BAD_START",
            f"There is no cap of yours on {square_name(source)}: choose one of your own caps.",
        )
    if move.dest is None:
        return _accept(
            move, f"Now choose where your cap on {square_name(source)} slides to.", INCOMPLETE
        )
    if not position.can_slide(source, move.dest):
        return _reject(
            "BAD_MOVE",
            f"Your cap on {square_name(source)} cannot slide to {square_name(move.dest)}: "
            "it moves in a straight line over pyramids without caps and stops on one.",
        )
    if move.target is None:
        return _accept(
            move,
            f"Now choose the pyramid to claim from {square_name(move.dest)}.",
            INCOMPLETE,
        )
    if position.rules.hey and move.target != source:
        return _reject(
            "BAD_CLAIM_HEY",
            f"With simpler captures you must claim the pyramid you just left, on "
            f"{square_name(source)}.",
        )
    if not position.can_claim(source, move.dest, move.target):
        return _reject(
            "BAD_CLAIM",
            f"You cannot claim {square_name(move.target)} from {square_name(move.dest)}: "
            "claim a pyramid without a cap in a straight, unobstructed line from where "
            "your cap landed.",
        )
    claimed = describe(position.board[move.target])
    return _accept(
        move,
        f"Slide from {square_name(source)} to {square_name(move.dest)} and claim "
        f"{claimed} on {square_name(move.target)}.",
        COMPLETE,
    )


def _instructions(position: Position) -> str:
    if position.mode == "place":
        return "Choose a pyramid with no cap on it to place one of your caps."
    if position.must_pass():
        if position.currplayer in position.eliminated:
            return "You have passed, so from now on you can only pass."
        return "None of your caps can move: you must pass."
    return "Choose one of your caps to move."
