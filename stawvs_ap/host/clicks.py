"""Building a move from clicks on the rendered board (docs/CONTRACT.md §3)."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.moves import Move, MoveSyntaxError
from ..core.position import Position
from ..core.squares import SQUARE_NAMES, square_at
from ..errors import ErrorCode
from ..i18n import Catalogue, catalogue
from .messages import ALREADY_COMPLETE, OFF_BOARD
from .verdicts import abstract_play_form, judge

__all__ = ["ClickResult", "click"]


class ClickResult(NamedTuple):
    """What :meth:`StawvsGame.handle_click` answers: the move built so far and its verdict."""

    move: str
    valid: bool
    message: str
    complete: int | None = None
    canrender: bool | None = None
    code: ErrorCode | None = None

    def to_dict(self) -> dict[str, Any]:
        """The Abstract Play form: keys that are None are left out; codes as plain text."""
        return abstract_play_form(self._asdict())


def click(
    position: Position,
    move: str,
    row: object,
    col: object,
    *,
    game_over: bool = False,
    words: Catalogue | None = None,
) -> ClickResult:
    """Extend ``move`` with a click on render square (``row``, ``col``).

    With an empty move or in the placement phase the click starts a new move;
    after ``FROM`` it adds ``-TO`` (with ``hey`` also ``,FROM``); after
    ``FROM-TO`` it adds ``,TARGET``; a complete move is refused
    (``EXTRA_CLAIMS``) and comes back unchanged. An invalid click returns the
    last valid prefix of ``move`` with the reason. Messages are in ``words``'
    language (default English).
    """
    words = words or catalogue()
    sq = square_at(row, col)
    prefix = _valid_prefix(position, move, game_over)
    if sq is None:
        return ClickResult(prefix, False, words.say(OFF_BOARD), code=ErrorCode.MALFORMED)
    try:
        current = Move.parse(move)
    except MoveSyntaxError:
        current = Move()
    name = SQUARE_NAMES[sq]
    if position.mode == "place" or current.is_empty:
        built = name
    elif current.is_pass or current.target is not None:
        return ClickResult(
            move,
            False,
            words.say(ALREADY_COMPLETE),
            code=ErrorCode.EXTRA_CLAIMS,
        )
    elif current.dest is None:
        built = f"{current}-{name}"
        if position.rules.hey:
            built += f",{current}"
    else:
        built = f"{current},{name}"
    result = judge(position, built, game_over=game_over).result(position, words)
    if not result.valid:
        return ClickResult(prefix, False, result.message, code=result.code)
    return ClickResult(built, True, result.message, result.complete, result.canrender)


def _valid_prefix(position: Position, move: str, game_over: bool) -> str:
    """The longest prefix of ``move`` (whole, ``FROM-TO``, ``FROM``) that is valid, or ""."""
    if position.mode == "place":
        return ""
    try:
        parsed = Move.parse(move)
    except MoveSyntaxError:
        return ""
    for candidate in parsed.prefixes:
        if judge(position, candidate, game_over=game_over).move is not None:
            return str(candidate)
    return ""
