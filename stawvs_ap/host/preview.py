"""What a move given with ``partial=True`` shows before it is played: a typed preview.

A complete move previews its effect (the position it makes, with the turn
left to the player, and its events); a partial move (``FROM``, ``FROM-TO``)
previews the cap chosen and where it would land. The render and the results
are made from it when asked.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.events import Event
from ..core.moves import Move
from ..core.position import Position
from ..state.results import results_of

__all__ = ["Preview", "preview"]


class Preview(NamedTuple):
    """The ``position`` shown, and either the ``events`` of a complete move or
    the ``partial`` move (``FROM`` or ``FROM-TO``) with its ``continuations``
    (:meth:`Position.continuations <stawvs_ap.Position.continuations>`: where
    the cap can land, or what it can claim there)."""

    position: Position
    events: tuple[Event, ...] = ()
    partial: Move | None = None
    continuations: tuple[Move, ...] = ()

    @property
    def results(self) -> list[dict[str, Any]]:
        """Abstract Play's result objects of what is previewed (made anew on each call)."""
        partial = self.partial
        if partial is None:
            return results_of(self.events)
        dest = "" if partial.dest is None else str(partial.dest)
        return [{"type": "move", "from": str(partial.source), "to": dest}]


def preview(position: Position, move: Move, complete: bool) -> Preview | None:
    """The preview of a valid ``move`` (``complete`` or not) on ``position``;
    None for the empty move, which shows nothing."""
    if move.is_empty:
        return None
    if complete:
        shown, events = position.play(move)
        # A preview shows the move's effect; the turn stays with the player.
        return Preview(shown.replace(currplayer=position.currplayer), events)
    assert move.source is not None
    shown = position if move.dest is None else position.with_cap_moved(move.source, move.dest)
    return Preview(shown, partial=move, continuations=position.continuations(move))
