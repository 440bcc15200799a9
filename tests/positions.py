"""Hand-made positions for the rules tests, written as board diagrams.

A diagram is eight lines, rank 8 at the top down to rank 1, each with eight
squares from file a to file h, separated by spaces::

    8  .    .    .    .    .    .    .    .
    7  .    PI1  BL2  .    .    .    .    .
    6  .    .    *    .    .    .    .    .
    5  .    .    .    GR3@1 .   .    .    .
    4  .    .    .    .    .    .    .    .
    3  .    .    .    .    .    .    .    .
    2  .    .    .    .    .    .    .    .
    1  OR1@2 .   .    .    .    .    .    .
       a    b    c    d    e    f    g    h

Each square is one token:

- ``.``: an empty square (no pyramid);
- a pyramid code: colour ``PI``/``BL``/``GR``/``OR`` and size ``1``–``3``
  (``PI1`` is a small pink pyramid, ``OR3`` a large orange one), or ``GH1``–``GH3``
  for the grey ghost that final captures leave under a cap;
- ``*``: some pyramid, when which one does not matter (filled in reading order
  with kinds that still have pyramids to spare, so the set is never exceeded);
- any of these pyramid tokens followed by ``@p``: player p's cap stands on it.

A leading rank number on a line and a line of file letters are optional and
ignored apart from a check that ranks come 8 to 1. Caps may also be given as
``caps={"d5": 1}``. Collections are ``captured={1: ["PI1", "BL2"]}`` (in capture
order) or a list with one list of codes per player.

:func:`notation_from_diagram` writes the position notation of a diagram, and
:func:`position_from_diagram` starts a game from it with
``StawvsGame.from_position``, so every hand-made position is checked like any
position a player sets up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from stawvs_ap import StawvsGame

__all__ = ["board_diagram", "diagram", "notation_from_diagram", "position_from_diagram"]

FILES = "abcdefgh"
COLOURS = ("PI", "BL", "GR", "OR")
KIND_CODES = tuple(f"{colour}{size}" for colour in COLOURS for size in (1, 2, 3))

_TOKEN = re.compile(r"^(?P<pyramid>\*|(?:PI|BL|GR|OR|GH)[123])(?:@(?P<owner>[1-4]))?$")

Captured = Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None


def _squares(diagram: str) -> list[tuple[str, str]]:
    """(square name, token) for the 64 squares, in reading order."""
    rows: list[list[str]] = []
    for line in diagram.strip().splitlines():
        tokens = line.split()
        if not tokens or "".join(tokens) == FILES:
            continue
        if tokens[0].isdigit():
            expected = str(8 - len(rows))
            if tokens[0] != expected:
                raise ValueError(f"diagram rank {tokens[0]} where rank {expected} was expected")
            tokens = tokens[1:]
        if len(tokens) != 8:
            raise ValueError(f"a diagram rank has 8 squares, not {len(tokens)}: {line!r}")
        rows.append(tokens)
    if len(rows) != 8:
        raise ValueError(f"a diagram has 8 ranks, not {len(rows)}")
    return [
        (f"{FILES[col]}{8 - row}", token)
        for row, tokens in enumerate(rows)
        for col, token in enumerate(tokens)
    ]


def _collections(captured: Captured, numplayers: int) -> list[list[str]]:
    if captured is None:
        return [[] for _ in range(numplayers)]
    if isinstance(captured, Mapping):
        return [list(captured.get(p, [])) for p in range(1, numplayers + 1)]
    return [list(c) for c in captured]


def notation_from_diagram(
    diagram: str,
    *,
    caps: Mapping[str, int] | None = None,
    to_move: int = 1,
    mode: str = "collect",
    numplayers: int = 2,
    eliminated: Sequence[int] = (),
    captured: Captured = None,
) -> str:
    """The position notation (``Position.notation()``) of the position a diagram shows."""
    squares = _squares(diagram)
    collections = _collections(captured, numplayers)
    used: Counter[str] = Counter(code for c in collections for code in c)
    used.update(t.split("@")[0] for _, t in squares if not t.startswith(("*", ".")))
    cells: list[str] = []
    named = set()
    for name, token in squares:
        if token == ".":
            cells.append(".")
            continue
        match = _TOKEN.match(token)
        if match is None:
            raise ValueError(f"{name}: {token!r} is not a square of a diagram")
        code = match["pyramid"]
        if code == "*":
            code = next(k for k in KIND_CODES if used[k] < 5)
            used[code] += 1
        owner = match["owner"] or (caps or {}).get(name)
        cells.append(code + (f"@{owner}" if owner else ""))
        named.add(name)
    unknown = set(caps or {}) - named
    if unknown:
        raise ValueError(f"caps on squares without a pyramid: {sorted(unknown)}")
    board = "/".join("".join(cells[r * 8 : r * 8 + 8]) for r in range(8))
    held = ",".join("".join(c) or "-" for c in collections)
    passed = "".join(map(str, eliminated)) or "-"
    return f"{board} {to_move} {mode} {held} {passed}"


def position_from_diagram(
    diagram: str, *, variants: Iterable[str] = (), **options: Any
) -> StawvsGame:
    """A game whose current position is the diagram's (see the module docstring).

    Takes the keyword options of :func:`notation_from_diagram`; the position
    goes through ``StawvsGame.from_position``, so it is checked like any
    position a player sets up.
    """
    return StawvsGame.from_position(notation_from_diagram(diagram, **options), list(variants))


def board_diagram(game: StawvsGame) -> str:
    """The diagram of the board the game shows (from its render, so it follows
    ``load``, ``undo`` and partial previews), without rank or file labels."""
    lines = []
    for row in game.render()["pieces"]:
        tokens = []
        for square in row:
            token = square[0] if square else "."
            if len(square) == 2:
                token += "@" + square[1].removeprefix("P")
            tokens.append(token)
        lines.append(" ".join(tokens))
    return "\n".join(lines)


def diagram(text: str) -> str:
    """A diagram without labels or extra spaces, as :func:`board_diagram` writes it."""
    squares = [token for _, token in _squares(text)]
    return "\n".join(" ".join(squares[r * 8 : r * 8 + 8]) for r in range(8))
