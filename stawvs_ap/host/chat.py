"""The chat log: one readable sentence per move result, in our own words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..core.position import EMPTY
from ..core.squares import SQUARE_OF_NAME
from ..state.results import describe

if TYPE_CHECKING:
    from ..core.position import Position
    from ..state.entry import Entry

__all__ = ["ChatContext", "chat_log", "describe_result", "join_names"]

#: Why a game ended, by the result type that ended it (an ending outside the rules).
_ENDING_REASONS = {
    "resigned": "The game is over by resignation.",
    "timeout": "The game is over because a player ran out of time.",
    "drawagreed": "The game is over by agreement.",
    "gameabandoned": "The game is over: it was abandoned.",
}


def join_names(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class ChatContext:
    """What a sentence may need besides its result: the position before and
    after the move and every result of the same move."""

    before: Position | None = None
    after: Position | None = None
    results: Sequence[dict[str, Any]] = field(default_factory=tuple)


def _placed_on(where: str, before: Position | None) -> str:
    """``"the large blue pyramid at d5"`` when the position before is known."""
    sq = SQUARE_OF_NAME.get(where)
    if before is None or sq is None or before.board[sq] == EMPTY:
        return where
    return f"the {describe(before.board[sq]).removeprefix('a ')} at {where}"


def _end_reason(context: ChatContext) -> str:
    for result in context.results:
        reason = _ENDING_REASONS.get(str(result.get("type")))
        if reason is not None:
            return reason
    finalfree = context.after is not None and context.after.rules.finalfree
    if finalfree:
        return "The game is over: every player has passed. The caps stay where they are."
    return (
        "The game is over: every player has passed, so each player collects "
        "the pyramids under their caps."
    )


def _winners(players: Sequence[int], name_of: dict[int, str], context: ChatContext) -> str:
    winners = [name_of.get(p, f"Player {p}") for p in players]
    if not winners:
        return "Nobody won."
    ended_by_play = not any(str(r.get("type")) in _ENDING_REASONS for r in context.results)
    points = ""
    if ended_by_play and context.after is not None:
        scores = context.after.scores()
        if 1 <= players[0] <= len(scores):
            points = f" with {scores[players[0] - 1]} points"
    if len(winners) == 1:
        return f"{winners[0]} won{points}."
    if points:
        points += " each"
    return f"{join_names(winners)} shared the win{points}."


def describe_result(
    result: dict[str, Any],
    actor: str,
    name_of: dict[int, str],
    context: ChatContext | None = None,
) -> str:
    """A sentence for one result object; ``actor`` is the name of who moved."""
    context = context or ChatContext()
    kind = result.get("type")
    if kind == "place":
        return f"{actor} placed a cap on {_placed_on(str(result['where']), context.before)}."
    if kind == "move":
        return (
            f"{actor} moved from {result['from']} to {result['to']} and claimed "
            f"{result['what']} at {result['how']}."
        )
    if kind == "announce":
        under = [str(name) for name in result.get("payload", [])]
        kept = f" {actor}'s caps still stand on {join_names(under)}." if under else ""
        return f"{actor} had no move left and passed, and will pass for the rest of the game.{kept}"
    if kind == "pass":
        return f"{actor} passed again."
    if kind == "eog":
        return _end_reason(context)
    if kind == "winners":
        return _winners(list(result.get("players", [])), name_of, context)
    if kind == "resigned":
        return f"{name_of.get(result['player'], actor)} resigned."
    if kind == "timeout":
        return f"{name_of.get(result['player'], actor)} ran out of time."
    if kind == "drawagreed":
        return "Everyone agreed to end the game in a draw."
    if kind == "gameabandoned":
        return "The game was called off."
    return f"{actor}: {kind}."


def chat_log(
    stack: Sequence[Entry], numplayers: int, names: Sequence[str] | None = None
) -> list[list[str]]:
    """For each stack entry with results: ``[timestamp, sentence, …]``, one
    sentence per result, in the order of the results.

    ``names[p - 1]`` names player p (default ``"Player p"``).
    """
    name_of = {p: f"Player {p}" for p in range(1, numplayers + 1)}
    for p, name in enumerate(names or [], start=1):
        if p <= numplayers:
            name_of[p] = str(name)
    log: list[list[str]] = []
    for before, entry in pairwise(stack):
        if not entry.results:
            continue
        actor = name_of[before.position.currplayer]
        context = ChatContext(before.position, entry.position, entry.results)
        sentences = [describe_result(r, actor, name_of, context) for r in entry.results]
        log.append([entry.timestamp, *sentences])
    return log
