"""One-line notations: the starting board of a record, and a whole position.

The **board** is written rank by rank, 8 down to 1, ranks separated by ``/``,
each rank's squares from file a to h: ``.`` for an empty square, else a
pyramid code (``PI``/``BL``/``GR``/``OR``, or ``GH`` for a ghost, then size
``1``–``3``), followed by ``@p`` when player p's cap stands on it. A starting
board (a record's ``startingPosition``) has no caps and no ghosts.

A **position** is the board and four more fields, separated by spaces::

    BOARD TURN MODE COLLECTIONS PASSED
    .PI2@1BL1.../.../... 2 collect OR3BL1,- 1

``TURN`` is the player to move; ``MODE`` is ``place`` or ``collect``;
``COLLECTIONS`` lists each player's collection in capture order (pyramid
codes run together, ``-`` for none), players separated by ``,``, so their
number is the player count; ``PASSED`` lists the players who have passed, in
the order they did, as digits (``-`` for none).

Reading ignores case and extra whitespace between fields; writing is
canonical, so formatting what was parsed gives the canonical text back.
Errors are :class:`~stawvs_ap.errors.StawvsError` (code ``BAD_POSITION``)
naming the first problem; whether a position obeys the rules is checked where positions are loaded.

>>> ranks = ["PI1@1BL2GR3OR1PI2BL3GR1."] + ["PI1BL2GR3OR1PI2BL3GR1OR2"] * 7
>>> text = "/".join(ranks) + " 2 collect OR3BL1,- 1"
>>> fields = parse_position(text.lower())
>>> fields.currplayer, fields.mode, fields.captured, fields.eliminated
(2, 'collect', [[11, 3], []], [1])
>>> fields.caps[0], fields.board[7] == EMPTY  # player 1's cap on a8; h8 is empty
(1, True)
>>> format_position(fields) == text
True
>>> format_board(fields.board).split("/")[0]  # a board without its caps
'PI1BL2GR3OR1PI2BL3GR1.'
>>> parse_position(text.replace(" 2 ", " two "))
Traceback (most recent call last):
...
stawvs_ap.errors.StawvsError: the player to move is a number such as 1, not 'two'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from ..errors import ErrorCode, StawvsError, excerpt
from .pyramids import EMPTY, PYRAMIDS

__all__ = [
    "CAP_MARK",
    "EMPTY_MARK",
    "MAX_NOTATION_LENGTH",
    "PositionFields",
    "format_board",
    "format_diagram",
    "format_position",
    "parse_board",
    "parse_position",
]

EMPTY_MARK: Final = "."
#: Written between a pyramid code and the number of the player whose cap is on it.
CAP_MARK: Final = "@"
_DIAGRAM_CELL: Final = 6
#: Longer texts are refused before any parsing (a position is under 400 characters).
MAX_NOTATION_LENGTH: Final = 1000
_CODES: Final[dict[str, int]] = {p.code: int(p) for p in PYRAMIDS}
_SQUARE: Final = re.compile(r"\.|([A-Z]{2}[0-9])(?:@([0-9]))?")


class PositionFields(NamedTuple):
    """What a position notation holds, as plain numbers (see the module docstring)."""

    board: list[int]
    caps: list[int]
    currplayer: int
    mode: str
    captured: list[list[int]]
    eliminated: list[int]


def _bad(message: str) -> StawvsError:
    return StawvsError(ErrorCode.BAD_POSITION, message)


def _check_text(text: object, noun: str, whole: str) -> None:
    """Refuse ``text`` unless it is text short enough to be a ``noun``'s notation."""
    if not isinstance(text, str):
        raise _bad(f"a {noun} is written as text, not {type(text).__name__}")
    if len(text) > MAX_NOTATION_LENGTH:
        raise _bad(f"the {whole} is far too long to be a Stawvs {noun}")


def _cells(board: Sequence[int], caps: Sequence[int] | None) -> list[str]:
    if len(board) != 64:
        raise _bad(f"a board has 64 squares, not {len(board)}")
    cells = []
    for sq, pyramid in enumerate(board):
        cell = EMPTY_MARK if pyramid == EMPTY else PYRAMIDS[pyramid].code
        if caps is not None and caps[sq]:
            cell += f"{CAP_MARK}{caps[sq]}"
        cells.append(cell)
    return cells


def format_board(board: Sequence[int], caps: Sequence[int] | None = None) -> str:
    """The canonical board notation of 64 squares (pyramid numbers, -1 for none)."""
    cells = _cells(board, caps)
    return "/".join("".join(cells[rank * 8 : rank * 8 + 8]) for rank in range(8))


