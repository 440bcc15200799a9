"""The action numbers and observation planes the research adapters share
(:mod:`stawvs_ap.openspiel`, :mod:`stawvs_ap.pettingzoo`); needs numpy.

**Actions** (:data:`NUM_ACTIONS` of them, the same for every player count and
variant): ``0``–``63`` place a cap on that square (square numbers in reading
order, ``a8`` = 0 … ``h1`` = 63); ``64`` is ``pass``; from :data:`FIRST_SLIDE`
on, one number per ``FROM-TO,TARGET`` whose ``TO`` is on a line from ``FROM``
and ``TARGET`` on a line from ``TO``, ordered by ``FROM``, then ``TO``, then
``TARGET``. Every legal move has exactly one number and each number one move.

>>> from stawvs_ap import Move
>>> encode(Move.parse("a8")), encode(Move.parse("pass")), str(decode(FIRST_SLIDE))
(0, 64, 'a8-b8,a8')
>>> decode(encode(Move.parse("c3-f6,f2"))) == Move.parse("c3-f6,f2")
True

**Observation** (:func:`observation_planes`, ``float32``): ``15 + n`` planes of
8 × 8 in reading order — one per pyramid kind (the 12 coloured kinds in
colour then size order, ``PI1`` … ``OR3``, then the ghosts ``GH1`` … ``GH3``),
then one per player's caps — followed by ``n × 12`` collection counts (how
many of each kind player p holds, divided by 5), ``n`` entries marking the
player to move, ``n`` marking the players who have passed, and one that is 1
while caps are being placed.
"""

from __future__ import annotations

import operator
from typing import Final

import numpy as np
import numpy.typing as npt

from .core.moves import PASS, Move
from .core.position import Position
from .core.pyramids import EMPTY, PER_KIND, PYRAMIDS
from .core.squares import PATHS, SQUARES
from .errors import ErrorCode, StawvsError, excerpt

__all__ = [
    "FIRST_SLIDE",
    "NUM_ACTIONS",
    "PASS_ACTION",
    "action_number",
    "decode",
    "encode",
    "legal_actions",
    "observation_planes",
    "observation_size",
    "whole_number",
]

PASS_ACTION: Final = 64
FIRST_SLIDE: Final = 65
_KINDS: Final = len(PYRAMIDS)  # 15: the coloured kinds and the ghosts


def _on_line(origin: int) -> list[int]:
    return [sq for sq in range(64) if PATHS[origin][sq]]


_LINES: Final = tuple(_on_line(sq) for sq in range(64))
#: The rank of ``target`` among the squares on a line from ``dest``: ``_RANK[dest * 64 + target]``.
_RANK: Final[tuple[int, ...]] = tuple(
    _LINES[dest].index(target) if target in _LINES[dest] else -1
    for dest in range(64)
    for target in range(64)
)


def _slide_bases() -> tuple[list[int], int]:
    bases = [-1] * 4096
    at = FIRST_SLIDE
    for source in range(64):
        for dest in _LINES[source]:
            bases[source * 64 + dest] = at
            at += len(_LINES[dest])
    return bases, at


_BASE, NUM_ACTIONS = _slide_bases()
_BASE_T: Final = tuple(_BASE)


def _all_moves() -> tuple[Move, ...]:
    moves: list[Move] = [Move(SQUARES[sq]) for sq in range(64)]
    moves.append(PASS)
    for source in range(64):
        for dest in _LINES[source]:
            moves.extend(Move(SQUARES[source], SQUARES[dest], SQUARES[t]) for t in _LINES[dest])
    return tuple(moves)


_MOVES: Final = _all_moves()


def encode(move: Move) -> int:
    """The action number of a complete move; :class:`~stawvs_ap.errors.StawvsError`
    (``BAD_ARGUMENT``) for a move no number stands for (a partial move, or squares
    off each other's lines)."""
    source, dest, target, is_pass = move
    if is_pass:
        return PASS_ACTION
    if source is not None and dest is None and target is None:
        return int(source)
    if source is None or dest is None or target is None:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"no action stands for {str(move)!r}: it is not a complete move"
        )
    base = _BASE_T[source * 64 + dest]
    rank = _RANK[dest * 64 + target]
    if base < 0 or rank < 0:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"no action stands for {str(move)!r}: it does not move along lines",
        )
    return base + rank


