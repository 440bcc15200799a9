"""A text diagram of a position, for terminals (``stawvs-ap show``, ``print(game)``).

The board comes rank 8 to rank 1, each square one token: a pyramid code such
as ``PI1`` (small pink) or ``BL3`` (large blue), ``GH2`` for a grey ghost left
by the final captures, ``@p`` appended when player p's cap stands on it
(``BL3@1``), and ``.`` for a square with no pyramid. This is the diagram
syntax the tests' hand-made positions use, so a printed board can be pasted
into a test. Then come each player's collection grouped in trees with the
score, and whose turn it is, or who won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..core.notation import CAP_MARK, format_diagram
from ..core.position import Position
from ..core.pyramids import PYRAMIDS
from ..core.scoring import group_collection, score, tree_points
from ..errors import ErrorCode, StawvsError
from ..host.game import StawvsGame
from ..i18n import LIST_SEPARATOR, Argument, Catalogue, Phrase, catalogue, player_name, printable
from . import messages as m

__all__ = ["Shown", "board_text", "player_labels", "shown_by"]


class Shown(NamedTuple):
    """What a picture shows: the position, the move that led to it (text), the
    winners once the game is over, and the language of the words (None: English,
    a position's)."""

    position: Position
    lastmove: str | None
    winners: list[int] | None
    locale: str | None = None


def shown_by(shown: StawvsGame | Position) -> Shown:
    """What to draw of a game or a position; ``BAD_ARGUMENT`` for anything else."""
    if isinstance(shown, Position):
        return Shown(shown, None, shown.winners() if shown.is_over else None)
    if isinstance(shown, StawvsGame):
        winners = list(shown.winner) if shown.gameover else None
        return Shown(shown.position, shown.lastmove, winners, shown.locale)
    raise StawvsError(ErrorCode.BAD_ARGUMENT, f"cannot draw {type(shown).__name__}")


def _collection_parts(collection: Sequence[int]) -> list[str]:
    """Trees in brackets with their points, then the other stacks; ``-`` when empty."""
    parts = []
    for stack in group_collection(collection):
        codes = " ".join(PYRAMIDS[p].code for p in stack)
        if len(stack) == 3:
            parts.append(f"[{codes}]={tree_points(stack)}")
        else:
            parts.append(codes)
    return parts or ["-"]


def _wrapped(parts: Sequence[str], width: int | None) -> list[str]:
    """``parts`` two spaces apart, in lines of at most ``width`` characters where
    they fit (never breaking a part: a tree stays on one line), the lines after
    the first indented; one line when ``width`` is None."""
    if width is None:
        return ["  ".join(parts)]
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += "  " + part
        else:
            lines.append(_INDENT + part)
    return lines


_INDENT = "    "


def _status(view: Shown, names: Sequence[str], words: Catalogue) -> Phrase:
    position = view.position
    if view.winners is not None:
        winners = [names[p - 1] for p in view.winners]
        if not winners:
            return Phrase(m.TEXT_NOBODY_WON)
        if len(winners) == 1:
            return Phrase(m.TEXT_WINNER, {"winner": winners[0]})
        return Phrase(m.TEXT_WINNERS, {"winners": words.say(LIST_SEPARATOR).join(winners)})
    to_move = m.TEXT_TO_PLACE if position.mode == "place" else m.TEXT_TO_COLLECT
    return Phrase(to_move, {"name": names[position.currplayer - 1]})


def player_labels(numplayers: int, names: Sequence[str] | None, words: Catalogue) -> list[str]:
    """The players' labels: ``names`` as given (as :func:`printable` shows them),
    then "Player p" for the players they leave out."""
    labels = [words.say(player_name(p)) for p in range(1, numplayers + 1)]
    if names is not None:
        labels = [printable(n) for n in names][:numplayers] + labels[len(names) :]
    return labels


def board_text(
    shown: StawvsGame | Position,
    *,
    names: Sequence[str] | None = None,
    width: int | None = None,
    paint: Callable[[int, str], str] | None = None,
    locale: str | None = None,
) -> str:
    """Return the diagram of a position, or of the position a game shows, as lines
    ending in a newline.

    Board (ranks 8 to 1 with coordinates), last move, each player's score and
    collection grouped in trees, eliminations, and the player to move or the
    winners. ``names`` label the players (default "Player 1", …). With
    ``width``, a collection too long for a line goes on in the next ones,
    broken between trees and stacks, never inside one. ``paint(square,
    token)`` may dress each square's token (a terminal's colours); the
    columns stay aligned by the token's own length. The words are in
    ``locale``'s language (default: the game's, or English for a position).
    """
    view = shown_by(shown)
    words = catalogue(view.locale if locale is None else locale)
    position = view.position
    labels = player_labels(position.rules.numplayers, names, words)
    lines = format_diagram(position.board, position.caps, paint)
    lines.append("")
    if view.lastmove:
        lines.append(words.say(Phrase(m.TEXT_LAST_MOVE, {"move": view.lastmove})))
    for player, collection in enumerate(position.captured, start=1):
        wording = m.TEXT_PLAYER_PASSED if player in position.eliminated else m.TEXT_PLAYER
        args: dict[str, Argument] = {
            "name": labels[player - 1],
            "mark": f"{CAP_MARK}{player}",
            "points": score(collection),
        }
        head = words.say(Phrase(wording, args))
        lines.extend(_wrapped([head, *_collection_parts(collection)], width))
    lines.append(words.say(_status(view, labels, words)))
    return "\n".join(lines) + "\n"
