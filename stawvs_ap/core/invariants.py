"""What every position obeys, and what a new game starts from: each rule once.

:func:`start_fault` says how a position differs from every start of a new game
of its variants (typed, so that the state loader and the record reader word it
each their own way); :func:`miscounted_kinds` and :func:`misplaced_gaps` are
the two board rules it is made of. :func:`check_position` refuses a position
no game of Stawvs can reach, for games started from a position notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

from ..errors import ErrorCode, InvalidStateError
from .position import EMPTY, Position
from .pyramids import PER_KIND, PYRAMIDS, Pyramid
from .squares import SQUARES, Square
from .variants import expected_gaps

__all__ = [
    "StartFault",
    "check_position",
    "is_new_game_start",
    "miscounted_kinds",
    "misplaced_gaps",
    "start_fault",
]


_KINDS: Final = tuple(range(len(PYRAMIDS)))
#: How many pyramids of each kind a new game has: five of each coloured kind, no ghost.
_NEW_GAME: Final = tuple(0 if kind.is_ghost else PER_KIND for kind in PYRAMIDS)


class StartFault(NamedTuple):
    """The first way a position differs from a new game's start.

    ``what`` is ``"caps"`` (a cap is on the board), ``"collections"`` (someone
    holds a pyramid), ``"mode"`` (not the placement phase), ``"turn"`` (not
    player 1 to move with nobody passed), ``"pyramids"`` (``found`` pyramids of
    kind ``pyramid``, where a new game has ``wanted``) or ``"gaps"`` (the empty
    squares are not ``gaps``, those of every new game of the variants).
    """

    what: Literal["caps", "collections", "mode", "turn", "pyramids", "gaps"]
    pyramid: Pyramid | None = None
    found: int = 0
    wanted: int = 0
    gaps: tuple[Square, ...] = ()


def miscounted_kinds(board: Sequence[int]) -> list[tuple[Pyramid, int, int]]:
    """``(kind, count, wanted)`` for each kind whose number on ``board`` is not a
    new game's: :data:`~stawvs_ap.core.pyramids.PER_KIND` of each coloured kind
    and no ghost; in pyramid order (the coloured kinds first)."""
    counts = [board.count(kind) for kind in _KINDS]  # counted in C
    return [
        (PYRAMIDS[kind], count, wanted)
        for kind, count, wanted in zip(_KINDS, counts, _NEW_GAME, strict=True)
        if count != wanted
    ]


def misplaced_gaps(board: Sequence[int], variants: Sequence[str]) -> tuple[Square, ...] | None:
    """The empty squares every new game of ``variants`` has, when those of
    ``board`` are not they; None when they are (always with ``random``)."""
    fixed = expected_gaps(variants)
    if fixed is None or [sq for sq in range(64) if board[sq] == EMPTY] == fixed:
        return None
    return tuple(SQUARES[sq] for sq in fixed)


def start_fault(position: Position, variants: Sequence[str]) -> StartFault | None:
    """How ``position`` differs from every position a new game of ``variants``
    starts from (the first difference, in the order of :class:`StartFault`);
    None when it is one."""
    if position.capped:
        return StartFault("caps")
    if any(position.captured):
        return StartFault("collections")
    if position.mode != "place":
        return StartFault("mode")
    if position.currplayer != 1 or position.eliminated:
        return StartFault("turn")
    for kind, count, wanted in miscounted_kinds(position.board):
        return StartFault("pyramids", kind, count, wanted)
    gaps = misplaced_gaps(position.board, variants)
    if gaps is not None:
        return StartFault("gaps", gaps=gaps)
    return None


def is_new_game_start(position: Position, variants: Sequence[str]) -> bool:
    """Whether ``position`` is one a new game of ``variants`` starts from."""
    return start_fault(position, variants) is None


def check_position(position: Position) -> None:
    """Refuse (``BAD_POSITION``) a position that breaks a rule: more than five
    pyramids of a kind, caps that do not fit the turn order or the caps each
    player has, passes before every cap is placed, fewer free pyramids than caps
    still to place, ghosts (on the board before the end, or in a collection), a
    game already over.

    A position in the collection phase may hold fewer caps than the players
    own: movement does not depend on it, and puzzles and tests use it."""

    def refuse(message: str) -> InvalidStateError:
        return InvalidStateError(message, code=ErrorCode.BAD_POSITION)

    rules = position.rules
    n = rules.numplayers
    if not 1 <= position.currplayer <= n:
        raise refuse(f"the player to move is player {position.currplayer}; there are {n}")
    if position.is_over:
        raise refuse("every player has passed: the game is over, there is nothing to play")
    if any(PYRAMIDS[p].is_ghost for c in position.captured for p in c):
        raise refuse("a collection holds a ghost; ghosts stay on the board under caps")
    caps = position.caps
    if any(not 0 <= owner <= n for owner in caps):
        raise refuse(f"a cap belongs to a player who is not in this {n}-player game")
    if any(caps[sq] and position.board[sq] == EMPTY for sq in range(64)):
        raise refuse("a cap stands on a square without a pyramid")
    if len(set(position.eliminated)) != len(position.eliminated) or any(
        not 1 <= p <= n for p in position.eliminated
    ):
        raise refuse("the passed players must be distinct players of the game")
    # Ghosts are refused below; the set's count is of the coloured pyramids anywhere.
    everywhere = [p for p in position.board if p != EMPTY and not PYRAMIDS[p].is_ghost]
    for collection in position.captured:
        everywhere.extend(collection)
    for kind, count, wanted in miscounted_kinds(everywhere):
        if count > wanted:
            raise refuse(f"there are {count} pyramids {kind.code}; the set has {wanted}")
    placed = [caps.count(p) for p in range(1, n + 1)]
    if any(count > rules.caps_per_player for count in placed):
        raise refuse(f"a player has more than {rules.caps_per_player} caps")
    if position.mode == "place":
        total = sum(placed)
        if total >= rules.total_caps:
            raise refuse("every cap is on the board, so the mode is 'collect'")
        expected = [len(range(p - 1, total, n)) for p in range(1, n + 1)]
        if placed != expected or position.currplayer != total % n + 1:
            raise refuse(
                "while caps are placed, players 1, 2, … take turns: the caps on the "
                "board do not fit the player to move"
            )
        if position.eliminated:
            raise refuse("nobody can have passed while caps are placed")
        left = rules.total_caps - total
        if position.free.bit_count() < left:
            raise refuse(
                f"{left} caps are still to be placed on {position.free.bit_count()} free "
                "pyramids: the placement could not be finished"
            )
    ghosts = [
        sq
        for sq in range(64)
        if position.board[sq] != EMPTY and PYRAMIDS[position.board[sq]].is_ghost
    ]
    if ghosts and (not position.is_over or rules.finalfree):
        raise refuse("ghosts are left only by the final captures, once every player has passed")
    if any(not caps[sq] for sq in ghosts):
        raise refuse("a ghost always has a cap on it")
