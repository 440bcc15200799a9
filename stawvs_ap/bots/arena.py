"""The arena: games between bots, with seats rotated, and what they show.

A *lineup* names one bot per seat (``mcts:seconds=0.25``, ``greedy``…). Game
``g`` of a match seats lineup entry ``j`` at seat ``(j - g) mod players``, so
over every ``players`` consecutive games each entry sits in every seat once,
on the same starting board (boards change from one such round to the next).
Every board and every bot is seeded from the match's seed and the game's
number, so a match with iteration budgets gives the same games every time,
however many processes play them.
"""

from __future__ import annotations

import inspect
import math
import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ErrorCode, StawvsError
from ..host.game import StawvsGame
from .base import Bot, now, play_turn
from .engine import ExecBot
from .registry import bot_class

__all__ = [
    "BotSpec",
    "GameResult",
    "LineupStats",
    "failures_text",
    "format_table",
    "match_report",
    "play_game",
    "play_match",
    "seat_order",
    "summarise",
    "wilson",
]

Option = int | float | bool | str


def _option(text: str) -> Option:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def _exec_parts(rest: str) -> tuple[str, str]:
    """An ``exec`` spec's options and command: ``KEY=VALUE,...:COMMAND``, or the
    whole of ``rest`` as the command when what comes before its first ``:`` is
    not a list of options."""
    head, colon, tail = rest.partition(":")
    items = [item.strip() for item in head.split(",")]
    if colon and all(
        "=" in item and item.partition("=")[0].strip().isidentifier() for item in items
    ):
        return head, tail
    return "", rest


@dataclass(frozen=True)
class BotSpec:
    """A bot and its options as written on the command line: ``NAME[:KEY=VALUE,...]``,
    for example ``mcts:seconds=0.25`` or ``uct:iterations=500`` (the options are
    the keyword arguments of the bot's class). ``NAME`` is a built-in bot or a
    plug-in (:func:`~stawvs_ap.bots.registry.bot_class`). An external engine is
    ``exec:COMMAND`` or ``exec:KEY=VALUE,...:COMMAND`` (``exec:seconds=0.5:node
    engine.mjs``), and only when ``allow_exec`` is given: a spec that comes from
    someone else (a request to a service) must not run programs."""

    name: str
    options: tuple[tuple[str, Option], ...] = ()

    @classmethod
    def parse(cls, text: str, *, allow_exec: bool = False) -> BotSpec:
        """The spec ``text`` denotes; ``BAD_ARGUMENT`` naming the problem otherwise."""
        name, _, rest = text.strip().partition(":")
        name = name.strip()
        bot = bot_class(name)
        command: list[tuple[str, Option]] = []
        if bot is ExecBot:
            if not allow_exec:
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT, "exec bots run programs: they are not allowed here"
                )
            rest, program = _exec_parts(rest)
            command = [("command", program.strip())]
        allowed = [p for p in inspect.signature(bot).parameters if p not in ("seed", "command")]
        options: list[tuple[str, Option]] = []
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, equals, value = item.partition("=")
            key = key.strip().replace("-", "_")
            if not equals or key not in allowed:
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT,
                    f"bot {name!r} takes options KEY=VALUE with KEY one of "
                    f"{', '.join(allowed)}, not {item!r}",
                )
            try:
                options.append((key, _option(value.strip())))
            except ValueError as exc:
                raise StawvsError(ErrorCode.BAD_ARGUMENT, f"bot option {key}: {exc}") from None
        spec = cls(name, (*command, *options))
        spec.make(0)  # refuses out-of-range budgets now rather than in a worker
        return spec

    def make(self, seed: int | str | None) -> Bot:
        """A new bot of this spec, seeded."""
        try:
            return bot_class(self.name)(seed=seed, **dict(self.options))  # type: ignore[arg-type]
        except TypeError as exc:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"bot {self}: {exc}") from None

    def __str__(self) -> str:
        options = [(k, v) for k, v in self.options if k != "command"]
        text = self.name + (":" + ",".join(f"{k}={v}" for k, v in options) if options else "")
        command = dict(self.options).get("command")
        return text if command is None else f"{text}:{command}"


