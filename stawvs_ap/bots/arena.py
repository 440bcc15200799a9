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

import math
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..core.position import is_seed
from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import SEED_RANGE, StawvsGame
from ..state.entry import ENDINGS
from .base import now, play_turn
from .runners import InProcess, LocalProcesses, Runner, Stopped
from .spec import BotSpec

__all__ = [
    "NORMAL_ENDING",
    "BotSpec",
    "GameResult",
    "GameTask",
    "Keeper",
    "LineupStats",
    "Match",
    "Progress",
    "failures_text",
    "format_table",
    "labels",
    "match_report",
    "play_game",
    "play_match",
    "play_matches",
    "play_task",
    "seat_order",
    "summarise",
    "wilson",
]


#: How a game ended when its last move was played by the rules; an ending
#: outside the rules is the game's own (``resign``, ``timeout``, ...).
NORMAL_ENDING = "normal"


@dataclass(frozen=True)
class GameResult:
    """One arena game. Lists are per lineup entry unless said otherwise.

    ``ending`` is :data:`NORMAL_ENDING` for a game played to its end, else the
    ending the game was given (``timeout``, ``resign``), with ``reason`` saying
    why. ``attempts`` counts the times the game was started: more than 1 when a
    worker died under it. ``record`` is the game record when one was asked for.
    """

    index: int
    seats: tuple[int, ...]  # the seat (1-based) of each lineup entry
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # the lineup entries sharing the top score
    plies: int
    thinking: tuple[float, ...]  # seconds spent choosing
    moves: tuple[int, ...]  # moves chosen
    seat_scores: tuple[int, ...] = field(default=())  # scores by seat
    ending: str = NORMAL_ENDING
    reason: str = ""
    attempts: int = 1
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: The lineup entry whose bot failed and so lost (``ending`` is then
    #: ``timeout`` or ``forfeit``), else None.
    failed: int | None = None


def seat_order(index: int, players: int) -> list[int]:
    """For game ``index``, the lineup entry at each seat (seat 1 first)."""
    return [(seat + index) % players for seat in range(players)]


def derived_seed(seed: int, *parts: object) -> int:
    """The seed of one board or bot of a match: drawn from the match's ``seed`` and
    ``parts`` (what it seeds and which game and seat), the same on every machine.

    >>> derived_seed(1, "board", 0) == derived_seed(1, "board", 0) != derived_seed(1, "board", 1)
    True
    """
    return random.Random(":".join(map(str, (seed, *parts)))).getrandbits(63)


def play_game(
    lineup: Sequence[BotSpec],
    variants: Sequence[str],
    seed: int,
    index: int,
    fresh_boards: bool = False,
    *,
    record: bool = False,
    should_stop: Callable[[], bool] | None = None,
) -> GameResult:
    """Play game ``index`` of a match between ``lineup`` (one spec per seat): on the
    board of its round of seats, or with ``fresh_boards`` on a board of its own.
    Everything is seeded from ``seed`` and ``index``, so the game is the same
    wherever and whenever it is played (with iteration budgets). With ``record``
    the result carries the game record; ``should_stop`` is asked between moves,
    and a True answer raises :class:`~stawvs_ap.bots.runners.Stopped`."""
    players = len(lineup)
    order = seat_order(index, players)
    board = index if fresh_boards else index // players
    game = StawvsGame.new(players, list(variants), seed=derived_seed(seed, "board", board))
    bots = [lineup[entry].make(derived_seed(seed, "bot", index, entry)) for entry in order]
    thinking = [0.0] * players
    moves = [0] * players
    plies = 0
    # Why the game ended outside the rules, when it did: a bot that failed (an
    # engine late, silent or wrong) lost it, by a timeout or a forfeit (the
    # record says resign), and the reason is kept.
    ending, failed, reason = NORMAL_ENDING, None, ""
    try:
        while not game.gameover:
            if should_stop is not None and should_stop():
                raise Stopped(f"game {index} stopped: its run no longer wants it")
            seat = game.currplayer - 1
            started = now()
            failure = play_turn(game, bots[seat])
            thinking[order[seat]] += now() - started
            if failure is not None:
                ending, failed, reason = failure.kind, order[seat], failure.reason
                break
            moves[order[seat]] += 1
            plies += 1
    finally:
        for bot in bots:
            bot.close()
    if failed is None and game.lastmove in ENDINGS:
        ending = str(game.lastmove)
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
        reason=reason,
        record=_record(game, lineup, order, f"arena-{seed}-{index}") if record else None,
        failed=failed,
    )


def _record(
    game: StawvsGame, lineup: Sequence[BotSpec], order: Sequence[int], uid: str
) -> dict[str, Any]:
    """The record of an arena game: each seat named by its lineup entry's label."""
    names = labels(lineup)
    players = [{"name": names[e], "uid": f"entry-{e + 1}", "is_ai": True} for e in order]
    return game.gen_record(uid=uid, players=players)


@dataclass(frozen=True)
class Match:
    """What a match is, apart from its length: the lineup (one spec per seat),
    the variants, the seed, and whether every game has a board of its own
    (``fresh_boards``, for self-play, where rotating seats on one board only
    repeats a game)."""

    lineup: tuple[BotSpec, ...]
    variants: tuple[str, ...] = ()
    seed: int = 0
    fresh_boards: bool = False

    def __post_init__(self) -> None:
        if not is_seed(self.seed):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"{SEED_RANGE}, not {excerpt(self.seed)}")


