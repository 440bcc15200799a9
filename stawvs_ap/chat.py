"""The chat log: one readable sentence per move result, in our own words."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state_io import Entry

__all__ = ["chat_log", "describe_result", "join_names"]


def join_names(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def describe_result(result: dict[str, Any], actor: str, name_of: dict[int, str]) -> str:
    """A sentence for one result object; ``actor`` is the name of who moved."""
    kind = result.get("type")
    if kind == "place":
        return f"{actor} placed a cap on {result['where']}."
    if kind == "move":
        return (
            f"{actor} moved from {result['from']} to {result['to']} and claimed "
            f"{result['what']} at {result['how']}."
        )
    if kind == "announce":
        under = list(result.get("payload", []))
        kept = (
            f" Their caps stand on {join_names(under)}." if under else ""
        )
        return f"{actor} had no move left and passed, and will pass from now on.{kept}"
    if kind == "pass":
        return f"{actor} passed."
    if kind == "eog":
        return "The game is over."
    if kind == "winners":
        winners = [name_of.get(p, f"Player {p}") for p in result.get("players", [])]
        if not winners:
            return "Nobody won."
        if len(winners) == 1:
            return f"{winners[0]} won."
        return f"{join_names(winners)} shared the win."
    if kind == "resigned":
        return f"{name_of.get(result['player'], actor)} resigned."
    if kind == "timeout":
        return f"{name_of.get(result['player'], actor)} ran out of time."
    if kind == "drawagreed":
        return "The players agreed to a draw."
    if kind == "gameabandoned":
        return "The game was abandoned."
    return f"{actor}: {kind}."


def chat_log(
    stack: Sequence[Entry], numplayers: int, names: Sequence[str] | None = None
) -> list[list[str]]:
    """For each stack entry with results: ``[timestamp, sentence, …]``.

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
        sentences = [describe_result(r, actor, name_of) for r in entry.results]
        log.append([entry.timestamp, *sentences])
    return log