def whole_number(value: object) -> int | None:
    """``value`` as a Python ``int`` when it is a whole number as Python and numpy
    write them (or stands for one through ``__index__``, as a 0-d integer array),
    else None: a bool is not one, nor ``1.0`` or ``"5"``.

    >>> whole_number(np.int64(7)), whole_number(True), whole_number(1.0)
    (7, None, None)
    """
    if isinstance(value, bool | np.bool_):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def action_number(action: object, count: int = NUM_ACTIONS) -> int:
    """``action`` as a number from 0 to ``count - 1`` (a :func:`whole_number`);
    :class:`~stawvs_ap.errors.StawvsError` (``BAD_ARGUMENT``) for anything else
    (a bool, ``1.0``, ``"5"``, ``None``) or a number out of range.

    >>> action_number(np.int64(7))
    7
    >>> action_number(True)
    Traceback (most recent call last):
    stawvs_ap.errors.StawvsError: an action is a whole number from 0 to 33408, not True
    """
    number = whole_number(action)
    if number is None or not 0 <= number < count:
        shown = excerpt(action if number is None else number)
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"an action is a whole number from 0 to {count - 1}, not {shown}",
        )
    return number


def decode(action: object) -> Move:
    """The move an action number stands for (:func:`action_number` says which
    numbers are); :class:`~stawvs_ap.errors.StawvsError` (``BAD_ARGUMENT``) for a
    number out of range or anything but a whole number.

    >>> decode(NUM_ACTIONS)
    Traceback (most recent call last):
    stawvs_ap.errors.StawvsError: an action is a whole number from 0 to 33408, not 33409
    """
    return _MOVES[action_number(action)]


def legal_actions(position: Position) -> list[int]:
    """The action numbers of the position's legal moves, ascending: one for each
    move the core's generator lists (none once the game is over).

    Collection moves are numbered straight from the generator's squares
    (:meth:`~stawvs_ap.core.position.Position.slides` and ``claims``), not
    through :class:`Move` values: a mask is built on every step, and making
    the moves cost as much as the step itself (benchmarks/research.py).
    tests/test_research.py checks both ways give the same numbers."""
    if position.is_over or position.mode == "place" or position.must_pass():
        return sorted(map(encode, position.legal_moves()))
    actions: list[int] = []
    rank = _RANK
    for source, dest in position.slides():
        base = _BASE_T[source * 64 + dest]
        row = dest * 64
        actions.extend(base + rank[row + target] for target in position.claims(source, dest))
    actions.sort()
    return actions


def observation_size(numplayers: int) -> int:
    """The length of :func:`observation_planes` for ``numplayers`` players."""
    return 64 * (_KINDS + numplayers) + 12 * numplayers + 2 * numplayers + 1


def observation_planes(
    position: Position, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """The position as the flat ``float32`` vector the module's docstring lays out
    (written into ``out`` when given, which must have :func:`observation_size`)."""
    n = position.rules.numplayers
    tensor = np.zeros(observation_size(n), np.float32) if out is None else out
    tensor.fill(0.0)
    board = np.frombuffer(position.board, np.uint8)
    squares = np.flatnonzero(board != EMPTY)
    tensor[board[squares].astype(np.intp) * 64 + squares] = 1.0
    caps = np.frombuffer(position.caps, np.uint8)
    capped = np.flatnonzero(caps)
    tensor[(_KINDS - 1 + caps[capped].astype(np.intp)) * 64 + capped] = 1.0
    at = 64 * (_KINDS + n)
    for player, collection in enumerate(position.captured):
        for kind in collection:
            tensor[at + player * 12 + kind] += 1.0 / PER_KIND
    at += 12 * n
    if not position.is_over:
        tensor[at + position.currplayer - 1] = 1.0
    at += n
    for player in position.eliminated:
        tensor[at + player - 1] = 1.0
    tensor[at + n] = 1.0 if position.mode == "place" else 0.0
    return tensor