@dataclass(frozen=True)
class GameTask:
    """One game of a match to play: all :func:`play_game` needs, so that it can be
    sent to another process or machine and played the same there."""

    match: Match
    index: int
    record: bool = False

    def play(self, should_stop: Callable[[], bool] | None = None) -> GameResult:
        m = self.match
        return play_game(
            m.lineup,
            m.variants,
            m.seed,
            self.index,
            m.fresh_boards,
            record=self.record,
            should_stop=should_stop,
        )


def play_task(task: GameTask, should_stop: Callable[[], bool] | None = None) -> GameResult:
    """``task.play(should_stop)``: the play function the runners are given."""
    return task.play(should_stop)


class Keeper(Protocol):
    """Where a match's games are kept as they finish (a
    :class:`~stawvs_ap.bots.journal.Journal`): the games already played, which
    are not played again, and whether each game's record is wanted."""

    records: bool

    def played(self) -> dict[int, GameResult]: ...

    def keep(self, result: GameResult) -> None: ...


#: Progress callbacks get (games done, games in all, retries so far).
Progress = Callable[[int, int, int], None]


def play_matches(
    matches: Sequence[Match],
    games: Sequence[int],
    *,
    runner: Runner | None = None,
    keepers: Sequence[Keeper | None] | None = None,
    progress: Progress | None = None,
) -> list[list[GameResult]]:
    """Play ``games[i]`` games (numbered 0…) of each match ``matches[i]`` on
    ``runner`` (default: here, one after the other), their games interleaved
    (game 0 of every match, then game 1, …) so that a run stopped early has
    played every match about as far. A match with a keeper skips the games it
    has kept and keeps each new one as it finishes. Returns each match's
    results in game order, the same whatever runs them: each game is seeded
    by its match and its number alone."""
    keepers = list(keepers) if keepers is not None else [None] * len(matches)
    if not len(matches) == len(games) == len(keepers):
        raise StawvsError(ErrorCode.BAD_ARGUMENT, "one number of games and one keeper per match")
    results = [
        {i: r for i, r in (k.played() if k else {}).items() if i < n}
        for k, n in zip(keepers, games, strict=True)
    ]
    total = sum(games)
    done = sum(len(r) for r in results)
    retries = sum(r.attempts - 1 for found in results for r in found.values())
    where = {m: n for n, m in enumerate(matches)}
    if len(where) != len(matches):
        raise StawvsError(ErrorCode.BAD_ARGUMENT, "the same match twice")

    def tasks() -> Iterator[GameTask]:
        for index in range(max(games, default=0)):
            for n, match in enumerate(matches):
                if index < games[n] and index not in results[n]:
                    keeper = keepers[n]
                    yield GameTask(match, index, record=bool(keeper and keeper.records))

    if progress:
        progress(done, total, retries)
    with closing((runner or InProcess()).run(tasks(), play_task)) as finished:
        for item in finished:
            n = where[item.task.match]
            result = replace(item.result, attempts=item.attempts)
            keeper = keepers[n]
            if keeper is not None:
                keeper.keep(result)
            results[n][result.index] = replace(result, record=None)
            done += 1
            retries += item.attempts - 1
            if progress:
                progress(done, total, retries)
    return [[found[i] for i in sorted(found)] for found in results]


def play_match(
    lineup: Sequence[BotSpec],
    games: int,
    *,
    variants: Sequence[str] = (),
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    fresh_boards: bool = False,
    runner: Runner | None = None,
    keeper: Keeper | None = None,
) -> list[GameResult]:
    """Play ``games`` games (numbered 0…) between ``lineup``: on ``runner``, or
    ``jobs`` at a time in local processes; ``progress(done, games, retries)``
    is called as games finish. The results come in game order, the same
    whatever runs them. With ``fresh_boards`` every game has a board of its
    own (for self-play, where rotating seats on one board only repeats a
    game). See :func:`play_matches` for ``keeper``."""
    if runner is None:
        runner = LocalProcesses(jobs) if jobs > 1 and games > 1 else InProcess()
    match = Match(tuple(lineup), tuple(variants), seed, fresh_boards)
    return play_matches([match], [games], runner=runner, keepers=[keeper], progress=progress)[0]


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
    seed: int,
    record_path: Callable[[int], str] | None = None,
) -> dict[str, Any]:
    """The JSON report of a match: settings, per-entry stats, the retries (games
    started again after a worker died under them) and every game, with the path
    of its record (``record_path(index)``) when the records were kept."""
    names = labels(lineup)
    games = []
    for r in results:
        game: dict[str, Any] = {
            "game": r.index,
            "seats": [names[entry] for entry in seat_order(r.index, len(lineup))],
            "scores": list(r.seat_scores),
            "winners": sorted(r.seats[e] for e in r.winners),
            "plies": r.plies,
            "ending": r.ending,
            "attempts": r.attempts,
        }
        if r.failed is not None:
            game["loser"] = r.seats[r.failed]
        if r.reason:
            game["reason"] = r.reason
        if record_path is not None:
            game["record"] = record_path(r.index)
        games.append(game)
    return {
        "players": len(lineup),
        "variants": list(variants),
        "seed": seed,
        "games": len(results),
        "retries": sum(r.attempts - 1 for r in results),
        "bots": [s.to_dict() for s in summarise(lineup, results)],
        "results": games,
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
