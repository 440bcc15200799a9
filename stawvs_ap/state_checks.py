"""The rules a serialized state must keep: each check names what is wrong.

:mod:`stawvs_ap.state_io` reads a state's shape with its pydantic models; this
module then checks what the shape cannot say: player numbers in range, at most
five pyramids of a kind, caps that fit the turn order, results that the chat
log and the render can read, entries that end the game when they should.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Final, cast

from . import pyramids
from .board import SQUARE_NAMES, SQUARES
from .entry import PYRAMID_JSON, Entry
from .errors import InvalidStateError
from .notation import MoveSyntaxError, parse_move
from .position import EMPTY, Position, Rules
from .validation import judge
from .variants import check_variants, rules_for

if TYPE_CHECKING:
    from .state_format import EntryModel, StateModel

__all__ = [
    "CELL_OF_TEXT",
    "ENDINGS",
    "BoardRead",
    "board_from_text",
    "check_header",
    "check_history",
    "check_stack",
    "entry_from_model",
    "short",
]

#: ``lastmove`` values of the entries that end a game outside the rules.
ENDINGS: Final[tuple[str, ...]] = ("resign", "timeout", "draw", "abandoned")

_COLOURED_KINDS: Final = len(pyramids.KINDS)  # ghosts come after them
# Reading a state looks up every pyramid of every entry.
_PYRAMID_OF_JSON: Final[dict[tuple[str, int], int]] = {
    (colour, size): p for p, (colour, size) in enumerate(PYRAMID_JSON)
}
_COLOURED_OF_JSON: Final[dict[tuple[str, int], int]] = {
    key: p for key, p in _PYRAMID_OF_JSON.items() if p < _COLOURED_KINDS
}


def short(value: object) -> str:
    """``repr(value)``, cut short: messages quote what they refuse, not all of it."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_header(model: StateModel) -> tuple[list[str], Rules]:
    """The player count and variants: the variant ids and the rules they make."""
    n = model.numplayers
    if not 2 <= n <= 4:
        raise InvalidStateError(f"Stawvs is for 2 to 4 players, not {n}")
    try:
        variants = check_variants(model.variants)
    except ValueError as exc:
        raise InvalidStateError(str(exc)) from None
    return variants, rules_for(n, variants)


def check_stack(stack: list[Entry], gameover: bool, winner: list[int]) -> None:
    """The entries in order: only the first is a start, only the last may end the
    game, and the state's ``gameover`` and ``winner`` say what the last one does."""
    if stack[0].position.lastmove is not None:
        raise InvalidStateError("stack entry 0 is the starting position and has no last move")
    for i, entry in enumerate(stack[:-1]):
        if entry.ended:
            raise InvalidStateError(f"stack entry {i} ends the game, yet more entries follow it")
    for i, entry in enumerate(stack):
        _check_ending(i, entry)
    top = stack[-1]
    if gameover != top.ended or sorted(winner) != sorted(top.winners):
        raise InvalidStateError(
            f"'gameover' ({gameover}) and 'winner' ({short(winner)}) disagree "
            "with the results of the last stack entry"
        )


def check_history(stack: list[Entry]) -> None:
    """Every entry after the first is what its ``lastmove`` makes of the one before."""
    for i in range(1, len(stack)):
        _check_follows(i, stack[i - 1], stack[i])


def _check_follows(index: int, previous: Entry, entry: Entry) -> None:
    """Entry ``index`` must be what its ``lastmove`` makes of the entry before it:
    a history that could not have been played is refused, not shown."""
    before, given = previous.position, entry.position
    lastmove = given.lastmove or ""
    where = f"stack entry {index}"
    if lastmove in ENDINGS:
        expected = before._copy()
        expected.lastmove = lastmove
    else:
        verdict = judge(before, lastmove, game_over=previous.ended)
        if verdict.code is not None or verdict.complete != 1 or verdict.move is None:
            reason = verdict.message or "it is not a complete move"
            raise InvalidStateError(
                f"{where}: its last move {short(lastmove)} cannot follow entry {index - 1} "
                f"({reason})"
            )
        expected, results = before.play(verdict.move)
        if results != entry.results:
            raise InvalidStateError(
                f"{where}: its results are not those of the move {short(lastmove)}"
            )
    difference = _first_difference(expected, given)
    if difference:
        raise InvalidStateError(
            f"{where} does not follow from entry {index - 1} by {short(lastmove)}: {difference}"
        )


