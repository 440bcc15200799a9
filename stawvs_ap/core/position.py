"""A Stawvs position and its rules: legal moves, and what a move does.

A :class:`Position` is a value: it is never changed once made, two positions
holding the same game state are equal and hash alike, and
:meth:`Position.play` returns a new position with the events the move caused.
This module knows nothing of JSON, rendering, wording or the host contract.
It is longer than most: one value type and every rule of a position, kept
together since a named tuple cannot be split across mixins.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any, Final, Literal, NamedTuple

from ..errors import ErrorCode, StawvsError
from .events import Event, FinalCapture, GameEnded, Moved, Passed, Placed
from .moves import EMPTY_MOVE, PASS, Move
from .notation import PositionFields, format_diagram, format_position, parse_position
from .pyramids import COLOURED, EMPTY, PER_KIND, PYRAMIDS, Pyramid
from .scoring import score
from .squares import PATHS, RAYS, SQUARE_NAMES, SQUARES, Square, iter_squares, next_to, walk
from .variants import Rules, check_variants, empty_squares, rules_for

__all__ = ["EMPTY", "MAX_SEED", "Mode", "Position", "is_seed"]

Mode = Literal["place", "collect"]
_BITS: Final[tuple[int, ...]] = tuple(1 << sq for sq in range(64))
_NO_CAPS: Final = bytes(64)
#: The ``Moved`` event of every move is made with this, not ``Moved(...)``,
#: for the reason positions are made with :data:`_make`.
_tuple_new: Final = tuple.__new__
_EMPTY_BYTE: Final = bytes((EMPTY,))


def _occupied_mask(board: bytes) -> int:
    # A board has few empty squares, which bytes.index finds in C.
    occupied = (1 << 64) - 1
    at = -1
    for _ in range(board.count(EMPTY)):
        at = board.index(EMPTY, at + 1)
        occupied ^= _BITS[at]
    return occupied


def _capped_mask(caps: bytes) -> int:
    # Few squares hold a cap: find them in C.
    capped = 0
    at = -1
    for _ in range(64 - caps.count(0)):
        at = next(i for i in range(at + 1, 64) if caps[i])
        capped |= _BITS[at]
    return capped


#: The largest seed: seeds are the whole numbers that fit a signed 64-bit
#: integer, so that every host language reads them as the same number.
MAX_SEED: Final = 2**63 - 1


def is_seed(value: object) -> bool:
    """Whether ``value`` is a seed: a whole number (not a bool) from 0 to ``MAX_SEED``.

    >>> is_seed(7), is_seed("7"), is_seed(7.0), is_seed(2**63)
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED


