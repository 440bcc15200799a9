"""An analysis a player can read: several lines, and who gets what.

:func:`analyse` searches a position with :class:`~stawvs_ap.bots.mcts.MCTSBot`
(the bot of ``hint``) and answers an :class:`Analysis`:

* ``lines``: the K best moves, the search's choice first (the move ``hint``
  gives at the same budget and seed), then the others by their share. Each has
  the share of the win the mover can expect after it, the very value ``hint``
  shows (the bot's candidate value); its visits; its principal variation (the
  most visited reply at each step of the search's tree); and, where the
  endgame solver proves it, its exact ``margin`` (then ``exact``; the share is
  then the proven one: 1 for a win alone, 1/k for a win shared by k, 0 for a
  loss).
* ``claims``: for every square holding a pyramid, the probability that each
  player ends up collecting it. When the position is proven, they are those of
  the proven line played to the end: 1 for each square's collector. Otherwise
  they are counted over playouts that follow the search's tree (each reply
  drawn in proportion to its visits) and then the bots' playout policy to the
  end of the game. A square nobody collects in a playout counts for nobody, so
  a square's probabilities sum to at most 1.

The budget is ``seconds`` and/or ``iterations``, as the bots'; the search gets
it whole with ``iterations`` (so that it repeats: the same seed, the same
answer), else :data:`SEARCH_SHARE` of the seconds, the proofs and playouts
having the rest. ``progress``, when given, is called with the lines found so
far, at most every :data:`PROGRESS_EVERY` seconds, while the search runs, and
never after :func:`analyse` returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.events import Event, FinalCapture, Moved
from ..core.moves import PASS, Move
from ..core.position import EMPTY, Position
from ..core.pyramids import PYRAMIDS
from ..core.squares import SQUARE_NAMES
from ..errors import ErrorCode, StawvsError
from .base import Budget, Candidate, GameLike, now, position_of
from .mcts import MCTSBot
from .options import MAX_SECONDS
from .simulate import policy_move
from .solver import Solution, Solver, final_margin
from .tree import Node

__all__ = [
    "DEFAULT_LINES",
    "MAX_LINES",
    "PROGRESS_EVERY",
    "SEARCH_SHARE",
    "Analysis",
    "Line",
    "analyse",
]

#: Lines given when none is asked for.
DEFAULT_LINES: Final = 3
#: The most lines an analysis gives.
MAX_LINES: Final = 20
#: The seconds of an analysis without a budget.
DEFAULT_SECONDS: Final = 1.0
#: The share of a time budget the search gets; proofs and playouts have the rest.
SEARCH_SHARE: Final = 0.75
#: The shortest time between two calls of ``progress``.
PROGRESS_EVERY: Final = 0.5
#: The moves of a principal variation at most.
PV_LENGTH: Final = 12
#: Playouts for the claim map: one per this many iterations of an iteration
#: budget, within :data:`MIN_PLAYOUTS` and :data:`MAX_PLAYOUTS`.
ITERATIONS_PER_PLAYOUT: Final = 20
MIN_PLAYOUTS: Final = 8
MAX_PLAYOUTS: Final = 400
#: Free pyramids at most for the solver to try a line's exact value.
SOLVE_BELOW: Final = 16
#: Positions the solver may visit per line.
NODES_PER_LINE: Final = 3_000


@dataclass(frozen=True, slots=True)
class Line:
    """One candidate move: its ``share`` of the win for the mover (0–1), the
    search's ``visits``, its principal variation ``pv`` (starting with
    ``move``) and, when the solver proved it, the mover's exact ``margin``."""

    move: Move
    share: float
    visits: int
    pv: tuple[Move, ...]
    margin: int | None = None

    @property
    def exact(self) -> bool:
        """Whether the line's value is proven."""
        return self.margin is not None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form: move, share, margin, exact, visits, pv."""
        return {
            "move": str(self.move),
            "share": round(self.share, 4),
            "margin": self.margin,
            "exact": self.exact,
            "visits": self.visits,
            "pv": [str(move) for move in self.pv],
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """What :func:`analyse` found about a position, for its ``player`` to move.

    ``claims`` maps each square holding a pyramid (by name) to the probability
    that each player collects it (``claims["e3"][p - 1]`` for player p);
    ``playouts`` is the number of playouts they were counted over (0 when
    they come from a proven line); ``proven`` whether the position's value is.
    """

    player: int
    lines: tuple[Line, ...]
    claims: dict[str, tuple[float, ...]]
    playouts: int
    proven: bool

    def likely_collector(self, square: str) -> tuple[int, float] | None:
        """The player most likely to collect ``square`` and that probability; None
        when nobody collects it in any playout (or it holds no pyramid)."""
        chances = self.claims.get(square)
        if not chances or max(chances) == 0:
            return None
        best = max(range(len(chances)), key=lambda index: chances[index])
        return best + 1, chances[best]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form: player, lines, claims, playouts, proven."""
        return {
            "player": self.player,
            "lines": [line.to_dict() for line in self.lines],
            "claims": {sq: [round(p, 4) for p in chances] for sq, chances in self.claims.items()},
            "playouts": self.playouts,
            "proven": self.proven,
        }