def _first_difference(expected: Position, given: Position) -> str:
    """What differs between two positions, for a message ('' when nothing does)."""
    for sq in range(64):
        if (expected.board[sq], expected.caps[sq]) != (given.board[sq], given.caps[sq]):
            return f"square {SQUARE_NAMES[sq]} differs"
    for name in ("lastmove", "currplayer", "mode", "eliminated", "captured"):
        if getattr(expected, name) != getattr(given, name):
            return f"its {name!r} differs"
    return ""


def _check_ending(index: int, entry: Entry) -> None:
    """An entry ends the game exactly when every player has passed, or by an ending call."""
    pos = entry.position
    if pos.is_over and not entry.ended:
        raise InvalidStateError(
            f"stack entry {index}: every player has passed, but its results do not end the game"
        )
    if entry.ended and not pos.is_over and pos.lastmove not in ENDINGS:
        raise InvalidStateError(
            f"stack entry {index} ends the game, but not every player has passed"
        )
    if pos.lastmove in ENDINGS and not entry.ended:
        raise InvalidStateError(
            f"stack entry {index}: the last move {pos.lastmove!r} ends a game, "
            "but its results do not"
        )


def entry_from_model(
    rules: Rules, index: int, model: EntryModel, board_read: BoardRead | None = None
) -> Entry:
    """The stack entry ``index`` read from its (shape-checked) model, once every
    rule it must keep has been checked. ``board_read`` replaces the model's
    board when that was read apart (see :func:`board_from_text`)."""
    where = f"stack entry {index}"
    n = rules.numplayers
    _check_player(where, model.currplayer, n, "the player to move")
    for p in model.eliminated:
        _check_player(where, p, n, "an eliminated player")
    if len(set(model.eliminated)) != len(model.eliminated):
        raise InvalidStateError(f"{where}: a player is listed twice as eliminated")
    if len(model.captured) != n:
        raise InvalidStateError(
            f"{where}: 'captured' has {len(model.captured)} collections for {n} players"
        )
    board, caps, on_board, ghost_squares = (
        board_read or _read_board(where, model.board.value, n)
    )
    counts = Counter(on_board)  # counted in C; first-seen order, as the messages expect
    captured: list[list[int]] = []
    for p, collection in enumerate(model.captured, start=1):
        found = list(map(_COLOURED_OF_JSON.get, collection))
        mine = (
            cast(list[int], found) if None not in found
            else [_collected(where, p, colour, size) for colour, size in collection]
        )
        if mine:
            counts.update(mine)
        captured.append(mine)
    if max(counts.values(), default=0) > pyramids.PER_KIND:
        kind, count = next((k, c) for k, c in counts.items() if c > pyramids.PER_KIND)
        raise InvalidStateError(
            f"{where}: there are {count} of {pyramids.describe(kind)[2:]}s; "
            f"the set has {pyramids.PER_KIND} of each kind"
        )
    for p in range(1, n + 1):
        placed = caps.count(p)
        if placed > rules.caps_per_player:
            raise InvalidStateError(
                f"{where}: player {p} has {placed} caps; each player has {rules.caps_per_player}"
            )
    if model.mode == "place":
        _check_placements(where, caps, model.currplayer, rules)
        if model.eliminated:
            raise InvalidStateError(f"{where}: nobody can have passed while caps are placed")
    if ghost_squares and (len(set(model.eliminated)) < n or rules.finalfree):
        sq = ghost_squares[0]
        raise InvalidStateError(
            f"{where}: player {caps[sq]}'s cap on {SQUARE_NAMES[sq]} stands on a ghost, but "
            "ghosts are left only by the final captures, once every player has passed "
            "(and never with 'finalfree')"
        )
    if ghost_squares:
        _check_ghosts(where, board, caps, ghost_squares, captured)
    if model.lastmove is not None and model.lastmove not in ENDINGS:
        try:
            parse_move(model.lastmove)
        except MoveSyntaxError:
            raise InvalidStateError(
                f"{where}: last move {model.lastmove!r} is not a move"
            ) from None
    position = Position(
        rules, board, caps,
        currplayer=model.currplayer, mode=model.mode, eliminated=model.eliminated,
        captured=captured, lastmove=model.lastmove,
    )
    results = [r.model_dump() for r in model.results]
    _check_results(where, results, n)
    return Entry(position, results, model.timestamp, model.version)


