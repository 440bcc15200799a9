"""A game review: where a game was won and lost, ply by ply (:func:`review`).

A bot appraises every position of the game (:mod:`stawvs_ap.bots.appraise`),
each in a task of its own that a runner may play anywhere, and the review puts
the answers together:

* ``value_before`` is the mover's share of the win with the best move the
  search found (its first candidate); ``value_after`` the mover's share
  after the move played: the candidate's own value when the search weighed
  that move, else the share of the position it leads to (two players: one
  less the opponent's best share there; three or four: the static
  evaluation that the search values its leaves with). A finished game's
  shares are exact: 1 for a sole winner, 1/k for each of k tied winners.
* ``loss`` is ``value_before − value_after``, never below 0, and the
  judgement follows it: an inaccuracy from :data:`INACCURACY`, a mistake from
  :data:`MISTAKE`, a blunder from :data:`BLUNDER`. A forced move (a lone pass)
  is never judged, nor a move whose exact values are equal.
* The graph's points (``shares``) are every player's share after each ply.
  With two players, the mover's is the mean of the two searches' views of the
  move, the mover's (``value_after``) and the opponent's at the next position
  (one less their best share), so that a search's optimism for the player it
  searches for does not zigzag the lines; with three or four players, those
  who did not move keep their last share.
* A player's **accuracy** is the mean, over their unforced moves, of
  ``100 × (1 − min(1, loss / BLUNDER))``: 100 for a move that loses nothing,
  0 for one that loses a blunder's worth or more, in a straight line between.

With an iteration budget (``mcts:iterations=2000``), the same seed gives the
same review, however many processes play the tasks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..core.moves import Move, MoveSyntaxError
from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import StawvsGame
from ..records import game_of as state_or_record_game
from ..version import __version__
from .appraise import Appraisal, Appraised, appraise
from .base import BotErrorCode, Budget
from .runners import InProcess, LocalProcesses, Runner
from .solver import MAX_NODES
from .spec import BotSpec

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MAX_REVIEW_PLIES",
    "MISTAKE",
    "SOLVER_NODES",
    "Judgement",
    "PlayerReview",
    "PlyReview",
    "Review",
    "continue_review",
    "judge",
    "review",
    "review_many",
]

#: The least loss of a share of the win that is an inaccuracy, a mistake, a blunder.
INACCURACY: Final = 0.10
MISTAKE: Final = 0.20
BLUNDER: Final = 0.30
#: The positions the exact solver visits at most on each position of a review
#: before the search takes over: the last plies of a game, about 0.05 s.
SOLVER_NODES: Final = 2_000
#: The most plies a review looks at (a game of Stawvs has fewer than 200).
MAX_REVIEW_PLIES: Final = 400

Judgement = Literal["inaccuracy", "mistake", "blunder"]
#: Called with the positions appraised so far and how many there are.
Progress = Callable[[int, int], None]


def judge(loss: float) -> Judgement | None:
    """The judgement of a move that loses ``loss`` of the mover's share of the win.

    >>> judge(0.05), judge(0.1), judge(0.25), judge(0.3)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(loss: float) -> float:
    """A move's accuracy from 0 to 100: 100 less 100 per blunder's worth of loss.

    >>> move_accuracy(0.0), move_accuracy(0.15), move_accuracy(0.9)
    (100.0, 50.0, 0.0)
    """
    return 100.0 * (1.0 - min(1.0, loss / BLUNDER))


@dataclass(frozen=True)
class PlyReview:
    """One ply of a review (see the module's description). ``shares`` holds every
    player's share of the win after the ply, the graph's points: with three or
    four players those who did not move keep their last known share."""

    ply: int
    player: int
    move: str
    best: str | None
    value_before: float
    value_after: float
    loss: float
    exact: bool
    judgement: Judgement | None
    forced: bool
    shares: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of docs/CONTRACT.md's review (values to 4 places)."""
        return {
            "ply": self.ply,
            "player": self.player,
            "move": self.move,
            "best": self.best,
            "value_before": round(self.value_before, 4),
            "value_after": round(self.value_after, 4),
            "loss": round(self.loss, 4),
            "exact": self.exact,
            "judgement": self.judgement,
            "forced": self.forced,
            "shares": [round(s, 4) for s in self.shares],
        }