@dataclass(frozen=True)
class GameResult:
    """One arena game. Lists are per lineup entry unless said otherwise."""

    index: int
    seats: tuple[int, ...]  # the seat (1-based) of each lineup entry
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # the lineup entries sharing the top score
    plies: int
    thinking: tuple[float, ...]  # seconds spent choosing
    moves: tuple[int, ...]  # moves chosen
    seat_scores: tuple[int, ...] = field(default=())  # scores by seat
    #: How the game ended: "normal" by the rules, else "timeout" or "forfeit" of
    #: the lineup entry ``failed``, which lost it for ``reason``.
    ending: str = "normal"
    failed: int | None = None
    reason: str = ""


def seat_order(index: int, players: int) -> list[int]:
    """For game ``index``, the lineup entry at each seat (seat 1 first)."""
    return [(seat + index) % players for seat in range(players)]


def play_game(
    lineup: Sequence[BotSpec],
    variants: Sequence[str],
    seed: int | str,
    index: int,
    fresh_boards: bool = False,
) -> GameResult:
    """Play game ``index`` of a match between ``lineup`` (one spec per seat): on the
    board of its round of seats, or with ``fresh_boards`` on a board of its own."""
    players = len(lineup)
    order = seat_order(index, players)
    board = index if fresh_boards else index // players
    game = StawvsGame.new(players, list(variants), seed=f"{seed}:board:{board}")
    bots = [lineup[entry].make(f"{seed}:bot:{index}:{entry}") for entry in order]
    thinking = [0.0] * players
    moves = [0] * players
    plies = 0
    ending, failed, reason = "normal", None, ""
    try:
        while not game.gameover:
            seat = game.currplayer - 1
            started = now()
            failure = play_turn(game, bots[seat])
            thinking[order[seat]] += now() - started
            if failure is not None:  # its player lost the game
                ending, failed, reason = failure.kind, order[seat], failure.reason
                break
            moves[order[seat]] += 1
            plies += 1
    finally:
        for bot in bots:
            bot.close()
    seat_scores = game.position.scores()
    seats = [0] * players
    for seat, entry in enumerate(order):
        seats[entry] = seat + 1
    return GameResult(
        index=index,
        seats=tuple(seats),
        scores=tuple(seat_scores[seats[e] - 1] for e in range(players)),
        winners=tuple(sorted(order[w - 1] for w in game.winner)),
        plies=plies,
        thinking=tuple(thinking),
        moves=tuple(moves),
        seat_scores=tuple(seat_scores),
        ending=ending,
        failed=failed,
        reason=reason,
    )


def _play_one(job: tuple[tuple[BotSpec, ...], tuple[str, ...], int | str, int, bool]) -> GameResult:
    return play_game(*job)


def play_match(
    lineup: Sequence[BotSpec],
    games: int,
    *,
    variants: Sequence[str] = (),
    seed: int | str = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    fresh_boards: bool = False,
) -> list[GameResult]:
    """Play ``games`` games (numbered 0…) between ``lineup``, ``jobs`` at a time in
    separate processes; ``progress(done, games)`` is called as games finish.
    The results come in game order, the same whatever ``jobs`` is. With
    ``fresh_boards`` every game has a board of its own (for self-play, where
    rotating seats on one board only repeats a game)."""
    tasks = [(tuple(lineup), tuple(variants), seed, index, fresh_boards) for index in range(games)]
    results: list[GameResult] = []
    if progress:
        progress(0, games)
    if jobs <= 1 or games <= 1:
        for task in tasks:
            results.append(_play_one(task))
            if progress:
                progress(len(results), games)
    else:
        with multiprocessing.Pool(min(jobs, games)) as pool:
            for result in pool.imap_unordered(_play_one, tasks):
                results.append(result)
                if progress:
                    progress(len(results), games)
    return sorted(results, key=lambda r: r.index)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (95% for z = 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class LineupStats:
    """How one lineup entry did over a match. ``wins`` counts a win shared by k
    players as 1/k; ``rate`` is wins per game with its 95% Wilson interval."""

    label: str
    spec: str
    games: int
    wins: float
    sole_wins: int
    rate: float
    low: float
    high: float
    mean_score: float
    seconds_per_move: float
    moves: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.label,
            "spec": self.spec,
            "games": self.games,
            "wins": round(float(self.wins), 3),
            "sole_wins": self.sole_wins,
            "win_rate": round(self.rate, 4),
            "ci95": [round(self.low, 4), round(self.high, 4)],
            "mean_score": round(self.mean_score, 2),
            "seconds_per_move": round(self.seconds_per_move, 4),
            "moves": self.moves,
        }


