"""What a hint says, the same for every bot and at every door (the command
line's ``hint``, the terminal game, the service's ``hint``, the playground):
the bot's choice first, then the other candidates by their share of the win;
each with its share in per cent and, once caps are collecting, the lead in
points.

*share* is the bot's own estimate (:attr:`Candidate.value
<stawvs_ap.bots.base.Candidate>`, 0–1: the share of the win the mover can
expect after the move). *lead* is the mover's lead after the move, in
points, by the one evaluation every bot shares
(:func:`~stawvs_ap.bots.knowledge.lead`): their estimated total less the best
opponent's. While caps are being placed nothing is collected yet, so there
is no lead to speak of and none is given. *visits* are the search's (0 or 1
for a bot that does not search).

A search bot plays the move it searched most, which is nearly always the
one it rates highest; when another move, searched less, shows a higher
share, :func:`choice_note` says so in words rather than leaving a lower
share listed first without a word.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..bots.base import Candidate
from ..bots.knowledge import lead
from ..host.game import StawvsGame
from ..i18n import Catalogue, Phrase
from .messages import HINT_CANDIDATE, HINT_CANDIDATE_LEAD, HINT_CHOICE_NOTE

__all__ = ["HintRow", "choice_note", "hint_rows"]


class HintRow(NamedTuple):
    """One candidate of a hint: the move, its share of the win (0–1), the lead in
    points after it (None while caps are placed) and the search's visits."""

    move: str
    share: float
    lead: float | None
    visits: int

    @property
    def percent(self) -> str:
        """The share of the win in whole per cent, as every door shows it."""
        return f"{100 * self.share:.0f}"

    def words(self, words: Catalogue) -> str:
        """The candidate in words: ``f4: 43% win share`` (and ``, lead +1.8
        points`` once collecting has begun), in the language of ``words``."""
        if self.lead is None:
            return words.say(Phrase(HINT_CANDIDATE, {"move": self.move, "percent": self.percent}))
        args = {"move": self.move, "percent": self.percent, "lead": f"{self.lead:+.1f}"}
        return words.say(Phrase(HINT_CANDIDATE_LEAD, args))

    def to_dict(self, words: Catalogue | None = None) -> dict[str, object]:
        """A JSON-ready form; with ``words``, the candidate worded as well."""
        doc: dict[str, object] = {
            "move": self.move,
            "share": round(self.share, 4),
            "lead": None if self.lead is None else round(self.lead, 2),
            "visits": self.visits,
        }
        if words is not None:
            doc["words"] = self.words(words)
        return doc


def hint_rows(game: StawvsGame, candidates: Sequence[Candidate]) -> list[HintRow]:
    """``candidates`` of the player to move in ``game`` (best first, as a bot's
    :meth:`~stawvs_ap.bots.base.Bot.analyse` gives them): the bot's choice
    first, then the others by their share of the win (the bot's own order
    among equal shares).

    >>> from stawvs_ap.bots import GreedyBot
    >>> game = StawvsGame(2, seed=1)
    >>> rows = hint_rows(game, GreedyBot(seed=1).analyse(game, top=2))
    >>> rows[0].lead is None  # caps are being placed: no lead yet
    True
    """
    position, player = game.position, game.currplayer
    collecting = position.mode == "collect"
    rows = [
        HintRow(
            str(c.move),
            c.value,
            lead(position.play(c.move)[0], player) if collecting else None,
            c.visits,
        )
        for c in candidates
    ]
    return rows[:1] + sorted(rows[1:], key=lambda row: -row.share)


def choice_note(rows: Sequence[HintRow]) -> Phrase | None:
    """Why the first of ``rows`` (the bot's choice, as :func:`hint_rows` orders
    them) is listed above a move shown with a higher share: ``chosen: e5, most
    searched; d4 rated higher on fewer visits``. None when no other move shows a
    higher share (in whole per cent, as shown) on fewer visits.

    >>> rows = [HintRow("e5", 0.55, None, 900), HintRow("d4", 0.58, None, 80)]
    >>> choice_note(rows).args
    {'chosen': 'e5', 'better': 'd4'}
    >>> choice_note([rows[0], HintRow("d4", 0.552, None, 80)]) is None  # both show 55%
    True
    """
    if not rows:
        return None
    chosen = rows[0]
    higher = [
        row
        for row in rows[1:]
        if int(row.percent) > int(chosen.percent) and row.visits < chosen.visits
    ]
    if not higher:
        return None
    better = max(higher, key=lambda row: row.share)
    return Phrase(HINT_CHOICE_NOTE, {"chosen": chosen.move, "better": better.move})