@dataclass(frozen=True)
class PlayerReview:
    """A player's judgements counted, and their accuracy (None without a move to judge)."""

    player: int
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
        }


@dataclass(frozen=True)
class Review:
    """The review of a game: its plies, each player's summary, the shares at the
    start, and how it was made (bot, budget a move, the solver's budget a
    position, seed, version, seconds)."""

    numplayers: int
    start: tuple[float, ...]
    plies: tuple[PlyReview, ...]
    players: tuple[PlayerReview, ...]
    bot: str
    seconds_per_move: float | None
    iterations_per_move: int | None
    seed: int | str
    version: str
    seconds: float
    solver_nodes: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form documented in docs/CONTRACT.md (``review.schema.json``)."""
        return {
            "numplayers": self.numplayers,
            "bot": self.bot,
            "seconds_per_move": self.seconds_per_move,
            "iterations_per_move": self.iterations_per_move,
            "solver_nodes": self.solver_nodes,
            "seed": self.seed,
            "version": self.version,
            "seconds": round(self.seconds, 2),
            "start": [round(s, 4) for s in self.start],
            "plies": [p.to_dict() for p in self.plies],
            "players": [p.to_dict() for p in self.players],
        }

    def same_judgements(self, other: Review) -> bool:
        """Whether ``other`` found the same, however long it took."""
        return (self.plies, self.players, self.start) == (other.plies, other.players, other.start)


# -- the game's positions --------------------------------------------------------------


def game_of(game_or_record: object, initial: str | dict[str, Any] | None = None) -> StawvsGame:
    """The game to review: a :class:`StawvsGame` as it is (its whole stack), a
    record replayed (``BAD_RECORD`` when it does not replay; a game in progress
    is reviewed up to its last move; one without a starting board from the state
    ``initial``), a state's text."""
    if isinstance(game_or_record, StawvsGame):
        return game_or_record.clone()
    if isinstance(game_or_record, str | dict):
        return state_or_record_game(game_or_record, initial)
    raise StawvsError(
        ErrorCode.BAD_ARGUMENT,
        f"a review takes a StawvsGame, a record or a state, not {type(game_or_record).__name__}",
    )


def _moves_of(game: StawvsGame) -> list[tuple[Any, Move | None]]:
    """Each position of the game's stack, with the move played from it (None at the
    last, or where the game was ended by its host: a resignation, a timeout)."""
    count = len(game.stack)
    if count - 1 > MAX_REVIEW_PLIES:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a review looks at most {MAX_REVIEW_PLIES} plies, this game has {count - 1}",
        )
    shown = game.clone()
    positions = [shown.load(i).position for i in range(count)]
    steps: list[tuple[Any, Move | None]] = []
    for i, position in enumerate(positions):
        move = None
        if i + 1 < count:
            parsed = _parsed(shown.load(i + 1).lastmove)
            if parsed is not None and position.play(parsed)[0] == positions[i + 1]:
                move = parsed
        steps.append((position, move))
        if move is None:
            break
    return steps


def _parsed(text: str | None) -> Move | None:
    """The move of a stack entry, None for an ending the host made (``resign``...)."""
    try:
        return Move.parse(text) if text else None
    except MoveSyntaxError:
        return None


# -- putting the answers together ----------------------------------------------------------


