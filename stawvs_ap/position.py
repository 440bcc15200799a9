"""A Stawvs position and its rules: legal moves, and what a move does.

This module knows nothing of JSON, rendering or the host contract. A
:class:`Position` is never changed once built: :meth:`Position.play` returns a
new one. Internally the board is two 64-entry lists (pyramid per square, cap
owner per square) plus bitmasks of the squares holding a pyramid and a cap.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Final, Literal

from . import pyramids
from .board import PATHS, RAYS, SQUARE_NAMES, bit, iter_squares, next_to
from .notation import Move
from .scoring import score

__all__ = ["EMPTY", "Mode", "Position", "Rules"]

Mode = Literal["place", "collect"]
#: The pyramid value of a square with no pyramid.
EMPTY: Final = -1
_BITS: Final[tuple[int, ...]] = tuple(1 << sq for sq in range(64))
_ALL_SQUARES: Final = (1 << 64) - 1
# A bare Position, without __init__'s conversions: play() sets every slot itself.
_new_position = object.__new__
#: ``_DESCRIBED[pyramid]``: :func:`pyramids.describe` as a table, for the hot path.
_DESCRIBED: Final[tuple[str, ...]] = tuple(
    pyramids.describe(p) for p in range(len(pyramids.KINDS) + 3)  # kinds, then 3 ghosts
)


@dataclass(frozen=True, slots=True)
class Rules:
    """What the variants change: player count, caps each, claims, final captures."""

    numplayers: int
    caps_per_player: int = 3
    hey: bool = False
    finalfree: bool = False


class Position:
    """The board, the collections and whose turn it is.

    ``board[sq]`` is a pyramid (see :mod:`stawvs_ap.pyramids`) or :data:`EMPTY`;
    ``caps[sq]`` is the player whose cap stands on ``sq``, or 0.
    ``captured[p - 1]`` is player p's collection in capture order;
    ``eliminated`` lists the players who have passed, in the order they did.
    """

    __slots__ = (
        "board", "capped", "caps", "captured", "currplayer", "eliminated",
        "lastmove", "mode", "occupied", "rules",
    )

    def __init__(
        self,
        rules: Rules,
        board: Sequence[int],
        caps: Sequence[int],
        *,
        currplayer: int = 1,
        mode: Mode = "place",
        eliminated: Sequence[int] = (),
        captured: Sequence[Sequence[int]] | None = None,
        lastmove: str | None = None,
    ) -> None:
        self.rules = rules
        self.board: list[int] = list(board)
        self.caps: list[int] = list(caps)
        self.currplayer = currplayer
        self.mode: Mode = mode
        self.eliminated: tuple[int, ...] = tuple(eliminated)
        self.captured: tuple[tuple[int, ...], ...] = (
            tuple(map(tuple, captured))
            if captured is not None
            else tuple(() for _ in range(rules.numplayers))
        )
        self.lastmove = lastmove
        # Boards have few empty squares, which list.index finds in C.
        occupied = _ALL_SQUARES
        at = -1
        for _ in range(self.board.count(EMPTY)):
            at = self.board.index(EMPTY, at + 1)
            occupied ^= _BITS[at]
        self.occupied = occupied
        self.capped = sum(compress(_BITS, self.caps))

    def _copy(self) -> Position:
        other = Position.__new__(Position)
        other.rules = self.rules
        other.board = self.board.copy()
        other.caps = self.caps.copy()
        other.currplayer = self.currplayer
        other.mode = self.mode
        other.eliminated = self.eliminated
        other.captured = self.captured
        other.lastmove = self.lastmove
        other.occupied = self.occupied
        other.capped = self.capped
        return other

    # -- queries -------------------------------------------------------------

    @property
    def free(self) -> int:
        """Bitmask of squares holding a pyramid and no cap."""
        return self.occupied & ~self.capped

    @property
    def is_over(self) -> bool:
        """Whether every player has passed, which ends the game."""
        return len(self.eliminated) == self.rules.numplayers

    def cap_squares(self, player: int) -> list[int]:
        """Squares of ``player``'s caps, in reading order."""
        # list.index finds the few caps faster than a walk over every capped square.
        caps = self.caps
        out = []
        sq = -1
        for _ in range(caps.count(player) if player > 0 else 0):
            sq = caps.index(player, sq + 1)
            out.append(sq)
        return out

    def caps_placed(self) -> int:
        return self.capped.bit_count()

    def destinations(self, source: int) -> list[int]:
        """Squares the cap on ``source`` can slide to (through and onto free pyramids)."""
        free = self.occupied & ~self.capped
        out = []
        for ray in RAYS[source]:
            for sq in ray:
                if not free >> sq & 1:
                    break
                out.append(sq)
        return out

    def targets(self, source: int, dest: int) -> list[int]:
        """Squares claimable after sliding from ``source`` to ``dest``.

        The vacated ``source`` counts as free; ``dest`` (now capped) never does.
        With ``hey`` only ``source`` may be claimed.
        """
        if self.rules.hey:
            return [source]
        free = (self.occupied & ~self.capped) | (1 << source)
        out = []
        for ray in RAYS[dest]:
            for sq in ray:
                if not free >> sq & 1:
                    break
                out.append(sq)
        return out

    def can_slide(self, source: int, dest: int) -> bool:
        """Whether the cap on ``source`` can slide to ``dest`` (one line, all free)."""
        path = PATHS[source][dest]
        return path != 0 and not path & ~(self.occupied & ~self.capped)

    def can_claim(self, source: int, dest: int, target: int) -> bool:
        """Whether, after sliding from ``source`` to ``dest``, ``target`` may be claimed.

        Same answer as ``target in self.targets(source, dest)``, without the list.
        """
        if self.rules.hey:
            return target == source
        path = PATHS[dest][target]
        free = (self.occupied & ~self.capped) | (1 << source)
        return path != 0 and not path & ~free

    def can_move(self, player: int) -> bool:
        """Whether ``player`` has a collection move: some cap next to a free pyramid.

        A cap that can slide can always claim the square it left, so one free
        neighbour is enough.
        """
        # Only the caps next to a free pyramid are worth looking at: few, late in
        # a game, when this is asked before every pass.
        caps = self.caps
        candidates = self.capped & next_to(self.occupied & ~self.capped)
        while candidates:
            low = candidates & -candidates
            if caps[low.bit_length() - 1] == player:
                return True
            candidates ^= low
        return False

    def must_pass(self) -> bool:
        """Whether the player to move can only pass (collection phase)."""
        return self.mode == "collect" and (
            self.currplayer in self.eliminated or not self.can_move(self.currplayer)
        )

    def legal_moves(self) -> Iterator[Move]:
        """Every legal complete move of the player to move (``pass`` when nothing else).

        Yields nothing once the game is over.
        """
        if self.is_over:
            return
        if self.mode == "place":
            for sq in iter_squares(self.free):
                yield Move(sq)
            return
        player = self.currplayer
        if player in self.eliminated:
            yield Move(is_pass=True)
            return
        found = False
        for source in self.cap_squares(player):
            for dest in self.destinations(source):
                for target in self.targets(source, dest):
                    found = True
                    yield Move(source, dest, target)
        if not found:
            yield Move(is_pass=True)

    def legal_move_strings(self) -> list[str]:
        """:meth:`legal_moves` as move strings, built without intermediate objects."""
        if self.is_over:
            return []
        if self.mode == "place":
            return [SQUARE_NAMES[sq] for sq in iter_squares(self.free)]
        player = self.currplayer
        if player in self.eliminated:
            return ["pass"]
        out: list[str] = []
        free = self.occupied & ~self.capped
        hey = self.rules.hey
        for source in self.cap_squares(player):
            source_name = SQUARE_NAMES[source]
            claimable = free | (1 << source)
            for ray in RAYS[source]:
                for dest in ray:
                    if not free >> dest & 1:
                        break
                    prefix = f"{source_name}-{SQUARE_NAMES[dest]},"
                    if hey:
                        out.append(prefix + source_name)
                        continue
                    for target_ray in RAYS[dest]:
                        for target in target_ray:
                            if not claimable >> target & 1:
                                break
                            out.append(prefix + SQUARE_NAMES[target])
        return out or ["pass"]

    def scores(self) -> list[int]:
        """Each player's score from their collection (caps' pyramids count once collected)."""
        return [score(c) for c in self.captured]

    def winners(self) -> list[int]:
        """The players with the top score, ascending."""
        scores = self.scores()
        best = max(scores)
        return [p for p, s in enumerate(scores, start=1) if s == best]

    # -- playing -------------------------------------------------------------

    def next_player(self) -> int:
        return self.currplayer % self.rules.numplayers + 1

    def play(self, move: Move) -> tuple[Position, list[dict[str, object]]]:
        """Apply a legal complete move; return the new position and the move's results.

        The caller guarantees legality (see :class:`stawvs_ap.StawvsGame`), as
        python-chess's ``push`` does.
        """
        # Placements and collection moves, nearly all moves, are built here in
        # one pass, each field of the new position written once, where _copy then
        # _apply would write most of them twice and call several helpers. This
        # must equal _copy() + _apply(), the in-place form that playouts use
        # (tests/test_fast_paths.py checks that it does).
        if move.is_pass:
            after = self._copy()
            return after, after._apply(move)
        source, dest, target = move.source, move.dest, move.target
        assert source is not None
        player = self.currplayer
        rules = self.rules
        after = _new_position(Position)
        after.rules = rules
        after.currplayer = player % rules.numplayers + 1
        after.eliminated = self.eliminated
        if self.mode == "place":
            caps = self.caps.copy()
            caps[source] = player
            capped = self.capped | 1 << source
            after.board = self.board.copy()
            after.caps = caps
            full = capped.bit_count() == rules.numplayers * rules.caps_per_player
            after.mode = "collect" if full else self.mode
            after.captured = self.captured
            after.lastmove = str(move)
            after.occupied = self.occupied
            after.capped = capped
            return after, [{"type": "place", "where": SQUARE_NAMES[source], "who": player}]
        assert dest is not None and target is not None
        board = self.board.copy()
        caps = self.caps.copy()
        caps[dest] = caps[source]
        caps[source] = 0
        claimed = board[target]
        board[target] = EMPTY
        collections = list(self.captured)
        collections[player - 1] += (claimed,)
        after.board = board
        after.caps = caps
        after.mode = self.mode
        after.captured = tuple(collections)
        names = SQUARE_NAMES
        source_name, dest_name, target_name = names[source], names[dest], names[target]
        after.lastmove = f"{source_name}-{dest_name},{target_name}"  # str(move)
        after.occupied = self.occupied & ~(1 << target)
        after.capped = self.capped ^ ((1 << source) | (1 << dest))
        return after, [{
            "type": "move",
            "from": source_name,
            "to": dest_name,
            "how": target_name,
            "what": _DESCRIBED[claimed],
        }]

    def _apply(self, move: Move) -> list[dict[str, object]]:
        """Play a legal complete move on this very object (see :meth:`play`)."""
        player = self.currplayer
        results: list[dict[str, object]]
        if move.is_pass:
            results = self._pass(player)
        elif self.mode == "place":
            assert move.source is not None
            self.caps[move.source] = player
            self.capped |= bit(move.source)
            results = [{"type": "place", "where": SQUARE_NAMES[move.source], "who": player}]
            if self.caps_placed() == self.rules.numplayers * self.rules.caps_per_player:
                self.mode = "collect"
        else:
            assert move.source is not None and move.dest is not None and move.target is not None
            results = [self._slide_and_claim(player, move.source, move.dest, move.target)]
        self.lastmove = str(move)
        self.currplayer = player % self.rules.numplayers + 1
        return results

    def preview(self, move: Move) -> tuple[Position, list[dict[str, object]]]:
        """What a valid partial move shows: the cap lifted (``FROM``) or moved (``FROM-TO``)."""
        if move.dest is None:
            source = "" if move.source is None else SQUARE_NAMES[move.source]
            return self, [{"type": "move", "from": source, "to": ""}]
        assert move.source is not None
        after = self._copy()
        after._lift_cap(move.source, move.dest)
        return after, [
            {"type": "move", "from": SQUARE_NAMES[move.source], "to": SQUARE_NAMES[move.dest]}
        ]

    def _lift_cap(self, source: int, dest: int) -> None:
        caps = self.caps
        caps[dest] = caps[source]
        caps[source] = 0
        self.capped ^= (1 << source) | (1 << dest)

    def _slide_and_claim(
        self, player: int, source: int, dest: int, target: int
    ) -> dict[str, object]:
        self._lift_cap(source, dest)
        claimed = self.board[target]
        self.board[target] = EMPTY
        self.occupied &= ~(1 << target)
        collections = list(self.captured)
        collections[player - 1] += (claimed,)
        self.captured = tuple(collections)
        return {
            "type": "move",
            "from": SQUARE_NAMES[source],
            "to": SQUARE_NAMES[dest],
            "how": SQUARE_NAMES[target],
            "what": pyramids.describe(claimed),
        }

    def _pass(self, player: int) -> list[dict[str, object]]:
        if player in self.eliminated:
            results: list[dict[str, object]] = [{"type": "pass"}]
        else:
            self.eliminated = (*self.eliminated, player)
            payload = [_DESCRIBED[self.board[sq]] for sq in self.cap_squares(player)]
            results = [{"type": "announce", "payload": payload}]
        if len(self.eliminated) == self.rules.numplayers:  # is_over
            if not self.rules.finalfree:
                self._final_captures()
            results.append({"type": "eog"})
            results.append({"type": "winners", "players": self.winners()})
        return results

    def _final_captures(self) -> None:
        collections = [list(c) for c in self.captured]
        for sq in iter_squares(self.capped):
            pyramid = self.board[sq]
            if pyramid == EMPTY or pyramids.is_ghost(pyramid):
                continue
            collections[self.caps[sq] - 1].append(pyramid)
            self.board[sq] = pyramids.ghost_of(pyramid)
        self.captured = tuple(tuple(c) for c in collections)