def _collected(where: str, player: int, colour: str, size: int) -> int:
    """A pyramid of ``player``'s collection, which is never a ghost."""
    try:
        return pyramids.parse(colour, size)
    except ValueError as exc:
        raise InvalidStateError(f"{where}: player {player}'s collection: {exc}") from None


def _check_ghosts(
    where: str, board: list[int], caps: list[int], ghost_squares: list[int],
    captured: list[list[int]],
) -> None:
    """A ghost stands where its owner's cap took the pyramid into their collection."""
    ghosts = Counter((caps[sq], pyramids.size_of(board[sq])) for sq in sorted(ghost_squares))
    for (p, size), count in ghosts.items():
        collected = sum(1 for pyramid in captured[p - 1] if pyramids.size_of(pyramid) == size)
        if count > collected:
            raise InvalidStateError(
                f"{where}: player {p}'s caps stand on {count} ghost(s) of size {size}, "
                f"but their collection has only {collected} pyramid(s) of that size"
            )


def _check_player(where: str, player: int, numplayers: int, what: str) -> None:
    if not 1 <= player <= numplayers:
        raise InvalidStateError(
            f"{where}: {what} is player {player}, but there are {numplayers} players"
        )


Cell = tuple[str, tuple[tuple[str, int]] | tuple[tuple[str, int], int]]
#: A board as read: pyramid and cap owner per square, the coloured pyramids in
#: the order the cells list them, and the squares of ghosts.
BoardRead = tuple[list[int], list[int], list[int], list[int]]
#: The square, pyramid and cap owner (0 for none) of each cell of a coloured
#: pyramid, by the cell's compact JSON text without its outer brackets
#: (``"a8",[["PI",1]]``, ``"a8",[["PI",1],2]``).
CELL_OF_TEXT: Final[dict[str, tuple[int, int, int]]] = {
    f'"{name}",[["{colour}",{size}]{f",{owner}" if owner else ""}]': (sq, pyramid, owner)
    for sq, name in enumerate(SQUARE_NAMES)
    for (colour, size), pyramid in _COLOURED_OF_JSON.items()
    for owner in range(5)
}


def board_from_text(cells: list[tuple[int, int, int]], numplayers: int) -> BoardRead | None:
    """The board of cells looked up in :data:`CELL_OF_TEXT`; None when a square
    is listed twice or a cap's owner is not a player (the full read says which)."""
    board = [EMPTY] * 64
    caps = [0] * 64
    for sq, pyramid, owner in cells:
        if board[sq] != EMPTY or owner > numplayers:
            return None
        board[sq] = pyramid
        caps[sq] = owner
    return board, caps, [pyramid for _, pyramid, _ in cells], []