def _assemble(
    steps: Sequence[tuple[Any, Move | None]], found: Sequence[Appraised]
) -> tuple[tuple[float, ...], list[PlyReview]]:
    """The shares at the start and the reviewed plies, from every position's appraisal."""
    players = steps[0][0].rules.numplayers
    # share[i]: the share of the mover at position i (2 players: read back from the end).
    mover_share: list[float | None] = [None] * len(steps)
    exact_at: list[bool] = [False] * len(steps)
    for i in range(len(steps) - 1, -1, -1):
        position, _ = steps[i]
        answer = found[i]
        if answer.over:
            mover_share[i] = answer.shares[position.currplayer - 1]
            exact_at[i] = True
        elif answer.value is not None:
            mover_share[i] = answer.value
            exact_at[i] = answer.exact
        elif answer.forced and players == 2 and i + 1 < len(steps):
            after = steps[i + 1][0]
            following = mover_share[i + 1]
            if following is not None:
                same = after.currplayer == position.currplayer
                mover_share[i] = following if same else 1.0 - following
                exact_at[i] = exact_at[i + 1]

    def share_of(i: int, player: int) -> tuple[float | None, bool]:
        """Player ``player``'s share at position ``i`` as far as it is known."""
        position = steps[i][0]
        if found[i].over:
            return found[i].shares[player - 1], True
        value = mover_share[i]
        if value is None:
            return None, False
        if player == position.currplayer:
            return value, exact_at[i]
        if players == 2:
            return 1.0 - value, exact_at[i]
        return None, False

    shares = [1.0 / players] * players
    for p in range(1, players + 1):
        known, _ = share_of(0, p)
        if known is not None:
            shares[p - 1] = known
    start = tuple(shares)
    plies: list[PlyReview] = []
    for i, (position, move) in enumerate(steps):
        if move is None:
            break
        mover = position.currplayer
        answer = found[i]
        after_value, after_exact = share_of(i + 1, mover)
        if answer.played_value is not None and (answer.played_exact or not after_exact):
            after_value, after_exact = answer.played_value, answer.played_exact
        elif after_value is None:
            after_value = answer.estimate
        before_value, before_exact = share_of(i, mover)
        if answer.forced or before_value is None:
            before_value, before_exact = after_value, after_exact
        if after_value is None or before_value is None:
            after_value = before_value = shares[mover - 1]
        exact = before_exact and after_exact
        loss = max(0.0, before_value - after_value)
        judgement = None if answer.forced or (exact and loss == 0) else judge(loss)
        shown = after_value
        if players == 2 and not after_exact:
            # The graph evens out the two searches' views: the mover's of the move
            # played and the opponent's of the position it made.
            following, _ = share_of(i + 1, mover)
            if following is not None:
                shown = (after_value + following) / 2
        shares[mover - 1] = shown
        if players == 2:
            shares[2 - mover] = 1.0 - shown
        if found[i + 1].over:
            shares = list(found[i + 1].shares)
        plies.append(
            PlyReview(
                ply=i + 1,
                player=mover,
                move=str(move),
                best=str(move) if answer.forced else _text(answer.best),
                value_before=before_value,
                value_after=after_value,
                loss=loss,
                exact=exact,
                judgement=judgement,
                forced=answer.forced,
                shares=tuple(shares),
            )
        )
    return start, plies


def _text(move: Move | None) -> str | None:
    return None if move is None else str(move)


def _summaries(players: int, plies: Iterable[PlyReview]) -> tuple[PlayerReview, ...]:
    mine: dict[int, list[PlyReview]] = {p: [] for p in range(1, players + 1)}
    for ply in plies:
        mine[ply.player].append(ply)
    out = []
    for player, own in mine.items():
        judged = [p for p in own if not p.forced]
        accuracy = sum(move_accuracy(p.loss) for p in judged) / len(judged) if judged else None
        out.append(
            PlayerReview(
                player,
                sum(p.judgement == "inaccuracy" for p in own),
                sum(p.judgement == "mistake" for p in own),
                sum(p.judgement == "blunder" for p in own),
                accuracy,
            )
        )
    return tuple(out)


# -- the public doors ------------------------------------------------------------------------


def _spec(bot: str | BotSpec) -> BotSpec:
    return bot if isinstance(bot, BotSpec) else BotSpec.parse(bot)


def _nothing() -> None:
    """What letting go of a runner that holds nothing takes."""


