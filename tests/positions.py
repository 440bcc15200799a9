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

:func:`state_from_diagram` builds the serialized state of CONTRACT §4 (a
one-entry stack: the diagram is the "starting position"), and
:func:`position_from_diagram` loads it through the real loader, so every
hand-made position is also a state the engine accepts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from stawvs_ap import StawvsGame

__all__ = ["board_diagram", "diagram", "position_from_diagram", "state_from_diagram"]

TIMESTAMP = "2025-12-12T00:00:00.000Z"
VERSION = "20251113"
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


def _pyramid(code: str) -> list[Any]:
    return [code[:2], int(code[2])]


def _collections(captured: Captured, numplayers: int) -> list[list[str]]:
    if captured is None:
        return [[] for _ in range(numplayers)]
    if isinstance(captured, Mapping):
        return [list(captured.get(p, [])) for p in range(1, numplayers + 1)]
    return [list(c) for c in captured]


def state_from_diagram(
    diagram: str,
    *,
    caps: Mapping[str, int] | None = None,
    to_move: int = 1,
    mode: str = "collect",
    variants: Iterable[str] = (),
    numplayers: int = 2,
    eliminated: Sequence[int] = (),
    captured: Captured = None,
) -> dict[str, Any]:
    """The serialized state (a parsed JSON dict) of the position a diagram shows."""
    squares = _squares(diagram)
    collections = _collections(captured, numplayers)
    used: Counter[str] = Counter(code for c in collections for code in c)
    used.update(t.split("@")[0] for _, t in squares if not t.startswith(("*", ".")))
    cells: list[list[Any]] = []
    for name, token in squares:
        if token == ".":
            continue
        match = _TOKEN.match(token)
        if match is None:
            raise ValueError(f"{name}: {token!r} is not a square of a diagram")
        code = match["pyramid"]
        if code == "*":
            code = next(k for k in KIND_CODES if used[k] < 5)
            used[code] += 1
        cell: list[Any] = [_pyramid(code)]
        owner = match["owner"] or (caps or {}).get(name)
        if owner:
            cell.append(int(owner))
        cells.append([name, cell])
    unknown = set(caps or {}) - {name for name, _ in cells}
    if unknown:
        raise ValueError(f"caps on squares without a pyramid: {sorted(unknown)}")
    return {
        "game": "stawvs",
        "numplayers": numplayers,
        "variants": list(variants),
        "gameover": False,
        "winner": [],
        "stack": [
            {
                "_version": VERSION,
                "_results": [],
                "_timestamp": TIMESTAMP,
                "currplayer": to_move,
                "mode": mode,
                "eliminated": list(eliminated),
                "captured": [[_pyramid(code) for code in c] for c in collections],
                "board": {"dataType": "Map", "value": cells},
            }
        ],
    }


def position_from_diagram(diagram: str, **options: Any) -> StawvsGame:
    """A game whose current position is the diagram's (see the module docstring).

    Takes the keyword options of :func:`state_from_diagram`; the state goes
    through ``StawvsGame(state)``, so it is checked like any loaded state.
    """
    return StawvsGame(state_from_diagram(diagram, **options))


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
