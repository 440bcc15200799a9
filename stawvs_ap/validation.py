"""Judging a move string against a position: the verdicts a host shows players.

:func:`judge` applies the checks in the order CONTRACT §3 fixes, so the first
problem found is the one reported. It never raises.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from .board import PATHS, SQUARE_NAMES, square_at, square_name
from .notation import Move, MoveSyntaxError, parse_move
from .position import Position
from .pyramids import describe

__all__ = [
    "ClickResult", "ValidationResult", "Verdict", "click", "fast_accept", "judge", "judge_in_order",
]

COMPLETE = 1
INCOMPLETE = -1


class ValidationResult(NamedTuple):
    """What :meth:`StawvsGame.validate_move` says of a move string.

    ``complete`` is 1 for a move that can be submitted, -1 for a valid partial
    move, None when invalid. ``canrender`` is True when the move may be applied
    with ``partial=True`` to preview it. ``code`` names the rejection. Immutable
    (a named tuple: cheap to make, as hosts validate every submitted move).
    """

    valid: bool
    message: str
    complete: int | None = None
    canrender: bool | None = None
    code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The Abstract Play form: keys that are None are left out."""
        return {k: v for k, v in self._asdict().items() if v is not None}


class ClickResult(NamedTuple):
    """What :meth:`StawvsGame.handle_click` answers: the move built so far and its verdict."""

    move: str
    valid: bool
    message: str
    complete: int | None = None
    canrender: bool | None = None
    code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self._asdict().items() if v is not None}


class Verdict(NamedTuple):
    """A judged move. A rejection carries its ``code`` and ``message``; an accepted
    move carries the parsed ``move`` and describes itself only when asked (see
    :meth:`result`), since hosts that just play moves never read the sentence."""

    move: Move | None
    complete: int | None = None
    canrender: bool | None = None
    code: str | None = None
    message: str = ""

    @property
    def valid(self) -> bool:
        return self.code is None

    def result(self, position: Position) -> ValidationResult:
        """The public verdict, with the message for the player."""
        if self.code is not None:
            return ValidationResult(False, self.message, code=self.code)
        assert self.move is not None
        message = _accepted_message(position, self.move)
        return _new_result(ValidationResult, (True, message, self.complete, self.canrender, None))


def _reject(code: str, message: str) -> Verdict:
    return Verdict(None, code=code, message=message)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Move:
    # Hosts judge the same few move strings again and again (validate, then move).
    # Moves are immutable, so sharing them is safe; refusals are not cached.
    return parse_move(text)


def fast_accept(position: Position, text: object) -> Move | None:
    """The move ``text`` denotes, when it is a complete move that :func:`judge`
    accepts on a game that is not over (as ``Verdict(move, COMPLETE, True)``,
    or ``Verdict(move, COMPLETE)`` for ``pass``); None otherwise, and then only
    :func:`judge` can tell.

    Nearly every move a host plays or a loader replays is one of these, so this
    checks the same predicates as :func:`judge` inline (``free``, ``can_slide``,
    ``can_claim`` via :data:`PATHS`) without building a verdict. Anything it
    declines goes through the ordered checks, so which error is reported never
    depends on it; ``tests/test_fast_paths.py`` checks that it agrees with them.
    """
    if type(text) is not str:
        return None
    try:
        move = _parse_cached(text)
    except MoveSyntaxError:
        return None
    source, dest, target = move.source, move.dest, move.target
    if source is None:  # empty or pass
        return move if move.is_pass and position.must_pass() else None
    free = position.occupied & ~position.capped
    if position.mode == "place":
        return move if dest is None and free >> source & 1 else None
    if target is None:  # a partial move
        return None
    assert dest is not None
    player = position.currplayer
    if position.caps[source] != player or player in position.eliminated:
        return None
    path = PATHS[source][dest]
    if not path or path & ~free:
        return None
    if position.rules.hey:
        return move if target == source else None
    path = PATHS[dest][target]
    if not path or path & ~(free | 1 << source):
        return None
    return move


# Accepted complete verdicts, built as plain tuples: a NamedTuple's keyword-taking
# __new__ costs more than the fast check that precedes it.
_new_verdict = tuple.__new__


def judge(position: Position, text: object, *, game_over: bool = False) -> Verdict:
    """Judge ``text`` as the next move of ``position``'s player to move.

    Complete legal moves are taken by :func:`fast_accept`; everything else gets
    :func:`judge_in_order`, whose verdict is the same for those moves too.
    """
    if not game_over:
        fast = fast_accept(position, text)
        if fast is not None:
            canrender = None if fast.is_pass else True
            return _new_verdict(Verdict, (fast, COMPLETE, canrender, None, ""))
    return judge_in_order(position, text, game_over=game_over)


