"""A text diagram of a position, for terminals (``stawvs-ap show``).

The board comes rank 8 to rank 1, each square one token: a pyramid code such
as ``PI1`` (small pink) or ``BL3`` (large blue), ``GH2`` for a grey ghost left
by the final captures, ``@p`` appended when player p's cap stands on it
(``BL3@1``), and ``.`` for a square with no pyramid. This is the diagram
syntax the tests' hand-made positions use, so a printed board can be pasted
into a test. Then come each player's collection grouped in trees with the
score, and whose turn it is, or who won.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core.position import EMPTY, Position
from ..core.pyramids import PYRAMIDS
from ..core.scoring import group_collection, score, tree_points
from ..core.squares import FILES
from ..host.game import StawvsGame

__all__ = ["CAP_MARK", "board_text", "square_token"]

#: Written between a pyramid code and the number of the player whose cap is on it.
CAP_MARK: Final = "@"
_CELL_WIDTH: Final = 6


def square_token(position: Position, sq: int) -> str:
    """The diagram token of square ``sq``: ``"."``, ``"PI1"`` or ``"BL3@1"``."""
    pyramid = position.board[sq]
    if pyramid == EMPTY:
        return "."
    token = PYRAMIDS[pyramid].code
    if position.caps[sq]:
        token += f"{CAP_MARK}{position.caps[sq]}"
    return token


def _board_lines(position: Position) -> list[str]:
    lines = []
    for row in range(8):
        cells = "".join(
            square_token(position, row * 8 + col).ljust(_CELL_WIDTH) for col in range(8)
        )
        lines.append(f"{8 - row}  {cells}".rstrip())
    lines.append("   " + "".join(f.ljust(_CELL_WIDTH) for f in FILES).rstrip())
    return lines


def _collection_text(collection: Sequence[int]) -> str:
    """Trees in brackets with their points, then the other stacks; ``-`` when empty."""
    parts = []
    for stack in group_collection(collection):
        codes = " ".join(PYRAMIDS[p].code for p in stack)
        if len(stack) == 3:
            parts.append(f"[{codes}]={tree_points(stack)}")
        else:
            parts.append(codes)
    return "  ".join(parts) or "-"


def _status(game: StawvsGame, names: Sequence[str]) -> list[str]:
    position = game.position
    if game.gameover:
        winners = ", ".join(names[p - 1] for p in game.winner) or "nobody"
        return [f"Game over. Winner{'s' if len(game.winner) > 1 else ''}: {winners}."]
    phase = "placement phase" if position.mode == "place" else "collection phase"
    return [f"{names[position.currplayer - 1]} to move ({phase})."]


def board_text(game: StawvsGame, *, names: Sequence[str] | None = None) -> str:
    """Return the diagram of the position ``game`` shows, as lines ending in a newline.

    Board (ranks 8 to 1 with coordinates), last move, each player's score and
    collection grouped in trees, eliminations, and the player to move or the
    winners. ``names`` label the players (default "Player 1", …).
    """
    position = game.position
    labels = [f"Player {p}" for p in range(1, game.numplayers + 1)]
    if names is not None:
        labels = [str(n) for n in names][: game.numplayers] + labels[len(names) :]
    lines = _board_lines(position)
    lines.append("")
    if game.lastmove:
        lines.append(f"Last move: {game.lastmove}")
    for player, collection in enumerate(position.captured, start=1):
        passed = " (passed)" if player in position.eliminated else ""
        lines.append(
            f"{labels[player - 1]} ({CAP_MARK}{player}){passed}: {score(collection)} points  "
            f"{_collection_text(collection)}"
        )
    lines.extend(_status(game, labels))
    return "\n".join(lines) + "\n"