def _runner(jobs: int | None, cluster: str | None) -> tuple[Runner, Callable[[], None]]:
    if cluster is not None:
        if jobs is not None:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "give jobs or a cluster, not both")
        from .cluster import Cluster  # Dask is imported only when asked for

        connected = Cluster(cluster)
        return connected, connected.close
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"jobs is a whole number from 1, not {excerpt(jobs)}"
        )
    return (LocalProcesses(jobs) if jobs and jobs > 1 else InProcess()), _nothing


def _review_of(
    steps: Sequence[tuple[Any, Move | None]],
    found: Sequence[Appraised],
    spec: BotSpec,
    budget: Budget,
    seed: int | str,
    seconds: float,
    solver_nodes: int,
) -> Review:
    """The review of the plies whose positions ``found`` appraised (a prefix of
    ``steps``: a review stopped halfway reviews the plies it can)."""
    players = steps[0][0].rules.numplayers
    if not found:
        start: tuple[float, ...] = (1.0 / players,) * players
        plies: list[PlyReview] = []
    else:
        if len(found) < len(steps):
            steps = [*steps[: len(found) - 1], (steps[len(found) - 1][0], None)]
        start, plies = _assemble(steps, found)
    return Review(
        numplayers=players,
        start=start,
        plies=tuple(plies),
        players=_summaries(players, plies),
        bot=str(spec),
        seconds_per_move=budget.seconds,
        iterations_per_move=budget.iterations,
        seed=seed,
        version=__version__,
        seconds=seconds,
        solver_nodes=solver_nodes,
    )


def _solver_nodes(nodes: object) -> int:
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 0 <= nodes <= MAX_NODES:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"solver_nodes is a whole number from 0 to {MAX_NODES:,}"
        )
    return nodes


def _budget(spec: BotSpec, seconds: float | None, iterations: int | None) -> Budget:
    """The budget of one search: the one given, else the spec's own, else the bot's
    default (``BAD_ARGUMENT`` out of range)."""
    with spec.make(0) as bot:
        return bot.budget(seconds, iterations)


def review_many(
    games: Sequence[object],
    *,
    bot: str | BotSpec = "mcts",
    seconds_per_move: float | None = None,
    iterations_per_move: int | None = None,
    seed: int | str = 1,
    solver_nodes: int = SOLVER_NODES,
    jobs: int | None = None,
    cluster: str | None = None,
    runner: Runner | None = None,
    progress: Progress | None = None,
) -> list[Review]:
    """The reviews of ``games`` (games, records or states), all their positions
    appraised through one runner: this process, ``jobs`` local processes, the
    Dask ``cluster`` at that address, or the ``runner`` given. The same seed
    and iteration budget give the same reviews whatever runs them.

    The budget of one search is ``seconds_per_move`` and/or
    ``iterations_per_move``, else the spec's own, else the bot's default.
    The exact solver (:func:`~stawvs_ap.bots.solver.solve`) first looks at
    each position, visiting at most ``solver_nodes`` positions (0: never); a
    position it proves costs no search. ``BAD_RECORD`` for a record that does
    not replay, ``BAD_ARGUMENT`` for a bad spec, budget or runner choice.
    """
    spec = _spec(bot)
    budget = _budget(spec, seconds_per_move, iterations_per_move)
    solver_nodes = _solver_nodes(solver_nodes)
    prepared = [_moves_of(game_of(g)) for g in games]
    tasks = [
        Appraisal(i, position, move, spec, seed, budget.seconds, budget.iterations, solver_nodes)
        for steps in prepared
        for i, (position, move) in enumerate(steps)
    ]
    owners = [(k, i) for k, steps in enumerate(prepared) for i in range(len(steps))]
    where = {id(task): owner for task, owner in zip(tasks, owners, strict=True)}
    answers: list[list[Appraised | None]] = [[None] * len(s) for s in prepared]
    chosen, release = (runner, _nothing) if runner is not None else _runner(jobs, cluster)
    started = time.perf_counter()
    total, done = len(tasks), 0
    if progress is not None:
        progress(0, total)
    try:
        for finished in chosen.run(tasks, appraise):
            k, i = where.get(id(finished.task)) or _owner_of(finished.task, tasks, owners)
            answers[k][i] = finished.result
            done += 1
            if progress is not None:
                progress(done, total)
    finally:
        release()
    seconds = time.perf_counter() - started
    return [
        _review_of(
            steps, [a for a in found if a is not None], spec, budget, seed, seconds, solver_nodes
        )
        for steps, found in zip(prepared, answers, strict=True)
    ]


