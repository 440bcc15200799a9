"""An exact endgame solver: who wins with best play, and by how much.

The value of a position is the **margin** its mover can guarantee: the mover's
final score minus the highest final score among the others, when the mover
maximises it and every other player plays to minimise it. For two players
this is plain minimax of the score difference; for three or four it is the
*paranoid* value (the others are assumed to gang up on the mover).

:func:`solve` finds it with alpha-beta search over margins to the end of the
game. Each rule is the core's, written once: the moves are those of
:meth:`Position.legal_moves <stawvs_ap.core.position.Position.legal_moves>`,
the game has ended when :attr:`Position.is_over
<stawvs_ap.core.position.Position.is_over>` says so (after the last pass,
wherever it falls in a round, with the final captures the variants give
already made by :meth:`Position.play <stawvs_ap.core.position.Position.play>`),
and scores are :func:`stawvs_ap.core.scoring.score`'s. What makes it fast:

* a **transposition table** keyed on the canonical position
  (:func:`canonical`: the rules, hence the variants; the player to move; who
  has passed, as a set; each collection as a multiset, since the scoring
  groups any order alike) and the player whose margin is searched, holding
  proven lower and upper bounds and the best move found. The search always
  goes to the end of the game, so an entry never depends on a depth and
  stays true for as long as the table lives; a :class:`Solver` keeps its
  table between questions (the bots ask about successive positions of one
  game);
* **null windows**: the root's value by MTD(f), then one null-window test a
  root move for the set of best moves;
* **move ordering**: the move a node's entry remembers as best first, then
  the core's order (docs/solver.md has what other orderings measured).

A budget of ``seconds`` and/or ``nodes`` (positions visited) is checked
inside the search; when it runs out the answer says what was learned.

>>> from stawvs_ap import Position, solve
>>> ranks = ["GH1@1GH2@2......"] + ["........"] * 7  # ghosts: the final captures made
>>> final = Position.from_notation("/".join(ranks) + " 1 collect OR1OR2,OR3 12")
>>> solution = solve(final)  # every player has passed: the game is over
>>> solution.margin, solution.outcome, solution.best, solution.proven
(1, 'win', (), True)
>>> ranks[0] = "PI3@1BL1@2......"  # player 2 passed, player 1 walled in: it passes
>>> solution = solve(Position.from_notation("/".join(ranks) + " 1 collect PI1PI2,- 2"))
>>> solution.margin, solution.outcome, [str(move) for move in solution.best]  # 7 (a tree) to 1
(6, 'win', ['pass'])
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Final, Literal

from ..core.moves import Move
from ..core.position import Position
from ..core.scoring import score
from ..core.variants import Rules
from ..errors import ErrorCode, IllegalMoveError, StawvsError, excerpt
from ..host.game import StawvsGame
from ..host.messages import GAME_OVER
from ..i18n import catalogue
from .base import now
from .options import DEFAULT_MEMORY, MAX_SECONDS, SECONDS, Option

__all__ = ["MAX_NODES", "NODES", "Outcome", "Solution", "Solver", "solve"]

Outcome = Literal["win", "shared", "loss"]
#: A position as :func:`canonical` gives it: rules, board, caps, player to move,
#: the players who passed (sorted), each collection (its pyramids sorted, as
#: bytes: a third of a tuple's memory) and the mode.
Key = tuple[Rules, bytes, bytes, int, tuple[int, ...], tuple[bytes, ...], str]

#: The most positions one question may visit (about an hour of search).
MAX_NODES: Final = 200_000_000
NODES: Final = Option("nodes", int, None, "positions the solver may visit", low=1, high=MAX_NODES)
#: Bytes a table entry takes at most (its canonical key, the bounds and the
#: move): 440 to 690 measured with ``tracemalloc`` over solves of 80,000 to
#: 130,000 positions in the late game of ``benchmarks/bots.py``, whose memory
#: check holds the count (an mcts tree with its root solver's table).
TABLE_ENTRY_BYTES: Final = 760
#: Entries the transposition table holds at most: the bots' default
#: :data:`~stawvs_ap.bots.options.DEFAULT_MEMORY` (200 MB) at :data:`TABLE_ENTRY_BYTES`
#: an entry. A full table takes no new entry (the positions searched first
#: stay: the deepest of the first lines tried); a question that finds it more
#: than three quarters full starts it afresh, so that no question begins with
#: a table it can hardly add to.
TABLE_LIMIT: Final = (DEFAULT_MEMORY << 20) // TABLE_ENTRY_BYTES
#: Above every margin a game can reach (60 pyramids score less than 200).
_INFINITY: Final = 10_000
#: Sorted collections whose score the solver remembers at most.
_SCORES_LIMIT: Final = 100_000
#: Nodes between two looks at the clock.
_CLOCK_EVERY: Final = 512


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found about a position, from its mover's side.

    * ``margin``: the margin the mover can guarantee (their final score minus
      the best final score of the others); None unless ``proven``.
    * ``outcome``: ``"win"`` (margin > 0), ``"shared"`` (0), ``"loss"`` (< 0);
      None unless ``proven``.
    * ``best``: every legal move that reaches the margin, in the order of
      :meth:`Position.legal_moves`; ``()`` when the game is already over;
      None unless ``proven``.
    * ``line``: one principal variation, starting with ``best[0]`` (empty when
      the game is over, or when nothing was proven; cut short, never wrong,
      when the budget runs out while it is traced).
    * ``proven``: whether ``margin`` is exact (False: the budget ran out).
    * ``bound``: a margin the mover is proven to guarantee *at least*: equal
      to ``margin`` when proven; otherwise the best of the exact values proven
      for moves of the position before the budget ran out (``line`` then
      starts with such a move), or None when no move's was.
    * ``nodes`` and ``seconds``: the positions visited and the time spent.
    """

    margin: int | None
    outcome: Outcome | None
    best: tuple[Move, ...] | None
    line: tuple[Move, ...]
    proven: bool
    bound: int | None
    nodes: int
    seconds: float

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form: the fields, moves as move strings."""
        return {
            "margin": self.margin,
            "outcome": self.outcome,
            "best": None if self.best is None else [str(m) for m in self.best],
            "line": [str(m) for m in self.line],
            "proven": self.proven,
            "bound": self.bound,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def outcome_of(margin: int) -> Outcome:
    """``"win"``, ``"shared"`` or ``"loss"`` for a margin."""
    return "win" if margin > 0 else "shared" if margin == 0 else "loss"


def final_margin(position: Position, player: int) -> int:
    """``player``'s score minus the best score of the others, as the collections stand."""
    return margin_of(position.scores(), player)