def _read_board(
    where: str, cells: list[Cell], numplayers: int
) -> BoardRead:
    """Pyramid and cap owner per square, the coloured pyramids (in the cells'
    order) and the ghost squares, from the board cells of an entry."""
    board = [EMPTY] * 64
    caps = [0] * 64
    found_squares = list(map(SQUARES.get, [name for name, _ in cells]))
    found_kinds = list(map(_COLOURED_OF_JSON.get, [cell[0] for _, cell in cells]))
    # The usual board, coloured pyramids on distinct squares, is read in bulk;
    # anything else goes through the loop below, which says what is wrong.
    if None not in found_squares and None not in found_kinds:
        squares = cast(list[int], found_squares)
        kinds = cast(list[int], found_kinds)
        if len(set(squares)) == len(squares):
            for at, kind, (name, cell) in zip(squares, kinds, cells, strict=True):
                board[at] = kind
                if len(cell) == 2:
                    _check_player(where, cell[1], numplayers, f"the cap on {name}")
                    caps[at] = cell[1]
            return board, caps, kinds, []
    on_board: list[int] = []
    ghost_squares: list[int] = []
    for name, cell in cells:
        sq = SQUARES.get(name)
        if sq is None:
            raise InvalidStateError(f"{where}: {name!r} is not a square of the 8×8 board")
        if board[sq] != EMPTY:
            raise InvalidStateError(f"{where}: square {name} is listed twice")
        pyramid = _PYRAMID_OF_JSON.get(cell[0], EMPTY)
        if pyramid == EMPTY:
            try:  # for the message saying what is wrong with it
                pyramid = pyramids.parse(cell[0][0], cell[0][1], allow_ghost=True)
            except ValueError as exc:
                raise InvalidStateError(f"{where}: square {name}: {exc}") from None
        board[sq] = pyramid
        ghost = pyramids.is_ghost(pyramid)
        if len(cell) == 2:
            owner = cell[1]
            _check_player(where, owner, numplayers, f"the cap on {name}")
            caps[sq] = owner
        elif ghost:
            raise InvalidStateError(f"{where}: the ghost pyramid on {name} has no cap on it")
        if ghost:
            ghost_squares.append(sq)
        else:
            on_board.append(pyramid)
    return board, caps, on_board, ghost_squares


def _check_placements(where: str, caps: list[int], currplayer: int, rules: Rules) -> None:
    """While caps are placed, players 1, 2, … take turns: the caps on the board say
    whose turn it is. Otherwise a player could place more caps than they own."""
    placed = len(caps) - caps.count(0)
    n = rules.numplayers
    if placed >= n * rules.caps_per_player:
        raise InvalidStateError(
            f"{where}: every cap has been placed, so the mode must be 'collect', not 'place'"
        )
    for p in range(1, n + 1):
        expected = len(range(p - 1, placed, n))
        if caps.count(p) != expected:
            raise InvalidStateError(
                f"{where}: after {placed} placements player {p} should have {expected} "
                f"cap(s) on the board, not {caps.count(p)}"
            )
    if currplayer != placed % n + 1:
        raise InvalidStateError(
            f"{where}: after {placed} placements it is player {placed % n + 1}'s turn, "
            f"not player {currplayer}'s"
        )


def _check_results(where: str, results: list[dict[str, Any]], numplayers: int) -> None:
    """The fields that the chat log, the render and the winners read must be there
    and well typed: a tampered result would otherwise break them later."""
    for result in results:
        kind = result["type"]
        need: tuple[str, ...] = _RESULT_SQUARES.get(kind, ())
        for key in need:
            square = result.get(key)
            if not isinstance(square, str) or square not in SQUARES:
                raise InvalidStateError(
                    f"{where}: a {kind!r} result needs a square as {key!r}, "
                    f"not {short(square)}"
                )
        if kind == "move" and not isinstance(result.get("what"), str):
            raise InvalidStateError(f"{where}: a 'move' result needs the claimed pyramid as 'what'")
        payload = result.get("payload", [])
        if kind == "announce" and not (
            isinstance(payload, list) and all(isinstance(x, str) for x in payload)
        ):
            raise InvalidStateError(f"{where}: an 'announce' payload must be a list of texts")
        players = result.get("players") if kind == "winners" else [result.get("player")]
        if kind in ("winners", "resigned", "timeout") and not (
            isinstance(players, list)
            and all(type(p) is int and 1 <= p <= numplayers for p in players)
        ):
            raise InvalidStateError(
                f"{where}: the players of a {kind!r} result must be numbers from 1 to "
                f"{numplayers}, not {short(result.get('players', result.get('player')))}"
            )


# The squares each kind of result names (and the render and chat log read).
_RESULT_SQUARES: Final[dict[str, tuple[str, ...]]] = {
    "place": ("where",),
    "move": ("from", "to", "how"),
}
