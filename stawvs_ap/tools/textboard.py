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
from ..host.messages import player_name
from ..i18n import LIST_SEPARATOR, Argument, Catalogue, Phrase, catalogue
from . import messages as m

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


def _status(game: StawvsGame, names: Sequence[str], words: Catalogue) -> Phrase:
    position = game.position
    if game.gameover:
        winners = [names[p - 1] for p in game.winner]
        if not winners:
            return Phrase(m.TEXT_NOBODY_WON)
        if len(winners) == 1:
            return Phrase(m.TEXT_WINNER, {"winner": winners[0]})
        return Phrase(m.TEXT_WINNERS, {"winners": words.say(LIST_SEPARATOR).join(winners)})
    to_move = m.TEXT_TO_PLACE if position.mode == "place" else m.TEXT_TO_COLLECT
    return Phrase(to_move, {"name": names[position.currplayer - 1]})


def player_labels(numplayers: int, names: Sequence[str] | None, words: Catalogue) -> list[str]:
    """The players' labels: ``names`` as given, then "Player p" for the players they leave out."""
    labels = [words.say(player_name(p)) for p in range(1, numplayers + 1)]
    if names is not None:
        labels = [str(n) for n in names][:numplayers] + labels[len(names) :]
    return labels


def board_text(
    game: StawvsGame, *, names: Sequence[str] | None = None, locale: str | None = None
) -> str:
    """Return the diagram of the position ``game`` shows, as lines ending in a newline.

    Board (ranks 8 to 1 with coordinates), last move, each player's score and
    collection grouped in trees, eliminations, and the player to move or the
    winners. ``names`` label the players (default "Player 1", …). The words
    are in the game's language, or ``locale``'s.
    """
    words = catalogue(game.locale if locale is None else locale)
    position = game.position
    labels = player_labels(game.numplayers, names, words)
    lines = _board_lines(position)
    lines.append("")
    if game.lastmove:
        lines.append(words.say(Phrase(m.TEXT_LAST_MOVE, {"move": game.lastmove})))
    for player, collection in enumerate(position.captured, start=1):
        wording = m.TEXT_PLAYER_PASSED if player in position.eliminated else m.TEXT_PLAYER
        args: dict[str, Argument] = {
            "name": labels[player - 1],
            "mark": f"{CAP_MARK}{player}",
            "points": score(collection),
            "collection": _collection_text(collection),
        }
        lines.append(words.say(Phrase(wording, args)))
    lines.append(words.say(_status(game, labels, words)))
    return "\n".join(lines) + "\n"