def continue_review(
    game_or_record: object,
    appraised: Sequence[Appraised],
    *,
    count: int,
    bot: str | BotSpec = "mcts",
    seconds_per_move: float | None = None,
    iterations_per_move: int | None = None,
    seed: int | str = 1,
    solver_nodes: int = SOLVER_NODES,
) -> tuple[Review, list[Appraised], int]:
    """A review made a few positions at a time (the playground's, over the
    service): appraise the next ``count`` positions after those ``appraised``
    (which must be the game's first ones, as an earlier call answered them) in
    this process. Returns the review of the plies appraised so far, every
    appraisal so far, and the number of positions in all; the same seed and
    iteration budget give the review :func:`review` gives."""
    spec = _spec(bot)
    budget = _budget(spec, seconds_per_move, iterations_per_move)
    solver_nodes = _solver_nodes(solver_nodes)
    steps = _moves_of(game_of(game_or_record))
    found = list(appraised)
    if len(found) > len(steps):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"{len(found)} appraisals for a game of {len(steps)} positions"
        )
    for i, answer in enumerate(found):
        _check_appraisal(i, answer, steps[i][0])
    started = time.perf_counter()
    for i in range(len(found), min(len(steps), len(found) + count)):
        position, move = steps[i]
        found.append(
            appraise(
                Appraisal(
                    i, position, move, spec, seed, budget.seconds, budget.iterations, solver_nodes
                )
            )
        )
    seconds = time.perf_counter() - started
    review = _review_of(steps, found, spec, budget, seed, seconds, solver_nodes)
    return review, found, len(steps)


def _check_appraisal(index: int, answer: Appraised, position: Any) -> None:
    """``BAD_ARGUMENT`` unless ``answer`` could be the appraisal of ``position``."""
    fits = (
        answer.index == index
        and answer.over == position.is_over
        and (len(answer.shares) == position.rules.numplayers) == answer.over
        and (answer.best is None or position.is_legal(answer.best))
        and (answer.over or answer.forced or answer.value is not None)
    )
    if not fits:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"appraisal {index} is not one of this game's position {index}"
        )


def _owner_of(
    task: Appraisal, tasks: Sequence[Appraisal], owners: Sequence[tuple[int, int]]
) -> tuple[int, int]:
    """Which game and position a task came back from another process for (a copy:
    its identity is new)."""
    for candidate, owner in zip(tasks, owners, strict=True):
        if candidate == task:
            return owner
    raise StawvsError(BotErrorCode.ARENA_FAILED, "a runner answered a task it was not given")


def review(
    game_or_record: object,
    *,
    bot: str | BotSpec = "mcts",
    seconds_per_move: float | None = None,
    iterations_per_move: int | None = None,
    seed: int | str = 1,
    solver_nodes: int = SOLVER_NODES,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
) -> Review:
    """The review of one game, a record (ours or Abstract Play's) or a state: see
    :func:`review_many` and the module's description.

    >>> from stawvs_ap import StawvsGame
    >>> game = StawvsGame.new(2, seed=3)
    >>> for _ in range(4):
    ...     _ = game.move(game.moves()[0])
    >>> found = review(game, bot="mcts", iterations_per_move=40, seed=1)
    >>> [(p.ply, p.player) for p in found.plies]
    [(1, 1), (2, 2), (3, 1), (4, 2)]
    >>> found.same_judgements(review(game, bot="mcts", iterations_per_move=40, seed=1))
    True
    """
    return review_many(
        [game_or_record],
        bot=bot,
        seconds_per_move=seconds_per_move,
        iterations_per_move=iterations_per_move,
        seed=seed,
        solver_nodes=solver_nodes,
        jobs=jobs,
        cluster=cluster,
        progress=progress,
    )[0]