def labels(lineup: Sequence[BotSpec]) -> list[str]:
    """Names for the lineup entries: the spec, with ``#2``… when it repeats."""
    seen: dict[str, int] = {}
    out = []
    for spec in lineup:
        text = str(spec)
        seen[text] = seen.get(text, 0) + 1
        out.append(text if seen[text] == 1 else f"{text} #{seen[text]}")
    return out


def summarise(lineup: Sequence[BotSpec], results: Sequence[GameResult]) -> list[LineupStats]:
    """Per lineup entry: games, wins, win rate with interval, mean score, time per move."""
    out = []
    for entry, label in enumerate(labels(lineup)):
        games = len(results)
        wins = sum(1 / len(r.winners) for r in results if entry in r.winners)
        sole = sum(1 for r in results if r.winners == (entry,))
        moves = sum(r.moves[entry] for r in results)
        thinking = sum(r.thinking[entry] for r in results)
        low, high = wilson(wins, games)
        out.append(
            LineupStats(
                label=label,
                spec=str(lineup[entry]),
                games=games,
                wins=wins,
                sole_wins=sole,
                rate=wins / games if games else 0.0,
                low=low,
                high=high,
                mean_score=sum(r.scores[entry] for r in results) / games if games else 0.0,
                seconds_per_move=thinking / moves if moves else 0.0,
                moves=moves,
            )
        )
    return out


def format_table(stats: Sequence[LineupStats]) -> str:
    """The stats as an aligned text table (Markdown pipes, so it pastes into docs)."""
    header = ["bot", "games", "wins", "win rate", "95% interval", "mean score", "s/move"]
    rows = [
        [
            s.label,
            str(s.games),
            f"{s.wins:g}",
            f"{100 * s.rate:.1f}%",
            f"{100 * s.low:.1f}–{100 * s.high:.1f}%",
            f"{s.mean_score:.1f}",
            f"{s.seconds_per_move:.3f}",
        ]
        for s in stats
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "| " + " | ".join("-" * w for w in widths) + " |"
    return "\n".join([line(header), rule, *map(line, rows)]) + "\n"


def match_report(
    lineup: Sequence[BotSpec],
    results: Sequence[GameResult],
    *,
    variants: Sequence[str],
    seed: int | str,
) -> dict[str, Any]:
    """The JSON report of a match: settings, per-entry stats and every game."""
    names = labels(lineup)
    return {
        "players": len(lineup),
        "variants": list(variants),
        "seed": seed,
        "games": len(results),
        "bots": [s.to_dict() for s in summarise(lineup, results)],
        "results": [
            {
                "game": r.index,
                "seats": [names[entry] for entry in seat_order(r.index, len(lineup))],
                "scores": list(r.seat_scores),
                "winners": sorted(r.seats[e] for e in r.winners),
                "plies": r.plies,
                "ending": r.ending,
                **({} if r.failed is None else {"loser": r.seats[r.failed], "reason": r.reason}),
            }
            for r in results
        ],
    }


def failures_text(lineup: Sequence[BotSpec], results: Sequence[GameResult], limit: int = 10) -> str:
    """A line for each game a bot lost by failing (at most ``limit``), or nothing."""
    failed = [r for r in results if r.failed is not None]
    names = labels(lineup)
    lines = [
        f"game {r.index}: {names[r.failed]} (seat {r.seats[r.failed]}) lost by {r.ending}: "
        f"{r.reason}"
        for r in failed[:limit]
        if r.failed is not None
    ]
    if len(failed) > limit:
        lines.append(f"… and {len(failed) - limit} more")
    return "".join(line + "\n" for line in lines)