def margin_of(scores: list[int], player: int) -> int:
    """``player``'s score minus the best of the others' (``scores`` by player, from 1)."""
    others = [s for p, s in enumerate(scores, start=1) if p != player]
    return scores[player - 1] - max(others)


class _OutOfBudget(Exception):
    """The budget ran out inside the search."""


class Solver:
    """An endgame solver keeping its transposition table between questions.

    Everything the table holds is a proven bound, true whatever the budget of
    the question that found it, so a solver asked about successive positions
    of a game (or about one position again, with more time) reuses its work.
    Answers with a node budget are deterministic for a given table: the same
    position and budget asked of a new solver give the same answer.
    """

    def __init__(self, table_limit: int = TABLE_LIMIT) -> None:
        """A solver whose table holds at most ``table_limit`` entries (a whole number
        of at least 1; ``BAD_ARGUMENT`` otherwise): about :data:`TABLE_ENTRY_BYTES`
        bytes each."""
        try:
            limit = operator.index(table_limit)
        except TypeError:
            limit = 0
        if isinstance(table_limit, bool) or limit < 1:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"a solver's table holds a whole number of entries of at least 1, "
                f"not {excerpt(table_limit)}",
            )
        self._table: dict[tuple[Key, int], tuple[int, int, Move | None]] = {}
        self._table_limit = limit
        self._nodes = 0
        self._node_limit = MAX_NODES
        self._deadline = 0.0
        self._root = 1
        #: The score of each sorted collection met (see :meth:`_score`).
        self._scores: dict[bytes, int] = {}

    def forget(self) -> None:
        """Empty the transposition table."""
        self._table.clear()

    def table_bytes(self) -> int:
        """The memory the transposition table takes, counted at
        :data:`TABLE_ENTRY_BYTES` an entry."""
        return len(self._table) * TABLE_ENTRY_BYTES

    def solve(
        self,
        position_or_game: Position | StawvsGame,
        *,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> Solution:
        """The value of the position for its mover (see :class:`Solution`), searched
        for at most ``seconds`` and ``nodes`` (None: no limit but
        :data:`~stawvs_ap.bots.options.MAX_SECONDS` and :data:`MAX_NODES`).

        ``BAD_ARGUMENT`` for a budget out of range or something that is not a
        position or a game; ``GAMEOVER`` for a game a host ended (resignation,
        timeout…) before every player had passed, which has no margin.
        """
        position = _position_of(position_or_game)
        start = now()
        limit = MAX_SECONDS if seconds is None else SECONDS.check(seconds)
        self._node_limit = MAX_NODES if nodes is None else NODES.check(nodes)
        self._deadline = start + limit
        self._nodes = 0
        if len(self._table) * 4 > self._table_limit * 3:
            self._table.clear()
        self._root = position.currplayer
        if position.is_over:
            margin = final_margin(position, self._root)
            return Solution(margin, outcome_of(margin), (), (), True, margin, 0, now() - start)
        try:
            best_value = self._exact(position, canonical(position))
            best = tuple(
                move
                for move in position.legal_moves()
                if self._reaches(*self._after(position, move), best_value)
            )
        except _OutOfBudget:
            return self._unproven(position, start)
        if abs(best_value) >= _INFINITY:  # no game reaches it: checked positions never do
            raise StawvsError(
                ErrorCode.BAD_POSITION,
                "the position leads to one with no legal move that is not over: "
                "it is not a position of a game",
            )
        line = (best[0], *self._line(best[0], position, best_value))
        spent = now() - start
        return Solution(
            best_value,
            outcome_of(best_value),
            best,
            line,
            True,
            best_value,
            self._nodes,
            spent,
        )

    # -- the search --------------------------------------------------------------

    def _count(self) -> None:
        if self._nodes >= self._node_limit:
            raise _OutOfBudget
        self._nodes += 1
        if not self._nodes % _CLOCK_EVERY and now() >= self._deadline:
            raise _OutOfBudget

    def _score(self, collection: bytes) -> int:
        """The core's score of a sorted collection, remembered (leaves and the
        move ordering ask about the same few collections again and again)."""
        points = self._scores.get(collection)
        if points is None:
            if len(self._scores) >= _SCORES_LIMIT:
                self._scores.clear()
            points = self._scores[collection] = score(collection)
        return points

    def _final(self, collections: tuple[bytes, ...]) -> int:
        """The root player's margin over final (sorted) collections."""
        return margin_of([self._score(c) for c in collections], self._root)

    def _unproven(self, position: Position, start: float) -> Solution:
        """What a question whose budget ran out learned: the best of the values the
        table holds exactly for the moves here, with a line starting with its move."""
        values: dict[Move, int] = {}
        for move in position.legal_moves():
            after, key = self._after(position, move)
            entry = None if key is None else self._table.get((key, self._root))
            if key is None:
                values[move] = self._margin(after)
            elif entry is not None and entry[0] == entry[1]:
                values[move] = entry[0]
        line: tuple[Move, ...] = ()
        bound = None
        if values:
            bound = max(values.values())
            move = next(move for move, value in values.items() if value == bound)
            line = (move, *self._line(move, position, bound))
        return Solution(None, None, None, line, False, bound, self._nodes, now() - start)

    def _after(self, position: Position, move: Move) -> tuple[Position, Key | None]:
        """The position after ``move`` and its canonical key (None: the game is over)."""
        after = position.play(move)[0]
        return after, None if after.is_over else canonical(after)

    def _margin(self, position: Position) -> int:
        """The root player's margin in a finished game."""
        return self._final(canonical(position)[5])

    def _value(self, position: Position, key: Key, alpha: int, beta: int) -> int:
        """The root player's margin after best play from ``position`` (not over;
        ``key`` its :func:`canonical` form), if it lies strictly between ``alpha``
        and ``beta``; otherwise a bound on the same side (at most ``alpha``, at
        least ``beta``): fail-soft alpha-beta."""
        self._count()
        root = self._root
        table = self._table
        entry_key = (key, root)
        entry = table.get(entry_key)
        lower, upper = -_INFINITY, _INFINITY
        if entry is None:
            moves = list(position.legal_moves())
        else:
            lower, upper, first = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
            moves = list(position.legal_moves())
            if first is not None and len(moves) > 1:  # the move that was best here first
                moves.remove(first)
                moves.insert(0, first)
        best_move = None
        if position.currplayer == root:  # the root player maximises the margin
            best = -_INFINITY
            floor = alpha
            for move in moves:
                after = position.play(move)[0]
                child = canonical(after)
                if after.is_over:
                    value = self._final(child[5])
                else:
                    value = self._value(after, child, floor, beta)
                if value > best:
                    best, best_move = value, move
                    if best >= beta:
                        break
                    floor = max(floor, best)
        else:  # every other player minimises it
            best = _INFINITY
            ceiling = beta
            for move in moves:
                after = position.play(move)[0]
                child = canonical(after)
                if after.is_over:
                    value = self._final(child[5])
                else:
                    value = self._value(after, child, alpha, ceiling)
                if value < best:
                    best, best_move = value, move
                    if best <= alpha:
                        break
                    ceiling = min(ceiling, best)
        if best <= alpha:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        if entry is not None or len(table) < self._table_limit:
            table[entry_key] = (lower, upper, best_move)
        return best

    def _reaches(self, position: Position, key: Key | None, bound: int) -> bool:
        """Whether the root player's margin from ``position`` (``key`` its
        :func:`canonical` form, None when the game is over) is at least ``bound``:
        one null-window search."""
        if key is None:
            return self._margin(position) >= bound
        return self._value(position, key, bound - 1, bound) >= bound

    def _exact(self, position: Position, key: Key | None) -> int:
        """The root player's exact margin from ``position`` (``key`` as for
        :meth:`_reaches`): MTD(f), null-window searches closing in on it from a
        first guess (the margin the collections give now, within the table's
        bounds). Measured on the positions of ``benchmarks/solver.py``, it
        visits about half the positions a full window does."""
        if key is None:
            return self._margin(position)
        low, high = -_INFINITY, _INFINITY
        guess = self._final(key[5])
        found = self._table.get((key, self._root))
        if found is not None:
            low, high = found[0], found[1]
            guess = min(max(guess, low), high)
        while low < high:
            beta = max(guess, low + 1)
            guess = self._value(position, key, beta - 1, beta)
            if guess < beta:
                high = guess
            else:
                low = guess
        return low

    def _line(self, move: Move, position: Position, value: int) -> tuple[Move, ...]:
        """A principal variation after ``move`` from ``position``, whose value is
        ``value``: at each position the first move (in search order) that keeps
        it, found again with a window of one margin around it (mostly from the
        table; searched again when a full table did not keep it). Shorter when
        the budget runs out."""
        line: list[Move] = []
        position = position.play(move)[0]
        try:
            while not position.is_over:
                for move in position.legal_moves():
                    after = position.play(move)[0]
                    if after.is_over:
                        found = self._margin(after)
                    else:
                        found = self._value(after, canonical(after), value - 1, value + 1)
                    if found == value:
                        line.append(move)
                        position = after
                        break
                else:  # unreachable: the window of one margin finds the value exactly
                    break
        except _OutOfBudget:
            pass
        return tuple(line)


def canonical(position: Position) -> Key:
    """What the rest of a game and its final scores depend on: the rules, board,
    caps, mode and player to move, who has passed (not in what order) and each
    collection as a multiset (sorted: the scoring groups any order alike).
    Positions differing only in the order of passes or captures share it."""
    rules, board, caps, player, eliminated, captured, mode, _, _ = position
    collections = tuple([bytes(sorted(collection)) for collection in captured])
    return (rules, board, caps, player, tuple(sorted(eliminated)), collections, mode)


def _position_of(position_or_game: object) -> Position:
    if isinstance(position_or_game, Position):
        return position_or_game
    if isinstance(position_or_game, StawvsGame):
        if position_or_game.gameover and not position_or_game.position.is_over:
            # Ended by a host (resigned, timed out…) before the last pass: no final margin.
            words = catalogue(position_or_game.locale)
            raise IllegalMoveError(ErrorCode.GAMEOVER, words.say(GAME_OVER))
        return position_or_game.position
    raise StawvsError(
        ErrorCode.BAD_ARGUMENT,
        f"the solver is asked about a StawvsGame or a Position, not "
        f"{type(position_or_game).__name__}",
    )


def solve(
    position_or_game: Position | StawvsGame,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
) -> Solution:
    """The value of a position (or of a game's position) for its mover, with a new
    :class:`Solver`: see :meth:`Solver.solve`."""
    return Solver().solve(position_or_game, seconds=seconds, nodes=nodes)