def analyse(
    game: GameLike,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    lines: int = DEFAULT_LINES,
    seed: int | None = None,
    progress: Callable[[tuple[Line, ...]], None] | None = None,
) -> Analysis:
    """The analysis of the position of ``game`` for its player to move (see the
    module's description); ``game`` is left unchanged. ``GAMEOVER`` when the
    game is over, ``BAD_ARGUMENT`` for a budget or a number of lines out of
    range (1 to :data:`MAX_LINES`).

    >>> from stawvs_ap import StawvsGame
    >>> found = analyse(StawvsGame.new(2, seed=1), iterations=60, seed=1)
    >>> len(found.lines), found.lines[0].pv[0] == found.lines[0].move
    (3, True)
    >>> all(sum(chances) <= 1 for chances in found.claims.values())
    True
    """
    if isinstance(lines, bool) or not isinstance(lines, int) or not 1 <= lines <= MAX_LINES:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"lines must be 1 to {MAX_LINES}")
    if seconds is None and iterations is None:
        seconds = DEFAULT_SECONDS
    budget = Budget(seconds, iterations)  # checked: BAD_ARGUMENT beyond the bots' ranges
    position = position_of(game)
    start = now()
    end = budget.deadline(start)
    search = Budget(None if seconds is None else seconds * SEARCH_SHARE, iterations)
    bot = MCTSBot(seed=seed)
    candidates = _search(bot, position, search, lines, progress)
    solution = bot.last_solution if bot.last_solution and bot.last_solution.proven else None
    found = _lines(position, bot, candidates, solution, lines, end)
    rng = random.Random(seed)
    proven_line = solution.line if solution is not None else ()
    claims = _collected_along(position, proven_line)
    playouts = 0
    if claims is None:
        count = MAX_PLAYOUTS if iterations is None else _playouts_for(iterations)
        claims, playouts = _counted_claims(position, bot.searched_tree(), rng, count, end)
    return Analysis(position.currplayer, tuple(found), claims, playouts, solution is not None)