class Position(NamedTuple):
    """The board, the caps, the collections and whose turn it is: a value.

    ``board[sq]`` is a pyramid number (see :class:`~stawvs_ap.core.pyramids.Pyramid`)
    or :data:`EMPTY`, and ``caps[sq]`` the player whose cap stands on ``sq``, or
    0, both ``bytes`` of 64 squares in reading order; ``captured[p - 1]`` is
    player p's collection in capture order; ``eliminated`` the players who have
    passed, in the order they did. ``occupied`` and ``capped`` are bitmasks of
    the squares holding a pyramid and a cap, derived from the board.

    A named tuple, because a move makes one and this is the cheapest immutable
    value Python has (a third of a frozen dataclass); it equals nothing but
    positions. Make positions with :meth:`initial`, :meth:`from_notation` or
    :meth:`build`, which derive the masks; the plain constructor takes them as
    given, for :meth:`play`, which already knows them.

    >>> from stawvs_ap import Move, Position, Square
    >>> start = Position.initial(2, seed=1)
    >>> after, events = start.play(Move.parse("b7"))  # a new position, and what happened
    >>> start.cap_at(Square.parse("b7")), after.cap_at(Square.parse("b7")), after.currplayer
    (None, 1, 2)
    >>> Position.from_notation(after.notation()) == after
    True
    """

    rules: Rules
    board: bytes
    caps: bytes
    currplayer: int
    eliminated: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    mode: Mode
    occupied: int
    capped: int

    @classmethod
    def build(
        cls,
        rules: Rules,
        board: Sequence[int],
        caps: Sequence[int] | None = None,
        currplayer: int = 1,
        eliminated: Sequence[int] = (),
        captured: Sequence[Sequence[int]] | None = None,
        mode: Mode | None = None,
    ) -> Position:
        """A position from its parts as any sequences; the mode, when not given, is
        ``"collect"`` once every cap is on the board. ``BAD_POSITION`` unless the
        board and caps have 64 squares."""
        board_bytes = bytes(board)
        caps_bytes = _NO_CAPS if caps is None else bytes(caps)
        if len(board_bytes) != 64 or len(caps_bytes) != 64:
            raise StawvsError(ErrorCode.BAD_POSITION, "a board has 64 squares")
        capped = _capped_mask(caps_bytes)
        if mode is None:
            mode = "collect" if capped.bit_count() >= rules.total_caps else "place"
        return cls(
            rules,
            board_bytes,
            caps_bytes,
            currplayer,
            tuple(eliminated),
            ((),) * rules.numplayers if captured is None else tuple(map(tuple, captured)),
            mode,
            _occupied_mask(board_bytes),
            capped,
        )

    def replace(self, **changes: Any) -> Position:
        """A copy with some parts changed, the masks derived again (the named
        tuple's own ``_replace`` would keep the old ones)."""
        parts = {
            "rules": self.rules,
            "board": self.board,
            "caps": self.caps,
            "currplayer": self.currplayer,
            "eliminated": self.eliminated,
            "captured": self.captured,
            "mode": self.mode,
            **changes,
        }
        return Position.build(**parts)

    def __eq__(self, other: object) -> bool:
        return type(other) is Position and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def __repr__(self) -> str:
        return f"Position.from_notation({self.notation()!r})"

    def __str__(self) -> str:
        """The board as a diagram (:func:`~stawvs_ap.core.notation.format_diagram`),
        then the notation's other fields: the player to move, the phase, the
        collections and the players who have passed."""
        fields = self.notation().split(" ", 1)[1]
        return "\n".join([*format_diagram(self.board, self.caps), "", fields])

    def _repr_svg_(self) -> str:
        """The position drawn (:func:`~stawvs_ap.pictures.board_svg`), for notebooks
        (Jupyter shows it as the cell's result)."""
        # The pictures are a floor above the core: imported when a picture is asked
        # for, never when the core is (tests/test_layout.py allows this one import).
        from ..pictures.svg import board_svg

        return board_svg(self)

    @classmethod
    def initial(
        cls,
        numplayers: int,
        variants: Sequence[str] = (),
        seed: int | None = None,
    ) -> Position:
        """A new game's position: 60 shuffled pyramids, four gaps, no caps.

        The same ``seed`` (a whole number from 0 to ``MAX_SEED``, 2^63 - 1) and
        variants always give the same board; ``None`` draws a fresh one. Raises
        ``BAD_VARIANT`` for unknown variants and ``BAD_ARGUMENT`` for any other seed.
        """
        if not is_seed(seed) and seed is not None:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"a seed is a whole number from 0 to 2^63-1 ({MAX_SEED}), not {seed!r:.40}",
            )
        chosen = check_variants(variants)
        rng = random.Random(seed)
        gaps = set(empty_squares(chosen, rng))
        bag = [kind for kind in COLOURED for _ in range(PER_KIND)]
        rng.shuffle(bag)
        pile = iter(bag)
        board = [EMPTY if sq in gaps else int(next(pile)) for sq in range(64)]
        return cls.build(rules_for(numplayers, chosen), board)

    @classmethod
    def from_notation(cls, text: str, variants: Sequence[str] = ()) -> Position:
        """The position a notation (see :mod:`stawvs_ap.core.notation`) describes,
        played under ``variants``; the player count is its number of collections.

        Raises ``BAD_POSITION`` for text that is not a position of 2–4 players.
        Whether the position obeys every rule is checked by
        :meth:`StawvsGame.from_position <stawvs_ap.StawvsGame.from_position>`.
        """
        fields = parse_position(text)
        numplayers = len(fields.captured)
        if not 2 <= numplayers <= 4:
            raise StawvsError(
                ErrorCode.BAD_POSITION,
                f"a position has 2 to 4 collections (players), not {numplayers}",
            )
        mode: Mode = "place" if fields.mode == "place" else "collect"
        return cls.build(
            rules_for(numplayers, check_variants(variants)),
            fields.board,
            fields.caps,
            fields.currplayer,
            fields.eliminated,
            fields.captured,
            mode,
        )

    def notation(self) -> str:
        """This position in the one-line notation of :mod:`stawvs_ap.core.notation`;
        ``Position.from_notation(p.notation(), variants) == p``."""
        return format_position(
            PositionFields(
                list(self.board),
                list(self.caps),
                self.currplayer,
                self.mode,
                [list(c) for c in self.captured],
                list(self.eliminated),
            )
        )

    # -- what is where --------------------------------------------------------

    def pyramid_at(self, square: int) -> Pyramid | None:
        """The pyramid on ``square``, or None."""
        pyramid = self.board[square]
        return None if pyramid == EMPTY else PYRAMIDS[pyramid]

    def cap_at(self, square: int) -> int | None:
        """The player whose cap stands on ``square``, or None."""
        return self.caps[square] or None

    def collection(self, player: int) -> tuple[Pyramid, ...]:
        """Player ``player``'s collection, in capture order."""
        return tuple(PYRAMIDS[p] for p in self.captured[player - 1])

    def cap_squares(self, player: int) -> list[Square]:
        """The squares of ``player``'s caps, in reading order."""
        caps = self.caps
        out = []
        sq = -1
        for _ in range(caps.count(player) if player > 0 else 0):
            sq = caps.index(player, sq + 1)
            out.append(SQUARES[sq])
        return out

    @property
    def free(self) -> int:
        """Bitmask of the squares holding a pyramid and no cap."""
        return self.occupied & ~self.capped

    @property
    def is_over(self) -> bool:
        """Whether every player has passed, which ends the game."""
        return len(self.eliminated) == self.rules.numplayers

    def scores(self) -> list[int]:
        """Each player's score from their collection (caps' pyramids count once collected)."""
        return [score(c) for c in self.captured]

    def winners(self) -> list[int]:
        """The players with the top score, ascending."""
        scores = self.scores()
        best = max(scores)
        return [p for p, s in enumerate(scores, start=1) if s == best]

    # -- the rules of movement --------------------------------------------------

    def can_move(self, player: int) -> bool:
        """Whether ``player`` has a collection move: some cap next to a free pyramid.

        A cap that can slide can always claim the square it left, so one free
        neighbour is enough.
        """
        caps = self.caps
        candidates = self.capped & next_to(self.free)
        while candidates:
            low = candidates & -candidates
            if caps[low.bit_length() - 1] == player:
                return True
            candidates ^= low
        return False

    def must_pass(self) -> bool:
        """Whether the player to move can only pass (collection phase, game not over)."""
        return (
            not self.is_over
            and self.mode == "collect"
            and (self.currplayer in self.eliminated or not self.can_move(self.currplayer))
        )

    def problem(self, move: Move) -> ErrorCode | None:
        """Why ``move`` (complete or partial) cannot be played by the player to move,
        as the first rule it breaks in the order of docs/CONTRACT.md §3; None when
        it is valid so far. Knows nothing of a game ended by a host (resignation…)."""
        source, dest, target, is_pass = move
        if is_pass:
            return None if self.must_pass() else ErrorCode.NOPASS
        if source is None:  # the empty move: nothing chosen yet
            return None
        # The parts unpacked at once, and the free squares not by the property
        # (a call from C): judging is a measurable part of every move a host makes.
        rules, _, caps, player, eliminated, _, mode, occupied, capped = self
        free = occupied & ~capped
        if mode == "place":
            if dest is not None or not free >> source & 1:
                return ErrorCode.BAD_PLACEMENT
            return None
        if target is not None and player in eliminated:
            return ErrorCode.MUST_PASS
        if caps[source] != player:
            return ErrorCode.BAD_START
        if dest is None:
            return None
        # One move's path, looked up: the judge never lists moves. What it accepts
        # is what the generator below lists (tests/test_api.py checks it).
        path = PATHS[source][dest]
        if not path or path & ~free:
            return ErrorCode.BAD_MOVE
        if target is None:
            return None
        if rules.hey:
            return None if target == source else ErrorCode.BAD_CLAIM_HEY
        path = PATHS[dest][target]
        if not path or path & ~(free | 1 << source):
            return ErrorCode.BAD_CLAIM
        return None

    def is_complete(self, move: Move) -> bool:
        """Whether ``move`` has every part a move needs here (legal or not); the
        empty move never has."""
        if move.is_pass or move.target is not None:
            return True
        return self.mode == "place" and move.source is not None and move.dest is None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is a legal complete move of the player to move."""
        return not self.is_over and self.is_complete(move) and self.problem(move) is None

    # -- the one move generator -------------------------------------------------

    def destinations(self, source: int) -> list[int]:
        """The square numbers a cap on ``source`` can slide to: every free square
        (a pyramid, no cap) on a line from ``source`` with only free squares
        before it, ray by ray in the order of :data:`~stawvs_ap.core.squares.RAYS`,
        outward.

        This, :meth:`claims` and :meth:`slides` are the one move generator:
        every list of moves (:meth:`legal_moves`, :meth:`legal_move_strings`,
        the random moves of :mod:`stawvs_ap.core.playout`, the bots' move
        orderings) is made from them."""
        return walk(source, self.free)

    def claims(self, source: int, dest: int) -> list[int]:
        """The square numbers claimable after the slide ``source``-``dest``: free
        squares on a line from ``dest``, where the vacated ``source`` counts as
        free, ray by ray outward; with ``hey``, only ``source``."""
        if self.rules.hey:
            return [source]
        return walk(dest, self.free | 1 << source)

    def slides(self) -> Iterator[tuple[int, int]]:
        """Every ``(source, dest)`` slide of the player to move, as square numbers:
        cap by cap in reading order, each cap's :meth:`destinations` in order."""
        free = self.free
        for source in self.cap_squares(self.currplayer):
            for dest in walk(source, free):
                yield source, dest

    def legal_moves(self) -> Iterator[Move]:
        """Every legal complete move of the player to move (``pass`` when there is no
        other); nothing once every player has passed."""
        if self.is_over:
            return
        if self.mode == "place":
            for sq in iter_squares(self.free):
                yield Move(SQUARES[sq])
            return
        found = False
        if self.currplayer not in self.eliminated:
            for source, dest in self.slides():
                for target in self.claims(source, dest):
                    found = True
                    yield Move(SQUARES[source], SQUARES[dest], SQUARES[target])
        if not found:
            yield PASS

    def continuations(self, move: Move = EMPTY_MOVE) -> tuple[Move, ...]:
        """The moves one part longer than ``move`` that lead to a legal move, in the
        order of :meth:`legal_moves`: the next click of a player building a move.

        After the empty move they are the placements, each cap that can slide
        (``FROM``), or ``pass`` alone when the player must pass; after ``FROM``
        each landing square (``FROM-TO``); after ``FROM-TO`` each complete move
        (``FROM-TO,TARGET``). Nothing follows a complete move, a move that leads
        to no legal move, or the end of the game.

        >>> board = "/".join(["........"] * 7 + ["PI1@1BL1GR1@2....."])
        >>> position = Position.from_notation(board + " 1 collect -,- -", ["hey"])
        >>> [str(m) for m in position.continuations()]
        ['a1']
        >>> [str(m) for m in position.continuations(Move.parse("a1"))]
        ['a1-b1']
        >>> [str(m) for m in position.continuations(Move.parse("a1-b1"))]
        ['a1-b1,a1']
        >>> position.continuations(Move.parse("c1")), position.continuations(PASS)
        ((), ())
        """
        if self.is_over or move.is_pass or move.target is not None:
            return ()
        if self.must_pass():
            return (PASS,) if move.source is None else ()
        if self.mode == "place":
            return tuple(self.legal_moves()) if move.source is None else ()
        free = self.free
        if move.source is None:
            return tuple(
                Move(SQUARES[s]) for s in self.cap_squares(self.currplayer) if walk(s, free)
            )
        if self.problem(move) is not None:  # the judge: another's cap, a blocked slide
            return ()
        source, dest = move.source, move.dest
        if dest is None:
            return tuple(Move(move.source, SQUARES[d]) for d in walk(source, free))
        return tuple(Move(move.source, move.dest, SQUARES[t]) for t in self.claims(source, dest))

    def legal_move_strings(self) -> list[str]:
        """:meth:`legal_moves` as move strings, in the same order.

        Hosts ask for these on every turn (the target is 40 µs on average), so
        the claims of each slide are walked here as :meth:`claims` walks them,
        writing each string at once instead of listing squares first (12% of
        the time). tests/test_movegen_property.py checks both give the same
        moves in the same order.
        """
        if self.is_over:
            return []
        names = SQUARE_NAMES
        free = self.free
        if self.mode == "place":
            return [names[sq] for sq in iter_squares(free)]
        out: list[str] = []
        if self.currplayer not in self.eliminated:
            hey = self.rules.hey
            for source, dest in self.slides():
                prefix = f"{names[source]}-{names[dest]},"
                if hey:
                    out.append(prefix + names[source])
                    continue
                claimable = free | 1 << source
                for ray in RAYS[dest]:
                    for target in ray:
                        if not claimable >> target & 1:
                            break
                        out.append(prefix + names[target])
        return out or ["pass"]

    # -- playing ------------------------------------------------------------------

    def play(self, move: Move) -> tuple[Position, tuple[Event, ...]]:
        """The position after the legal complete ``move``, and what happened.

        The caller guarantees legality (check with :meth:`is_legal`), as
        python-chess's ``push`` does; the position itself never changes.
        """
        rules, board, caps, player, eliminated, captured, mode, occupied, capped = self
        following = player % rules.numplayers + 1
        source, dest, target, is_pass = move
        if is_pass:
            return self._pass(player, following)
        assert source is not None
        new_caps = bytearray(caps)
        if target is None:  # a placement
            new_caps[source] = player
            capped |= 1 << source
            mode = "collect" if capped.bit_count() == rules.total_caps else "place"
            after = _make(
                (
                    rules,
                    board,
                    bytes(new_caps),
                    following,
                    eliminated,
                    captured,
                    mode,
                    occupied,
                    capped,
                ),
            )
            return after, (Placed(player, source, PYRAMIDS[board[source]]),)
        assert dest is not None
        claimed = board[target]
        new_caps[dest] = player
        new_caps[source] = 0
        collections = list(captured)
        collections[player - 1] += (claimed,)
        after = _make(
            (
                rules,
                board[:target] + _EMPTY_BYTE + board[target + 1 :],
                bytes(new_caps),
                following,
                eliminated,
                tuple(collections),
                mode,
                occupied & ~(1 << target),
                capped ^ (1 << source | 1 << dest),
            ),
        )
        return after, (_tuple_new(Moved, (player, source, dest, target, PYRAMIDS[claimed])),)

    def _pass(self, player: int, following: int) -> tuple[Position, tuple[Event, ...]]:
        if player in self.eliminated:
            passed = Passed(player, first=False)
            eliminated = self.eliminated
        else:
            under = tuple(PYRAMIDS[self.board[sq]] for sq in self.cap_squares(player))
            passed = Passed(player, first=True, under_caps=under)
            eliminated = (*self.eliminated, player)
        after = _make(
            (
                self.rules,
                self.board,
                self.caps,
                following,
                eliminated,
                self.captured,
                self.mode,
                self.occupied,
                self.capped,
            ),
        )
        if not after.is_over:
            return after, (passed,)
        captures: tuple[FinalCapture, ...] = ()
        if not self.rules.finalfree:
            after, captures = after._final_captures()
        return after, (passed, *captures, GameEnded(tuple(after.winners())))

    def _final_captures(self) -> tuple[Position, tuple[FinalCapture, ...]]:
        """Each cap's pyramid joins its owner's collection, squares in reading order;
        a ghost of its size stays under the cap."""
        board = bytearray(self.board)
        collections = list(self.captured)
        captures = []
        for sq in iter_squares(self.capped):
            pyramid = board[sq]
            if pyramid == EMPTY or PYRAMIDS[pyramid].is_ghost:
                continue
            owner = self.caps[sq]
            collections[owner - 1] += (pyramid,)
            board[sq] = PYRAMIDS[pyramid].ghost
            captures.append(FinalCapture(owner, SQUARES[sq], PYRAMIDS[pyramid]))
        after = _make(
            (
                self.rules,
                bytes(board),
                self.caps,
                self.currplayer,
                self.eliminated,
                tuple(collections),
                self.mode,
                self.occupied,
                self.capped,
            ),
        )
        return after, tuple(captures)

    def with_cap_moved(self, source: int, dest: int) -> Position:
        """This position with the cap on ``source`` standing on ``dest`` instead, and
        nothing else changed: what a partial move ``FROM-TO`` shows."""
        caps = bytearray(self.caps)
        caps[dest] = caps[source]
        caps[source] = 0
        return _make(
            (
                self.rules,
                self.board,
                bytes(caps),
                self.currplayer,
                self.eliminated,
                self.captured,
                self.mode,
                self.occupied,
                self.capped ^ (1 << source | 1 << dest),
            ),
        )


#: Every position a move makes is made here, from its fields in order, and not
#: by ``Position(...)``: a named tuple's generated ``__new__`` is a Python call
#: that costs as much again as the tuple itself, and playouts and searches make
#: millions of positions. ``tests/test_movegen_property.py`` holds what it makes
#: to :meth:`Position.build`.
_make: Final = partial(tuple.__new__, Position)
