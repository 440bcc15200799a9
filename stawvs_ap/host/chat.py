"""The chat log: readable sentences for what each move did, made from the core's events.

:func:`chat_log` words them in the player's language; :func:`move_sentences` gives
the phrases of one stack entry, for a host that words them itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from ..core import events as ev
from ..core.squares import SQUARE_NAMES
from ..errors import ErrorCode, StawvsError, excerpt
from ..i18n import Catalogue, Listing, Phrase, catalogue, player_name
from . import messages as m

if TYPE_CHECKING:
    from ..core.position import Position
    from ..state.entry import Entry

__all__ = ["chat_log", "entry_sentences", "move_sentences"]

#: Why a game ended, by the event that ended it outside the rules.
_ENDING_REASONS: Final = {
    ev.Resigned: m.OVER_RESIGNED,
    ev.TimedOut: m.OVER_TIMEOUT,
    ev.DrawAgreed: m.OVER_AGREED,
    ev.Abandoned: m.OVER_ABANDONED,
}

Name = Phrase | str


def move_sentences(
    events: Sequence[ev.Event], actor: Name, name_of: Mapping[int, Name], after: Position
) -> list[Phrase]:
    """The sentences of one move's (or ending's) ``events``: ``actor`` names
    who moved, ``name_of`` every player, ``after`` is the position the move made.

    >>> from stawvs_ap import Move, Position
    >>> from stawvs_ap.i18n import catalogue
    >>> after, events = Position.initial(2, (), 1).play(Move.parse("b3"))
    >>> [catalogue("de").say(p) for p in move_sentences(events, "Ann", {}, after)]
    ['Ann setzte auf b3 eine Kappe auf die mittlere grüne Pyramide.']
    >>> [catalogue("en").say(p) for p in move_sentences(events, "Ann", {}, after)]
    ['Ann placed a cap on the medium green pyramid at b3.']
    """
    ending = next((type(e) for e in events if type(e) in _ENDING_REASONS), None)
    said: list[Phrase] = []
    for event in events:
        match event:
            case ev.Placed(square=square, pyramid=pyramid):
                said.append(
                    Phrase(
                        m.PLACED,
                        {
                            "actor": actor,
                            "pyramid": m.capped(pyramid),
                            "square": SQUARE_NAMES[square],
                        },
                    )
                )
            case ev.Moved(source=source, dest=dest, target=target, claimed=claimed):
                said.append(
                    Phrase(
                        m.MOVED,
                        {
                            "actor": actor,
                            "source": SQUARE_NAMES[source],
                            "dest": SQUARE_NAMES[dest],
                            "pyramid": m.claimed(claimed),
                            "target": SQUARE_NAMES[target],
                        },
                    )
                )
            case ev.Passed(first=True, under_caps=under) if under:
                pyramids = Listing(m.under_cap(p) for p in under)
                said.append(Phrase(m.ELIMINATED_CAPS, {"actor": actor, "pyramids": pyramids}))
            case ev.Passed(first=True):
                said.append(Phrase(m.ELIMINATED, {"actor": actor}))
            case ev.Passed():
                said.append(Phrase(m.PASSED_AGAIN, {"actor": actor}))
            case ev.FinalCapture():
                pass
            case ev.Resigned(player=player):
                said.append(Phrase(m.RESIGNED, {"player": name_of.get(player, actor)}))
            case ev.TimedOut(player=player):
                said.append(Phrase(m.TIMED_OUT, {"player": name_of.get(player, actor)}))
            case ev.DrawAgreed():
                said.append(Phrase(m.DRAW_AGREED))
            case ev.Abandoned():
                said.append(Phrase(m.ABANDONED))
            case ev.GameEnded(winners=winners):
                if ending is not None:
                    said.append(Phrase(_ENDING_REASONS[ending]))
                elif after.rules.finalfree:
                    said.append(Phrase(m.OVER_ALL_PASSED_FINALFREE))
                else:
                    said.append(Phrase(m.OVER_ALL_PASSED))
                said.append(_winners(winners, name_of, None if ending else after))
    return said


def _winners(players: Sequence[int], name_of: Mapping[int, Name], after: Position | None) -> Phrase:
    """Who won; with their points when the game was played to its end (``after``)."""
    if not players:
        return Phrase(m.NOBODY_WON)
    names = Listing(name_of.get(p) or player_name(p) for p in players)
    points = None
    if after is not None:
        scores = after.scores()
        if 1 <= players[0] <= len(scores):
            points = scores[players[0] - 1]
    if len(names) == 1:
        if points is None:
            return Phrase(m.WON, {"winner": names[0]})
        return Phrase(m.WON_WITH, {"winner": names[0], "points": points})
    if points is None:
        return Phrase(m.SHARED, {"winners": names})
    return Phrase(m.SHARED_WITH, {"winners": names, "points": points})


def entry_sentences(
    stack: Sequence[Entry],
    numplayers: int,
    names: Sequence[str] | None = None,
    words: Catalogue | None = None,
) -> list[list[str]]:
    """For each stack entry after the first, what it did in sentences of
    ``words``' language (default English); an empty list for an entry with no
    results.

    ``names[p - 1]`` names player p (default ``"Player p"`` in that language);
    ``BAD_ARGUMENT`` when ``names`` is not a list or tuple.
    """
    if not isinstance(names, list | tuple | None):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"names are a list of player names, not {excerpt(names)}"
        )
    words = words or catalogue()
    name_of: dict[int, Name] = {p: player_name(p) for p in range(1, numplayers + 1)}
    for p, name in enumerate(names or [], start=1):
        if p <= numplayers:
            name_of[p] = str(name)
    return [
        [
            words.say(phrase)
            for phrase in move_sentences(
                entry.events, name_of[before.position.currplayer], name_of, entry.position
            )
        ]
        for before, entry in pairwise(stack)
    ]


def chat_log(
    stack: Sequence[Entry],
    numplayers: int,
    names: Sequence[str] | None = None,
    words: Catalogue | None = None,
) -> list[list[str]]:
    """For each stack entry with results: ``[timestamp, sentence, …]``, the
    sentences in ``words``' language (default English).

    ``names[p - 1]`` names player p (default ``"Player p"`` in that language).
    """
    said = entry_sentences(stack, numplayers, names, words)
    return [[entry.timestamp, *s] for entry, s in zip(stack[1:], said, strict=True) if s]
