"""What a hint says, the same for every bot: each candidate's share of the win,
with its points beside it, best share first.

*share* is the bot's own estimate (:attr:`Candidate.value
<stawvs_ap.bots.base.Candidate>`, 0–1: the share of the win the mover can
expect after the move). *points* is the mover's lead after the move, in
points, by the one evaluation every bot shares
(:func:`~stawvs_ap.bots.knowledge.lead`): their estimated total less the best
opponent's. *visits* are the search's (0 or 1 for a bot that does not
search).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..bots.base import Candidate
from ..bots.knowledge import lead
from ..host.game import StawvsGame

__all__ = ["HintRow", "hint_rows"]


class HintRow(NamedTuple):
    move: str
    share: float
    points: float
    visits: int

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move,
            "share": round(self.share, 4),
            "points": round(self.points, 2),
            "visits": self.visits,
        }


def hint_rows(game: StawvsGame, candidates: Sequence[Candidate]) -> list[HintRow]:
    """``candidates`` of the player to move in ``game``, best share first (the
    bot's own order among equal shares)."""
    position, player = game.position, game.currplayer
    rows = [
        HintRow(str(c.move), c.value, lead(position.play(c.move)[0], player), c.visits)
        for c in candidates
    ]
    return sorted(rows, key=lambda row: -row.share)