def judge_in_order(position: Position, text: object, *, game_over: bool = False) -> Verdict:
    """:func:`judge` without its fast path: every check in CONTRACT §3's order."""
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
        return Verdict(move, INCOMPLETE)
    if move.is_pass:
        if position.must_pass():
            return Verdict(move, COMPLETE)
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
        return Verdict(move, COMPLETE, True)
    if move.is_full_collection and player in position.eliminated:
        return _reject("MUST_PASS", "You have passed, so from now on you can only pass.")
    if position.caps[source] != player:
        return _reject(
            "BAD_START",
            f"There is no cap of yours on {square_name(source)}: choose one of your own caps.",
        )
    if move.dest is None:
        return Verdict(move, INCOMPLETE, True)
    if not position.can_slide(source, move.dest):
        return _reject(
            "BAD_MOVE",
            f"Your cap on {square_name(source)} cannot slide to {square_name(move.dest)}: "
            "it moves in a straight line over pyramids without caps and stops on one.",
        )
    if move.target is None:
        return Verdict(move, INCOMPLETE, True)
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
    return Verdict(move, COMPLETE, True)


# Hosts validate every move submitted: accepted results are built as plain
# tuples, which a NamedTuple's keyword-taking __new__ makes slower.
_new_result = tuple.__new__


def _accepted_message(position: Position, move: Move) -> str:
    """What an accepted move (complete or partial) tells the player."""
    source, dest, target = move.source, move.dest, move.target
    if target is not None:  # nearly always: a complete collection move
        assert source is not None and dest is not None
        names = SQUARE_NAMES
        return (
            f"Slide from {names[source]} to {names[dest]} "
            f"and claim {describe(position.board[target])} on {names[target]}."
        )
    if move.is_empty:
        return _instructions(position)
    if move.is_pass:
        return "You have no move left, so you pass."
    assert source is not None
    if position.mode == "place":
        return f"Place your cap on {square_name(source)}."
    if dest is None:
        return f"Now choose where your cap on {square_name(source)} slides to."
    if position.rules.hey:
        return f"With simpler captures you claim the pyramid you leave: add ,{square_name(source)}."
    return f"Now choose the pyramid to claim from {square_name(dest)}."


def _instructions(position: Position) -> str:
    if position.mode == "place":
        return "Choose a pyramid with no cap on it to place one of your caps."
    if position.must_pass():
        if position.currplayer in position.eliminated:
            return "You have passed, so from now on you can only pass."
        return "None of your caps can move: you must pass."
    return "Choose one of your caps to move."


def click(
    position: Position, move: str, row: object, col: object, *, game_over: bool = False
) -> ClickResult:
    """Extend ``move`` with a click on render square (``row``, ``col``), as
    :meth:`StawvsGame.handle_click` promises."""
    sq = square_at(row, col) if type(row) is int and type(col) is int else None
    prefix = _valid_prefix(position, move, game_over)
    if sq is None:
        return ClickResult(prefix, False, "That click is not on the board.", code="MALFORMED")
    try:
        current = parse_move(move)
    except MoveSyntaxError:
        current = Move()
    name = square_name(sq)
    if position.mode == "place" or current.is_empty:
        built = name
    elif current.is_pass or current.target is not None:
        return ClickResult(
            move, False, "That move is already complete: submit it, or start again.",
            code="EXTRA_CLAIMS",
        )
    elif current.dest is None:
        built = f"{current}-{name}"
        if position.rules.hey:
            built += f",{square_name(current.source or 0)}"
    else:
        built = f"{current},{name}"
    result = judge(position, built, game_over=game_over).result(position)
    if not result.valid:
        return ClickResult(prefix, False, result.message, code=result.code)
    return ClickResult(built, True, result.message, result.complete, result.canrender)


def _valid_prefix(position: Position, move: str, game_over: bool) -> str:
    """The longest prefix of ``move`` (whole, ``FROM-TO``, ``FROM``, "") that is valid."""
    if position.mode == "place":
        return ""
    try:
        parsed = parse_move(move)
    except MoveSyntaxError:
        return ""
    for candidate in (parsed, Move(parsed.source, parsed.dest), Move(parsed.source)):
        text = str(candidate)
        if not candidate.is_empty and judge(position, text, game_over=game_over).valid:
            return text
    return ""