def _playouts_for(iterations: int) -> int:
    return max(MIN_PLAYOUTS, min(MAX_PLAYOUTS, iterations // ITERATIONS_PER_PLAYOUT))


# -- the search and its lines ----------------------------------------------------------


def _search(
    bot: MCTSBot,
    position: Position,
    budget: Budget,
    lines: int,
    progress: Callable[[tuple[Line, ...]], None] | None,
) -> list[Candidate]:
    """The bot's candidates after a search of ``budget``: one search without
    ``progress``; with it, searches of at most :data:`PROGRESS_EVERY` seconds
    (or a share of the iterations) on the same tree, the lines so far reported
    after each."""
    if progress is None:
        return bot.analyse(position, seconds=budget.seconds, iterations=budget.iterations)
    start = reported = now()
    end = start + (budget.seconds if budget.seconds is not None else MAX_SECONDS)
    left = budget.iterations
    chunk = None if left is None else max(1, left // 8)
    while True:
        clock = now()
        slice_seconds = max(min(PROGRESS_EVERY, end - clock), 1e-3)
        slice_iterations = None if left is None or chunk is None else min(chunk, left)
        candidates = bot.analyse(position, seconds=slice_seconds, iterations=slice_iterations)
        if left is not None:
            left -= slice_iterations or 0
        if now() >= end or (left is not None and left <= 0) or bot.searched_tree() is None:
            return candidates
        if now() - reported >= PROGRESS_EVERY:  # a search stopped early ends its slice early
            reported = now()
            chosen = _chosen(candidates, lines)
            progress(tuple(_estimated(c, bot.searched_tree()) for c in chosen))


def _chosen(candidates: Sequence[Candidate], lines: int) -> list[Candidate]:
    """The search's choice, then the best others by share (as ``hint`` lists them)."""
    rest = sorted(candidates[1:], key=lambda candidate: -candidate.value)
    return [*candidates[:1], *rest[: lines - 1]]


def _estimated(candidate: Candidate, root: Node | None) -> Line:
    return Line(candidate.move, candidate.value, candidate.visits, _pv(candidate.move, root))


def _pv(move: Move, root: Node | None) -> tuple[Move, ...]:
    """``move`` and the most visited replies after it in the tree of ``root``."""
    pv = [move]
    node = None if root is None else next((c for c in root.children if c.move == move), None)
    while node is not None and len(pv) < PV_LENGTH:
        tried = [child for child in node.children if child.visits and child.move is not None]
        if not tried:
            break
        node = max(tried, key=lambda child: child.visits)
        assert node.move is not None
        pv.append(node.move)
    return tuple(pv)


def _lines(
    position: Position,
    bot: MCTSBot,
    candidates: list[Candidate],
    solution: Solution | None,
    lines: int,
    end: float,
) -> list[Line]:
    """The lines of the analysis: the search's, each proven where the solver can
    within the budget; when the root solver answered for two players, every
    legal move solved, so that K lines are given."""
    root = bot.searched_tree()
    pool = list(candidates)
    if solution is not None and root is None and position.rules.numplayers == 2:
        solved = {c.move for c in candidates}
        pool += [Candidate(m, 0, 0.0) for m in position.legal_moves() if m not in solved]
    solver = Solver()
    found: list[Line] = []
    for candidate in pool if root is None else _chosen(candidates, lines):
        if now() >= end:
            break
        line = _estimated(candidate, root)
        if solution is not None and solution.best and candidate.move in solution.best:
            pv = solution.line if candidate.move == solution.line[0] else line.pv
            found.append(_exact(position, line.move, line.visits, pv, solution.margin))
            continue
        proven = _proven(position, candidate.move, solver, end)
        if proven is not None:
            found.append(_exact(position, line.move, line.visits, *proven))
        elif root is not None:  # with no tree, a move the solver did not prove has no value
            found.append(line)
    if root is None:  # every line proven: the best first, the solver's first move leading
        found.sort(key=_rank)
    rest = sorted(found[1:], key=_rank)
    return [*found[:1], *rest[: lines - 1]]


def _rank(line: Line) -> tuple[float, float]:
    """Lines by share, the larger first; equal shares by proven margin."""
    return -line.share, -(line.margin if line.margin is not None else -1e9)


def _proven(
    position: Position, move: Move, solver: Solver, end: float
) -> tuple[tuple[Move, ...], int] | None:
    """The principal variation and the mover's exact margin after ``move``, when
    the solver proves them within the budget (two players only: with more, the
    value of the position after a move is not the mover's)."""
    if (
        position.rules.numplayers != 2
        or position.mode != "collect"
        or position.free.bit_count() > SOLVE_BELOW
    ):
        return None
    after, _ = position.play(move)
    mover = position.currplayer
    if after.is_over:
        return (move,), final_margin(after, mover)
    # A share of the time left, so that the other lines and the playouts have theirs.
    seconds = (end - now()) / 4
    if seconds <= 1e-3:
        return None
    answer = solver.solve(after, seconds=min(seconds, MAX_SECONDS), nodes=NODES_PER_LINE)
    if not answer.proven or answer.margin is None:
        return None
    margin = answer.margin if after.currplayer == mover else -answer.margin
    return (move, *answer.line), margin


def _exact(
    position: Position, move: Move, visits: int, pv: Sequence[Move], margin: int | None
) -> Line:
    """A proven line: its share is the one the end of its line gives the mover."""
    assert margin is not None
    mover = position.currplayer
    end = position
    for step in pv:
        end, _ = end.play(step)
    if end.is_over:
        winners = end.winners()
        share = 1 / len(winners) if mover in winners else 0.0
    else:  # a line cut short: the margin says who wins, not with how many
        share = 1.0 if margin > 0 else 0.0 if margin < 0 else 1 / position.rules.numplayers
    return Line(move, share, visits, tuple(pv), margin)


# -- the claim map -----------------------------------------------------------------------


def _pyramid_squares(position: Position) -> list[int]:
    """The squares holding a pyramid (not a ghost)."""
    return [
        sq
        for sq, pyramid in enumerate(position.board)
        if pyramid != EMPTY and not PYRAMIDS[pyramid].is_ghost
    ]


def _collectors(events: Iterable[Event], into: dict[int, int]) -> None:
    """Note in ``into`` the collector of each square the events collect."""
    for event in events:
        if isinstance(event, Moved):
            into[event.target] = event.player
        elif isinstance(event, FinalCapture):
            into[event.square] = event.player


def _collected_along(
    position: Position, line: Sequence[Move]
) -> dict[str, tuple[float, ...]] | None:
    """The claims of a proven line played to the end (1 for each collector), or
    None when it does not reach the end of the game."""
    if not line:
        return None
    collected: dict[int, int] = {}
    end = position
    for move in line:
        end, events = end.play(move)
        _collectors(events, collected)
    while not end.is_over and end.currplayer in end.eliminated:
        end, events = end.play(PASS)
        _collectors(events, collected)
    if not end.is_over:
        return None
    players = position.rules.numplayers
    return {
        SQUARE_NAMES[sq]: tuple(float(collected.get(sq) == p) for p in range(1, players + 1))
        for sq in _pyramid_squares(position)
    }


def _counted_claims(
    position: Position, root: Node | None, rng: random.Random, count: int, end: float
) -> tuple[dict[str, tuple[float, ...]], int]:
    """The claims counted over at most ``count`` playouts finished before ``end``
    (at least one is always played), and how many there were."""
    squares = _pyramid_squares(position)
    players = position.rules.numplayers
    counts = {sq: [0] * players for sq in squares}
    done = 0
    while done < count and (done == 0 or now() < end):
        collected = _playout(position, root, rng)
        for sq, player in collected.items():
            if sq in counts:
                counts[sq][player - 1] += 1
        done += 1
    return {SQUARE_NAMES[sq]: tuple(n / done for n in counts[sq]) for sq in squares}, done


def _playout(position: Position, root: Node | None, rng: random.Random) -> dict[int, int]:
    """Who collects each square in one game played on from ``position``: down the
    tree of ``root`` by replies drawn in proportion to their visits, then by the
    bots' playout policy to the end."""
    collected: dict[int, int] = {}
    node = root
    while not position.is_over:
        tried = (
            [] if node is None else [c for c in node.children if c.visits and c.move is not None]
        )
        if tried:
            node = rng.choices(tried, weights=[child.visits for child in tried])[0]
            assert node.move is not None
            move = node.move
        else:
            node = None
            move = (
                PASS if position.currplayer in position.eliminated else policy_move(position, rng)
            )
        position, events = position.play(move)
        _collectors(events, collected)
    return collected