def format_diagram(
    board: Sequence[int],
    caps: Sequence[int] | None = None,
    paint: Callable[[int, str], str] | None = None,
) -> list[str]:
    """The board as a diagram for people: ranks 8 to 1, each labelled, its squares
    in columns (the tokens of the board notation), then the file letters.
    ``paint(square, token)``, if given, dresses each token (with a terminal's
    colours, say); the columns are aligned by the token's own length.

    >>> format_diagram([EMPTY] * 63 + [0], [0] * 64)[7]
    '1  .     .     .     .     .     .     .     PI1'
    """
    cells = [
        (paint(sq, cell) if paint else cell) + " " * (_DIAGRAM_CELL - len(cell))
        for sq, cell in enumerate(_cells(board, caps))
    ]
    lines = [f"{8 - rank}  {''.join(cells[rank * 8 : rank * 8 + 8])}".rstrip() for rank in range(8)]
    lines.append("   " + "".join(f.ljust(_DIAGRAM_CELL) for f in "abcdefgh").rstrip())
    return lines


def parse_board(text: str) -> tuple[list[int], list[int]]:
    """The pyramid and cap owner (0 for none) of each square of a board notation,
    in reading order (a8 … h1); ``BAD_POSITION`` naming the first problem."""
    _check_text(text, "board", "board")
    ranks = "".join(text.split()).upper().split("/")
    if len(ranks) != 8:
        raise _bad(
            f"the board has {len(ranks)} ranks; it needs 8 (from rank 8 down to rank 1, "
            "separated by '/')"
        )
    board: list[int] = []
    caps: list[int] = []
    for row, rank_text in enumerate(ranks):
        at = 0
        start = len(board)
        while at < len(rank_text):
            match = _SQUARE.match(rank_text, at)
            where = f"rank {8 - row}, file {'abcdefgh'[min(len(board) - start, 7)]}"
            if match is None or (match[1] is not None and match[1] not in _CODES):
                got = rank_text[at : at + 3]
                raise _bad(
                    f"{where}: {excerpt(got)} is not a square (a pyramid code such as PI1 or BL3, "
                    "with @p for player p's cap, or '.' for an empty square)"
                )
            if len(board) - start == 8:
                raise _bad(f"rank {8 - row} has more than 8 squares")
            board.append(EMPTY if match[1] is None else _CODES[match[1]])
            caps.append(int(match[2] or 0))
            if match[2] is not None and not 1 <= int(match[2]) <= 4:
                raise _bad(f"{where}: there is no player {match[2]}")
            at = match.end()
        if len(board) - start != 8:
            raise _bad(f"rank {8 - row} has {len(board) - start} squares, not 8")
    return board, caps


def format_position(fields: PositionFields) -> str:
    """The canonical position notation."""
    collections = ",".join("".join(PYRAMIDS[p].code for p in c) or "-" for c in fields.captured)
    passed = "".join(map(str, fields.eliminated)) or "-"
    board = format_board(fields.board, fields.caps)
    return f"{board} {fields.currplayer} {fields.mode} {collections} {passed}"


def parse_position(text: str) -> PositionFields:
    """The fields of a position notation; ``BAD_POSITION`` naming the first problem."""
    _check_text(text, "position", "text")
    parts = text.split()
    if len(parts) != 5:
        raise _bad(
            f"a position has 5 fields separated by spaces (board, player to move, mode, "
            f"collections, passed players), not {len(parts)}"
        )
    board_text, turn, mode, collections_text, passed_text = parts
    board, caps = parse_board(board_text)
    if not (turn.isdigit() and len(turn) == 1):
        raise _bad(f"the player to move is a number such as 1, not {excerpt(turn)}")
    mode = mode.lower()
    if mode not in ("place", "collect"):
        raise _bad(f"the mode is 'place' or 'collect', not {excerpt(mode)}")
    captured = [_parse_collection(c, i) for i, c in enumerate(collections_text.split(","), 1)]
    if passed_text == "-":
        eliminated = []
    elif passed_text.isdigit():
        eliminated = [int(d) for d in passed_text]
    else:
        raise _bad(f"the passed players are digits such as 31, or '-', not {excerpt(passed_text)}")
    return PositionFields(board, caps, int(turn), mode, captured, eliminated)


def _parse_collection(text: str, player: int) -> list[int]:
    if text == "-":
        return []
    codes = [text[i : i + 3].upper() for i in range(0, len(text), 3)]
    for code in codes:
        if code not in _CODES:
            raise _bad(f"player {player}'s collection: {excerpt(code)} is not a pyramid code")
    return [_CODES[code] for code in codes]
