"""Abstract Play's result objects (docs/CONTRACT.md §5), made from the core's events.

Results are part of the serialized state (each stack entry's ``_results``), so
they are made here, on the state floor; the host's chat log and render read
them. Pyramids are named as players read them: "a large blue pyramid".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ..core import events as ev
from ..core.pyramids import PYRAMIDS
from ..core.squares import SQUARE_NAMES

__all__ = ["results_of"]

Result = dict[str, Any]
_SIZE_NAMES: Final = ("small", "medium", "large")
_COLOUR_NAMES: Final = ("pink", "blue", "green", "orange", "grey")
_PHRASES: Final[tuple[str, ...]] = tuple(
    f"a {_SIZE_NAMES[p % 3]} {_COLOUR_NAMES[p // 3]} pyramid" for p in PYRAMIDS
)


def results_of(events: Iterable[ev.Event]) -> list[Result]:
    """The result objects of a move's (or an ending's) events, in order.

    Final captures have no result of their own in Abstract Play's format: the
    board and the collections show them.
    """
    out: list[Result] = []
    for event in events:
        match event:
            case ev.Moved(source=source, dest=dest, target=target, claimed=claimed):
                out.append(
                    {
                        "type": "move",
                        "from": SQUARE_NAMES[source],
                        "to": SQUARE_NAMES[dest],
                        "how": SQUARE_NAMES[target],
                        "what": _PHRASES[claimed],
                    }
                )
            case ev.Placed(player=player, square=square):
                out.append({"type": "place", "where": SQUARE_NAMES[square], "who": player})
            case ev.Passed(first=True, under_caps=under):
                out.append({"type": "announce", "payload": [_PHRASES[p] for p in under]})
            case ev.Passed():
                out.append({"type": "pass"})
            case ev.FinalCapture():
                pass
            case ev.Resigned(player=player):
                out.append({"type": "resigned", "player": player})
            case ev.TimedOut(player=player):
                out.append({"type": "timeout", "player": player})
            case ev.DrawAgreed():
                out.append({"type": "drawagreed"})
            case ev.Abandoned():
                out.append({"type": "gameabandoned"})
            case ev.GameEnded(winners=winners):
                out.append({"type": "eog"})
                out.append({"type": "winners", "players": list(winners)})
    return out
